package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"
)

// errorObject is the --json form of an error.
type errorObject struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// jsonError decodes the one error object standard output must hold.
func jsonError(t *testing.T, r result) errorObject {
	t.Helper()
	var e errorObject
	decodeJSON(t, r.stdout, &e)
	require.NotEmpty(t, e.Error.Code, "stdout: %s", r.stdout)
	require.NotEmpty(t, e.Error.Message, "stdout: %s", r.stdout)
	return e
}

const cliWorkspace = `-- tides.md --
# Ocean tides

Tides are caused by the gravitational pull of the moon and the sun.

## Spring tides

Spring tides happen when the sun and the moon line up.
-- notes/rust.md --
# Rust ownership

The borrow checker enforces ownership rules at compile time.
`

// TestUsageErrorsExitTwo runs every command with an unknown flag, a
// missing or extra argument or a bad flag value: each exits 2, says why on
// standard error and, with --json, prints an error object with code
// "usage" on standard output. None of them opens the knowledge base.
func TestUsageErrorsExitTwo(t *testing.T) {
	env := isolatedEnv(t)
	ws := writeWorkspace(t, cliWorkspace)
	db := filepath.Join(t.TempDir(), "kb.db")
	tests := []struct {
		name string
		args []string
		says string // in the message
	}{
		{"unknown command", []string{"frobnicate"}, `unknown command "frobnicate"`},
		{"root unknown flag", []string{"--frobnicate", "stats"}, "unknown flag: --frobnicate"},
		{"ask unknown flag", []string{"ask", "--frobnicate", "q"}, "unknown flag"},
		{"ask missing question", []string{"ask"}, "ask: requires at least 1 arg"},
		{"ask bad pin", []string{"ask", "--pin", "gs", "q"}, "want stage=plugin-id"},
		{"ask bad prefer", []string{"ask", "--prefer", "kb", "q"}, "want stage=plugin-id"},
		{"search unknown flag", []string{"search", "--frobnicate", "q"}, "unknown flag"},
		{"search bad k value", []string{"search", "--k", "ten", "q"}, `invalid argument "ten" for "--k"`},
		{"search bad workers value", []string{"search", "--workers", "x", "q"}, "--workers"},
		{"ingest unknown flag", []string{"ingest", "--frobnicate"}, "unknown flag"},
		{"ingest extra argument", []string{"ingest", "extra"}, `unknown command "extra"`},
		{"ingest bad size", []string{"ingest", "--max-file-size", "big"}, "--max-file-size"},
		{"stats extra argument", []string{"stats", "extra"}, `unknown command "extra"`},
		{"stats bad bool", []string{"stats", "--verify=maybe"}, "--verify"},
		{"kus missing file", []string{"kus"}, "kus: accepts 1 arg"},
		{"kus two files", []string{"kus", "a.md", "b.md"}, "kus: accepts 1 arg"},
		{"plugins extra argument", []string{"plugins", "extra"}, `unknown command "extra"`},
		{"plugins check no folder", []string{"plugins", "check"}, "plugins check: requires at least 1 arg"},
		{"trace two ids", []string{"trace", "a", "b"}, "trace: accepts at most 1 arg"},
		{"eval no suite", []string{"eval"}, "eval: requires at least 1 arg"},
		{"version extra argument", []string{"version", "extra"}, `unknown command "extra"`},
		{"lsp extra argument", []string{"lsp", "extra"}, `unknown command "extra"`},
		{"mcp unknown flag", []string{"mcp", "--frobnicate"}, "unknown flag"},
		{"completion unknown shell", []string{"completion", "tcsh"}, `unknown command "tcsh"`},
		{"global flag missing value", []string{"stats", "--db"}, "flag needs an argument"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"--workspace", ws}, tt.args...)
			if !slicesContain(tt.args, "--db") {
				args = append(args, "--db", db)
			}
			r := run(t, env, args...)
			assert.Equal(t, 2, r.code, "stderr: %s", r.stderr)
			assert.Contains(t, r.stderr, tt.says)
			assert.Empty(t, r.stdout)

			if slicesContain(tt.args, "--db") { // "--json" would be --db's value
				return
			}
			r = run(t, env, append(args, "--json")...)
			assert.Equal(t, 2, r.code, "stderr: %s", r.stderr)
			e := jsonError(t, r)
			assert.Equal(t, "usage", e.Error.Code)
			assert.Contains(t, e.Error.Message, tt.says)
		})
	}
	_, err := os.Stat(db)
	assert.ErrorIs(t, err, os.ErrNotExist, "a usage error must not create the knowledge base")
}

func slicesContain(s []string, x string) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

// TestJSONErrorObjects checks that failures other than usage errors come
// out of --json as error objects with their stable code, with the exit
// status they have without --json.
func TestJSONErrorObjects(t *testing.T) {
	env := isolatedEnv(t)
	home := env[len(env)-1][len("HOME="):]
	ws := writeWorkspace(t, cliWorkspace)
	garbage := filepath.Join(t.TempDir(), "garbage.db")
	require.NoError(t, os.WriteFile(garbage, bytes.Repeat([]byte("not a bbolt file "), 1000), 0o644))
	db := filepath.Join(t.TempDir(), "kb.db")
	tests := []struct {
		name string
		args []string
		exit int
		code string
	}{
		{"damaged knowledge base", []string{"stats", "-w", ws, "--db", garbage}, 1, "kb_corrupt"},
		{"home folder as workspace", []string{"stats", "-w", home, "--db", db}, 1, "unsafe_workspace"},
		{"k out of range", []string{"search", "-w", ws, "--db", db, "--k", "0", "tides"}, 2, "bad_k"},
		{"empty query", []string{"search", "-w", ws, "--db", db, "  "}, 2, "empty_query"},
		{"unknown kb-plugin", []string{"search", "-w", ws, "--db", db, "--plugin", "kb-nope", "tides"}, 2, "unknown_plugin"},
		{"unknown request id", []string{"trace", "-w", ws, "--db", db, "r-nope"}, 1, "trace_not_found"},
		{"missing file", []string{"kus", filepath.Join(ws, "absent.md")}, 1, "file_not_found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, env, tt.args...)
			require.Equal(t, tt.exit, r.code, "stderr: %s", r.stderr)
			require.Contains(t, r.stderr, "mrpvm: ")
			r = run(t, env, append(tt.args, "--json")...)
			require.Equal(t, tt.exit, r.code, "stderr: %s", r.stderr)
			e := jsonError(t, r)
			assert.Equal(t, tt.code, e.Error.Code, "message: %s", e.Error.Message)
		})
	}
}

// TestJSONResultIsNotFollowedByAnError checks that a command which printed
// its --json result describing a failure adds no error object after it:
// standard output stays one JSON value.
func TestJSONResultIsNotFollowedByAnError(t *testing.T) {
	env := isolatedEnv(t)
	r := run(t, env, "plugins", "check", "--json", t.TempDir())
	require.Equal(t, 1, r.code, r.stderr)
	var problems []map[string]any
	dec := json.NewDecoder(strings.NewReader(r.stdout))
	require.NoError(t, dec.Decode(&problems), r.stdout)
	assert.False(t, dec.More(), "one JSON value: %s", r.stdout)
	assert.NotEmpty(t, problems)

	// ask --json prints its response (status invalid) for a request it
	// refuses; the trace inside carries the code.
	ws := writeWorkspace(t, cliWorkspace)
	r = run(t, env, "ask", "-w", ws, "--json", "--session", "s-nope", "what causes tides")
	require.Equal(t, 2, r.code, r.stderr)
	var resp struct {
		Status string `json:"status"`
	}
	dec = json.NewDecoder(strings.NewReader(r.stdout))
	require.NoError(t, dec.Decode(&resp), r.stdout)
	assert.False(t, dec.More(), "one JSON value: %s", r.stdout)
	assert.Equal(t, "invalid", resp.Status)
}

// TestQuiet checks --quiet: no progress lines and no notes on standard
// error; results and errors are still printed.
func TestQuiet(t *testing.T) {
	env := isolatedEnv(t)
	ws := writeWorkspace(t, cliWorkspace)
	db := filepath.Join(t.TempDir(), "kb.db")

	r := run(t, env, "ingest", "-w", ws, "--db", db, "--rebuild")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Regexp(t, `(?m)^ingest: \d+/\d+ files$`, r.stderr, "progress without --quiet")
	r = run(t, env, "ingest", "-w", ws, "--db", db, "--rebuild", "--quiet")
	require.Equal(t, 0, r.code, r.stderr)
	assert.NotContains(t, r.stderr, "ingest:", "no progress with --quiet")
	assert.Contains(t, r.stdout, "ingested 2 files", "the result is still printed")

	r = run(t, env, "search", "-w", ws, "--db", db, "the and of")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stderr, "note: the query has no searchable terms")
	r = run(t, env, "search", "-w", ws, "--db", db, "-q", "the and of")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Empty(t, r.stderr)

	r = run(t, env, "search", "-w", ws, "--db", db, "--quiet", "--k", "0", "tides")
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.stderr, "bad_k", "errors are still printed")
}

// TestTraceTable asks a question, then prints its trace: a table of the
// stage calls by default, the whole record with --json.
func TestTraceTable(t *testing.T) {
	env := isolatedEnv(t)
	ws := writeWorkspace(t, cliWorkspace)
	db := filepath.Join(t.TempDir(), "kb.db")
	r := run(t, env, "ask", "-w", ws, "--db", db, "--json", "what causes tides")
	require.Equal(t, 0, r.code, r.stderr)
	var a askJSON
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &a))
	require.NotEmpty(t, a.Trace.Stages)

	r = run(t, env, "trace", "-w", ws, "--db", db)
	require.Equal(t, 0, r.code, r.stderr)
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	require.GreaterOrEqual(t, len(lines), 2+len(a.Trace.Stages), r.stdout)
	assert.Regexp(t, `^request r-\S+ · session s-\S+ · success \(answered\)$`, lines[0])
	var header int
	for i, l := range lines {
		if strings.HasPrefix(l, "STAGE") {
			header = i
			break
		}
	}
	require.NotZero(t, header, r.stdout)
	assert.Regexp(t, `^STAGE\s+PLUGIN\s+STATUS\s+MS\s+NOTES$`, lines[header])
	for i, s := range a.Trace.Stages {
		row := regexp.MustCompile(`^` + regexp.QuoteMeta(s.Stage) + `\s+` + regexp.QuoteMeta(s.PluginID) + `\s+` + regexp.QuoteMeta(s.Status) + `\s+\d+`)
		assert.Regexp(t, row, lines[header+1+i])
	}

	r = run(t, env, "trace", "-w", ws, "--db", db, "--json")
	require.Equal(t, 0, r.code, r.stderr)
	var tr struct {
		RequestID string           `json:"requestId"`
		Stages    []map[string]any `json:"stages"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &tr), r.stdout)
	assert.Len(t, tr.Stages, len(a.Trace.Stages))
}

// camelCase is the key style of every --json output.
var camelCase = regexp.MustCompile(`^[a-z][a-zA-Z0-9]*(@[0-9]+)?$`)

// TestJSONKeysAreCamelCase walks the --json output of the commands that
// print objects and checks every key (map keys holding data, such as KU
// levels, are skipped).
func TestJSONKeysAreCamelCase(t *testing.T) {
	env := isolatedEnv(t)
	ws := writeWorkspace(t, cliWorkspace)
	db := filepath.Join(t.TempDir(), "kb.db")
	commands := [][]string{
		{"ingest", "-w", ws, "--db", db},
		{"ask", "-w", ws, "--db", db, "what causes tides"},
		{"trace", "-w", ws, "--db", db},
		{"search", "-w", ws, "--db", db, "tides"},
		{"stats", "-w", ws, "--db", db},
		{"kus", filepath.Join(ws, "tides.md"), "-w", ws},
		{"plugins", "-w", ws},
		{"version"},
	}
	dataMaps := map[string]bool{"kusByLevel": true}
	for _, c := range commands {
		t.Run(c[0], func(t *testing.T) {
			r := run(t, env, append(c, "--json")...)
			require.Equal(t, 0, r.code, r.stderr)
			var v any
			require.NoError(t, json.Unmarshal([]byte(r.stdout), &v))
			var walk func(v any, path string)
			walk = func(v any, path string) {
				switch x := v.(type) {
				case map[string]any:
					for k, y := range x {
						assert.Regexp(t, camelCase, k, "key %s/%s", path, k)
						if !dataMaps[k] {
							walk(y, path+"/"+k)
						}
					}
				case []any:
					for _, y := range x {
						walk(y, path+"[]")
					}
				}
			}
			walk(v, "")
		})
	}
}

// completions runs `mrpvm __complete args...` (what the shell scripts of
// `mrpvm completion` run) and returns the offered values, without their
// descriptions, and the directive line.
func completions(t *testing.T, env []string, args ...string) (values []string, directive string) {
	t.Helper()
	r := run(t, env, append([]string{"__complete"}, args...)...)
	require.Equal(t, 0, r.code, r.stderr)
	lines := strings.Split(strings.TrimRight(r.stdout, "\n"), "\n")
	require.NotEmpty(t, lines)
	directive = lines[len(lines)-1]
	for _, l := range lines[:len(lines)-1] {
		v, _, _ := strings.Cut(l, "\t")
		values = append(values, v)
	}
	return values, directive
}

// TestCompletion checks the completion of stages and plugin ids for --pin
// and --prefer, of kb-plugins for search --plugin, and of session and
// request ids read from the knowledge base, which completion must neither
// create nor change.
func TestCompletion(t *testing.T) {
	env := isolatedEnv(t)
	ws := writeWorkspace(t, cliWorkspace)
	db := filepath.Join(t.TempDir(), "kb.db")

	for _, shell := range []string{"bash", "zsh", "fish", "powershell"} {
		r := run(t, env, "completion", shell)
		require.Equal(t, 0, r.code, r.stderr)
		assert.Contains(t, r.stdout, "__complete", "the %s script asks the binary", shell)
	}

	got, dir := completions(t, env, "ask", "--pin", "")
	assert.Equal(t, []string{"sd=", "plan=", "kb=", "gs=", "val="}, got)
	assert.Equal(t, ":6", dir, "no space after stage= (NoSpace|NoFileComp)")
	got, _ = completions(t, env, "ask", "--prefer", "kb=")
	assert.Contains(t, got, "kb=kb-fast")
	assert.Contains(t, got, "kb=kb-thinkingdb")
	for _, v := range got {
		assert.True(t, strings.HasPrefix(v, "kb=kb-"), "only kb-plugins for kb=: %v", got)
	}
	got, _ = completions(t, env, "ask", "--pin=gs=")
	assert.Contains(t, got, "gs=gs-symbolic")
	got, _ = completions(t, env, "search", "--plugin", "")
	assert.Equal(t, []string{"kb-balanced", "kb-fast", "kb-thinkingdb"}, got)

	// No knowledge base yet: only "new", and none is created.
	got, _ = completions(t, env, "-w", ws, "--db", db, "ask", "--session", "")
	assert.Equal(t, []string{"new"}, got)
	_, err := os.Stat(db)
	require.ErrorIs(t, err, os.ErrNotExist, "completion must not create the knowledge base")
	got, _ = completions(t, env, "-w", ws, "--db", db, "trace", "")
	assert.Empty(t, got)

	// Two questions: two sessions, two traces, newest first.
	var sessions, requests []string
	for _, q := range []string{"what causes tides", "what does the borrow checker enforce"} {
		r := run(t, env, "ask", "-w", ws, "--db", db, "--json", q)
		require.Equal(t, 0, r.code, r.stderr)
		var a struct {
			RequestID string `json:"requestId"`
			SessionID string `json:"sessionId"`
		}
		require.NoError(t, json.Unmarshal([]byte(r.stdout), &a))
		sessions = append([]string{a.SessionID}, sessions...)
		requests = append([]string{a.RequestID}, requests...)
	}
	before, err := os.ReadFile(db)
	require.NoError(t, err)
	got, _ = completions(t, env, "-w", ws, "--db", db, "ask", "--session", "")
	assert.Equal(t, append([]string{"new"}, sessions...), got)
	got, _ = completions(t, env, "-w", ws, "--db", db, "trace", "")
	assert.Equal(t, requests, got)
	after, err := os.ReadFile(db)
	require.NoError(t, err)
	assert.True(t, bytes.Equal(before, after), "completion must not write the knowledge base")

	// A knowledge base another process holds for writing completes
	// nothing rather than making the shell wait.
	held, err := bolt.Open(db, 0o644, &bolt.Options{Timeout: time.Second})
	require.NoError(t, err)
	defer held.Close()
	got, _ = completions(t, env, "-w", ws, "--db", db, "ask", "--session", "")
	assert.Equal(t, []string{"new"}, got)
}

func TestVersionOfACheckoutBuild(t *testing.T) {
	r := run(t, isolatedEnv(t), "--version")
	require.Equal(t, 0, r.code, r.stderr)
	assert.True(t, strings.HasPrefix(r.stdout, "mrpvm (devel)"), "a build from a checkout is (devel): %q", r.stdout)

	r = run(t, isolatedEnv(t), "version", "--json")
	require.Equal(t, 0, r.code, r.stderr)
	var v struct {
		Version   string `json:"version"`
		GoVersion string `json:"goVersion"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &v))
	assert.Equal(t, "(devel)", v.Version)
	assert.Equal(t, runtime.Version(), v.GoVersion)
}

// TestVersionOfAReleaseBuild builds the binary the way .goreleaser.yaml
// does (-trimpath, the version set with -X) and checks --version names it.
func TestVersionOfAReleaseBuild(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..", "..")
	bin := filepath.Join(t.TempDir(), "mrpvm")
	build := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w -X github.com/mrpvm/mrpvm/version.version=1.2.3", "-o", bin, "./cmd/mrpvm")
	build.Dir = root
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "%s", out)
	got, err := exec.Command(bin, "--version").Output()
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(got), "mrpvm 1.2.3"), "%q", got)
}

// TestTerminalOutputIsSanitised: a workspace whose heading carries an OSC 52
// clipboard write, colour codes, a C1 CSI and a bidi override, and whose
// file name holds a line feed and ESC, is searched, asked, listed and
// counted through the real binary. No control character reaches the
// terminal, no output line is forged, and --json keeps them escaped.
func TestTerminalOutputIsSanitised(t *testing.T) {
	ws := t.TempDir()
	heading := "Evil \x1b]52;c;aGVsbG8=\x07 heading \x1b[31mred \u009b2J \u202egnp.exe"
	require.NoError(t, os.WriteFile(filepath.Join(ws, "evil.md"),
		[]byte("# "+heading+"\n\nTides are caused by the Moon, says the evil file.\n"), 0o644))
	forged := "a\nmrpvm: forged\x1b[2J.md"
	require.NoError(t, os.WriteFile(filepath.Join(ws, forged), []byte("# Plain\n\nThe Moon raises tides too.\n"), 0o644))
	env := isolatedEnv(t)
	db := filepath.Join(t.TempDir(), "kb.db")

	clean := func(what, out string) {
		t.Helper()
		for _, c := range []string{"\x1b", "\x07", "\u009b", "\u202e"} {
			assert.NotContains(t, out, c, "%s printed a raw %q:\n%s", what, c, out)
		}
		for _, line := range strings.Split(out, "\n") {
			assert.False(t, strings.HasPrefix(line, "mrpvm: forged"), "%s: a file name forged a line:\n%s", what, out)
		}
	}
	for _, args := range [][]string{
		{"ingest"},
		{"search", "moon tides"},
		{"search", "--by-source", "moon tides"},
		{"ask", "what causes tides"},
		{"stats"},
		{"kus", filepath.Join(ws, "evil.md")},
	} {
		r := run(t, env, append([]string{"--workspace", ws, "--db", db}, args...)...)
		require.Equal(t, 0, r.code, "%v: %s", args, r.stderr)
		clean(strings.Join(args, " "), r.stdout+r.stderr)
		if args[0] == "search" {
			assert.Contains(t, r.stdout, `"a\nmrpvm: forged\x1b[2J.md":3`, "the file name is shown quoted with visible escapes")
			assert.Contains(t, r.stdout, `\x1b]52;c;aGVsbG8=\a`, "the heading is shown with visible escapes")
		}
	}

	// --json: the same names come back exactly, escaped by the encoding.
	r := run(t, env, "--workspace", ws, "--db", db, "--json", "search", "moon tides")
	require.Equal(t, 0, r.code, r.stderr)
	clean("search --json", r.stdout)
	var res struct {
		Hits []struct {
			SourceID string `json:"sourceId"`
			Title    string `json:"title"`
		} `json:"hits"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &res))
	got := map[string]string{}
	for _, h := range res.Hits {
		got[h.SourceID] = h.Title
	}
	assert.Equal(t, heading, got["evil.md"])
	assert.Contains(t, got, forged)
}
