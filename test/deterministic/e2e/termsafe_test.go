package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

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
