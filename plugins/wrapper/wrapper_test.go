package wrapper

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mrpvm/mrpvm/internal/testtree"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins/wrapper/wrappertest"
)

// root is a copy of testdata/wrappers with the test wrapper installed.
var root string

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	defer wrappertest.Cleanup()
	dir, err := os.MkdirTemp("", "mrpvm-wrappers-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	root = dir
	return m.Run()
}

// setup copies the fixtures once per test into a temporary folder and
// installs the wrapper binary.
func setup(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	wrappertest.CopyTree(t, filepath.Join("testdata", "wrappers"), dir)
	for _, name := range []string{"works", "hang", "garbage", "exit2", "flood", "legacy", "validator", "wrongstatus", "protocol2", "badargs", "invalid", "noprotocol"} {
		wrappertest.Install(t, filepath.Join(dir, name), "bin/wrapper")
	}
	if err := os.MkdirAll(filepath.Join(dir, "symlink", "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	testtree.Link(t, wrappertest.Binary(t), filepath.Join(dir, "symlink", "bin", "wrapper"))
	return dir
}

func TestDiscover(t *testing.T) {
	dir := setup(t)
	ms, problems := Discover(dir, filepath.Join(dir, "no-such-root"))
	var ids []string
	for _, m := range ms {
		ids = append(ids, m.Descriptor.ID)
	}
	wantIDs := []string{"exit2-helper", "flood-helper", "garbage-helper", "hang-helper", "legacy-helper", "strict-validator", "echo-helper", "wrong-status"}
	if !slices.Equal(ids, wantIDs) {
		t.Errorf("loaded %v, want %v", ids, wantIDs)
	}
	type prob struct {
		folder, code, field string
		line                int
		warning             bool
	}
	var got []prob
	for _, p := range problems {
		if p.Stage == "" || p.Ref == "" || p.File == "" {
			t.Errorf("problem without stage/ref/file: %+v", p)
		}
		got = append(got, prob{filepath.Base(filepath.Dir(p.File)), p.Code, p.Field, p.Line, p.Warning})
	}
	want := []prob{
		{"absolute", plugin.CodePathSandboxViolation, "command", 5, false},
		{"badargs", plugin.CodePathSandboxViolation, "args.0", 6, false},
		{"broken", plugin.CodeManifestInvalid, "", 3, false},
		{"dotdot", plugin.CodePathSandboxViolation, "command", 5, false},
		{"invalid", plugin.CodeManifestInvalid, "description", 1, false},
		{"invalid", plugin.CodeManifestInvalid, "maxLLMCalls", 1, false},
		{"futuretype", plugin.CodeUnknownPluginType, "type", 3, true},
		{"noprotocol", plugin.CodeManifestInvalid, "protocolVersion", 1, false},
		{"protocol2", plugin.CodeUnsupportedProtocolVersion, "protocolVersion", 4, true},
		{"symlink", plugin.CodePathSandboxViolation, "command", 5, false},
	}
	sortProbs := func(p []prob) {
		slices.SortFunc(p, func(a, b prob) int { return strings.Compare(a.folder+a.code+a.field, b.folder+b.code+b.field) })
	}
	sortProbs(got)
	sortProbs(want)
	if !slices.Equal(got, want) {
		t.Errorf("problems\n got %v\nwant %v", got, want)
		for _, p := range problems {
			t.Log(p)
		}
	}
}

func load(t *testing.T, dir, name string) *Manifest {
	t.Helper()
	m, errs := LoadManifest(filepath.Join(dir, name, ManifestFile))
	if len(errs) > 0 || m == nil {
		t.Fatalf("load %s: %v", name, errs)
	}
	return m
}

func solve(t *testing.T, p plugin.Plugin, prompt string) (*plugin.SolveResult, error) {
	t.Helper()
	gs, ok := p.(plugin.GSPlugin)
	if !ok {
		t.Fatalf("%T is not a gs-plugin", p)
	}
	return gs.Solve(context.Background(), plugin.RunContext{}, &plugin.SolveInput{Payload: plugin.Payload{Prompt: prompt,
		Context: []plugin.ContextItem{{Title: "KU one", SourceLink: "a.md", Text: "one"}}}})
}

func TestWorkingWrapper(t *testing.T) {
	dir := setup(t)
	m := load(t, dir, "works")
	p := New(m, Limits{})
	d := p.Descriptor()
	if d.ID != "echo-helper" || d.Type != plugin.TypeGS || !slices.Contains(d.Tags, "wrapper") {
		t.Errorf("descriptor %+v", d)
	}
	if h := d.PlannerHints; h == nil || !slices.Equal(h.SupportedActs, []string{"explain"}) ||
		!slices.Equal(h.TopicTags, []string{"echo"}) || h.ConfidenceWhenMatched != 0.8 {
		t.Errorf("implied plannerHints %+v", d.PlannerHints)
	}
	if string(d.Extra["x-owner"]) != `"tests"` || string(d.Extra["command"]) != `"bin/wrapper"` {
		t.Errorf("unknown keys not kept: %v", d.Extra)
	}
	res, err := solve(t, p, "hello")
	if err != nil {
		t.Fatal(err)
	}
	wantDir, _ := filepath.EvalSymlinks(filepath.Join(dir, "works"))
	if res.Status != plugin.StatusSuccess || res.ResponseMarkdown != "echo: hello\ncwd: "+wantDir {
		t.Errorf("result %+v", res)
	}
	if !strings.Contains(string(res.ResponseDocument), `"evidence":["KU one"]`) || !strings.Contains(string(res.ResponseDocument), `"plugin":"echo-helper"`) {
		t.Errorf("document %s", res.ResponseDocument)
	}
}

func TestWrapperFailures(t *testing.T) {
	dir := setup(t)
	cases := []struct {
		name    string
		folder  string
		limits  Limits
		prompt  string
		code    string
		message string
		maxTime time.Duration
	}{
		{"input too large", "works", Limits{}, strings.Repeat("x", 5000), plugin.CodeWrapperInputTooLarge, "limit is 4096", time.Second},
		{"engine input cap below manifest", "works", Limits{MaxInputBytes: 100}, strings.Repeat("x", 200), plugin.CodeWrapperInputTooLarge, "limit is 100", time.Second},
		{"hang", "hang", Limits{}, "q", plugin.CodeWrapperTimeout, "within 700ms", 5 * time.Second},
		{"garbage", "garbage", Limits{}, "q", plugin.CodeWrapperBadOutput, "no `## Plugin Result` block", 10 * time.Second},
		{"exit 2", "exit2", Limits{}, "q", plugin.CodeWrapperExit, "exit status 2 (invalid input); wrapper error bad_input: prompt is missing", 10 * time.Second},
		{"flood", "flood", Limits{MaxOutputBytes: 64 << 10}, "q", plugin.CodeWrapperBadOutput, "stdout exceeded 65536 bytes", 10 * time.Second},
		{"exit 3", "legacy", Limits{}, "q", plugin.CodeWrapperTimeout, "exit status 3", 10 * time.Second},
		{"status not for family", "wrongstatus", Limits{}, "q", plugin.CodeWrapperBadOutput, `Status "accepted" is not valid for a gs-plugin`, 10 * time.Second},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := load(t, dir, tc.folder)
			start := time.Now()
			res, err := solve(t, New(m, tc.limits), tc.prompt)
			elapsed := time.Since(start)
			var pe *plugin.PluginError
			if !errors.As(err, &pe) {
				t.Fatalf("got result %+v, err %v; want a PluginError", res, err)
			}
			if pe.Code != tc.code || !strings.Contains(pe.Message, tc.message) {
				t.Errorf("got %v\nwant code %s with %q", pe, tc.code, tc.message)
			}
			if pe.Stage != plugin.StageRun || pe.ID != m.Descriptor.ID || pe.Ref != m.File {
				t.Errorf("error lacks stage/id/ref: %+v", pe)
			}
			if elapsed > tc.maxTime {
				t.Errorf("took %s, more than %s", elapsed, tc.maxTime)
			}
			if got := plugin.ErrorOf(err); got.Code != tc.code {
				t.Errorf("ErrorOf code %s", got.Code)
			}
		})
	}
}

func TestHangKillsProcessGroup(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("checks /proc")
	}
	dir := setup(t)
	m := load(t, dir, "hang")
	_, err := solve(t, New(m, Limits{}), "q")
	var pe *plugin.PluginError
	if !errors.As(err, &pe) || pe.Code != plugin.CodeWrapperTimeout {
		t.Fatalf("err %v", err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "hang", "child.pid"))
	if err != nil {
		t.Fatalf("the hanging wrapper did not start its child: %v", err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	deadline := time.Now().Add(3 * time.Second)
	for alive(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("child process %d outlived the timeout", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// alive reports whether pid is a running (not zombie) process.
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 || i+2 >= len(s) {
		return false
	}
	return s[i+2] != 'Z' && s[i+2] != 'X'
}

func TestCanceledCall(t *testing.T) {
	dir := setup(t)
	m := load(t, dir, "hang")
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	p := New(m, Limits{}).(plugin.GSPlugin)
	_, err := p.Solve(ctx, plugin.RunContext{}, &plugin.SolveInput{Payload: plugin.Payload{Prompt: "q"}})
	var pe *plugin.PluginError
	if !errors.As(err, &pe) || pe.Code != plugin.CodeCanceled {
		t.Fatalf("err %v, want canceled", err)
	}
}

func TestValidatorWrapper(t *testing.T) {
	dir := setup(t)
	m := load(t, dir, "validator")
	v, ok := New(m, Limits{}).(plugin.ValPlugin)
	if !ok {
		t.Fatal("a val-plugin manifest did not give a ValPlugin")
	}
	res, err := v.Validate(context.Background(), plugin.RunContext{}, &plugin.ValidateInput{Payload: plugin.Payload{Prompt: "q"}, Answer: "a", SolverID: "gs-symbolic"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != plugin.StatusRejected || res.Verdict != plugin.StatusRejected || !strings.HasPrefix(res.Reason, "echo: q") {
		t.Errorf("result %+v", res)
	}
}

func TestParseResult(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	cases := []struct {
		name, out string
		want      *plugin.WrapperResult
		warnings  int
		err       string
	}{
		{"full", "noise\n## Plugin Result\nStatus: Success\nPlugin: p\nConfidence: 0.5\nResult: line one\nline two\nEvidence:\n- a\n* b\n", &plugin.WrapperResult{Status: "success", Plugin: "p", Confidence: f(0.5), Result: "line one\nline two", Evidence: []string{"a", "b"}}, 0, ""},
		{"inline evidence", "## Plugin Result\nStatus: no-context\nEvidence: only\n## Next\nResult: ignored", &plugin.WrapperResult{Status: "no-context", Evidence: []string{"only"}}, 0, ""},
		{"no block", "Status: success\n", nil, 0, "no `## Plugin Result` block"},
		{"no status", "## Plugin Result\nResult: x\n", nil, 0, "no Status line"},
		{"bad status", "## Plugin Result\nStatus: great\n", nil, 0, `unknown Status "great"`},
		{"label high", "## Plugin Result\nStatus: success\nConfidence: high\nResult: kept\n", &plugin.WrapperResult{Status: "success", Confidence: f(0.9), Result: "kept"}, 0, ""},
		{"label Medium", "## Plugin Result\nStatus: success\nConfidence: Medium\nResult: kept\n", &plugin.WrapperResult{Status: "success", Confidence: f(0.6), Result: "kept"}, 0, ""},
		{"label LOW", "## Plugin Result\nStatus: success\nConfidence: LOW\nResult: kept\n", &plugin.WrapperResult{Status: "success", Confidence: f(0.3), Result: "kept"}, 0, ""},
		{"percent", "## Plugin Result\nStatus: success\nConfidence: 80%\nResult: kept\n", &plugin.WrapperResult{Status: "success", Confidence: f(0.8), Result: "kept"}, 0, ""},
		{"unreadable confidence", "## Plugin Result\nStatus: success\nConfidence: very sure\nResult: kept\n", &plugin.WrapperResult{Status: "success", Result: "kept"}, 1, ""},
		{"confidence out of range", "## Plugin Result\nStatus: success\nConfidence: 7\nResult: kept\n", &plugin.WrapperResult{Status: "success", Result: "kept"}, 1, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseResult([]byte(tc.out))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if (got.Confidence == nil) != (tc.want.Confidence == nil) || got.Confidence != nil && *got.Confidence != *tc.want.Confidence {
				t.Errorf("confidence %v, want %v", got.Confidence, tc.want.Confidence)
			}
			if len(got.Warnings) != tc.warnings {
				t.Errorf("warnings %q, want %d", got.Warnings, tc.warnings)
			}
			if got.Status != tc.want.Status || got.Plugin != tc.want.Plugin || got.Result != tc.want.Result || !slices.Equal(got.Evidence, tc.want.Evidence) {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}
