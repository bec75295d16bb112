package plugins_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mrpvm/mrpvm/plugins"
	_ "github.com/mrpvm/mrpvm/plugins/all"
	"github.com/mrpvm/mrpvm/plugins/sdk"
	"github.com/mrpvm/mrpvm/plugins/wrapper/wrappertest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	wrappertest.Cleanup()
	os.Exit(code)
}

// gs-panic is a built-in whose factory panics: the catalog must survive it.
func init() {
	plugins.RegisterBuiltin(plugins.Builtin{
		Descriptor: []byte(`{"id": "gs-panic", "type": "gs-plugin", "description": "Panics when built.", "costClass": "cheap",
			"plannerHints": {"relativeCost": 0.1, "confidenceWhenMatched": 0.5, "supportedActs": [], "topicTags": []}}`),
		KUs: []byte("## Context Unit plugin::gs-panic::unit-000\nSourceId: plugin::gs-panic\nChunkId: plugin::gs-panic::chunk-000\n" +
			"Role: Definition\nTopic: gs-panic\nClaim: gs-panic panics.\nUtilityActs: define\nPhaseScopes: gs-plugin\n"),
		New: func(json.RawMessage, sdk.Env) (sdk.Plugin, error) { panic("boom") },
	})
}

// fixture copies testdata/catalog/<name> to a temporary folder and installs
// the test wrapper binary as bin/wrapper in every wrapper folder.
func fixture(t *testing.T, name string) (workspace, user string) {
	t.Helper()
	dir := t.TempDir()
	wrappertest.CopyTree(t, filepath.Join("testdata", "catalog", name), dir)
	for _, root := range []string{filepath.Join(dir, "workspace", "wrappers"), filepath.Join(dir, "user", "wrappers")} {
		entries, _ := os.ReadDir(root)
		for _, e := range entries {
			wrappertest.Install(t, filepath.Join(root, e.Name()), "bin/wrapper")
		}
	}
	return filepath.Join(dir, "workspace"), filepath.Join(dir, "user")
}

type problem struct {
	id, code string
	warning  bool
}

func problems(c *plugins.Catalog) []problem {
	var out []problem
	for _, p := range c.Problems {
		out = append(out, problem{p.ID, p.Code, p.Warning})
	}
	slices.SortFunc(out, func(a, b problem) int { return strings.Compare(a.code+a.id, b.code+b.id) })
	return out
}

func TestCatalogWithWrappers(t *testing.T) {
	ws, user := fixture(t, "mixed")
	c := plugins.LoadCatalog(plugins.CatalogOptions{Workspace: ws, UserDir: user})
	defer c.Close()

	want := []problem{
		{"", "config_unknown_plugin", false},
		{"", "config_workspace_cannot_widen", true},
		{"kb-fast", sdk.CodeDuplicatePluginID, false},
		{"repo-evil", sdk.CodeNotAllowlisted, true},
		{"user-helper", sdk.CodeNotAllowlisted, true},
		{"dotdot-helper", sdk.CodePathSandboxViolation, false},
		{"gs-panic", sdk.CodePluginFactory, false},
		{"kb-balanced", sdk.CodeOptionsInvalid, false},
		{"proto2-helper", sdk.CodeUnsupportedProtocolVersion, true},
	}
	slices.SortFunc(want, func(a, b problem) int { return strings.Compare(a.code+a.id, b.code+b.id) })
	if got := problems(c); !slices.Equal(got, want) {
		t.Errorf("problems\n got %v\nwant %v", got, want)
		for _, p := range c.Problems {
			t.Log(p)
		}
	}
	for _, p := range c.Problems {
		if p.Stage == "" || p.Ref == "" {
			t.Errorf("problem without stage or reference: %+v", p)
		}
		switch p.Code {
		case sdk.CodeOptionsInvalid:
			// Points at the options that broke the factory.
			if !strings.HasSuffix(p.File, filepath.Join(".mrpvm", "plugins.json")) || p.Line != 3 {
				t.Errorf("options problem at %s:%d", p.File, p.Line)
			}
		case "config_unknown_plugin":
			if !strings.HasSuffix(p.File, filepath.Join(".mrpvm", "plugins.json")) || p.Line != 4 || !strings.Contains(p.Message, "no-such-plugin") {
				t.Errorf("unknown plugin problem: %v", p)
			}
		case sdk.CodeNotAllowlisted:
			if !strings.Contains(p.Message, filepath.Join(user, "engine.json")) {
				t.Errorf("not_allowlisted should name the user's engine.json: %v", p)
			}
		}
	}

	// Everything that could load did: the built-ins minus kb-balanced, plus
	// the allowlisted echo wrapper.
	loaded := map[string]bool{}
	for _, d := range c.Registry.List("") {
		loaded[d.ID] = true
	}
	for _, id := range []string{"kb-fast", "kb-thinkingdb", "gs-symbolic", "planner-default", "val-llm", "echo-helper"} {
		if !loaded[id] {
			t.Errorf("%s did not load", id)
		}
	}
	for _, id := range []string{"kb-balanced", "gs-panic", "repo-evil", "user-helper", "dotdot-helper", "proto2-helper", "off-helper"} {
		if loaded[id] {
			t.Errorf("%s loaded", id)
		}
	}
	if c.Registry.Ref("kb-fast") != "plugins/kb/kb-fast/plugin.json" {
		t.Errorf("kb-fast was replaced by %s", c.Registry.Ref("kb-fast"))
	}
	if e, ok := c.Entry("off-helper"); !ok || e.Enabled || e.Loaded || len(e.Problems) > 0 {
		t.Errorf("off-helper entry %+v", e)
	}
	if got := c.Order(sdk.LoopGoalSolver); !slices.Equal(got, []string{"echo-helper", "gs-symbolic", "gs-llm-deep", "gs-llm-fast"}) {
		t.Errorf("goal-solver order %v", got)
	}
	if got := c.Helpers().IDs(); !slices.Equal(got, []string{"echo-helper"}) {
		t.Errorf("helpers %v", got)
	}

	// The wrapper runs as a typed gs-plugin, through the registry.
	gs, ok := c.Registry.GS("echo-helper")
	if !ok {
		t.Fatal("echo-helper is not a gs-plugin")
	}
	res, err := gs.Solve(context.Background(), sdk.RunContext{}, &sdk.SolveInput{Payload: sdk.Payload{Prompt: "ping"}})
	if err != nil || res.Status != sdk.StatusSuccess || !strings.HasPrefix(res.ResponseMarkdown, "echo: ping") {
		t.Errorf("solve: %+v %v", res, err)
	}
	hr, err := c.Helpers().Call(context.Background(), "echo-helper", sdk.Payload{Prompt: "pong"})
	if err != nil || !strings.HasPrefix(hr.Result, "echo: pong") {
		t.Errorf("helper call: %+v %v", hr, err)
	}
}

// TestWorkspaceCannotAllowlistItsOwnWrapper: opening a cloned repository
// must never run code the repository allowlisted itself.
func TestWorkspaceCannotAllowlistItsOwnWrapper(t *testing.T) {
	ws, user := fixture(t, "selfallow")
	c := plugins.LoadCatalog(plugins.CatalogOptions{Workspace: ws, UserDir: user})
	if c.Registry.Get(sdk.TypeGS, "repo-helper") != nil {
		t.Fatal("the workspace's own allowlist admitted its wrapper")
	}
	want := []problem{{"", "config_workspace_cannot_widen", true}, {"repo-helper", sdk.CodeNotAllowlisted, true}}
	if got := problems(c); !slices.Equal(got, want) {
		t.Errorf("problems %v, want %v", got, want)
	}
	if len(c.Errors()) != 0 {
		t.Errorf("skips must be warnings: %v", c.Errors())
	}
	// Every built-in but gs-panic, whose factory panics.
	if n := len(plugins.Builtins()) - 1; c.Registry.Len() != n {
		t.Errorf("%d plugins loaded, want the %d working built-ins", c.Registry.Len(), n)
	}

	// The same wrapper loads once the user allowlists it.
	if err := os.MkdirAll(user, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(user, "engine.json"), []byte(`{"pluginAllowlist": ["repo-helper"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	c = plugins.LoadCatalog(plugins.CatalogOptions{Workspace: ws, UserDir: user})
	if c.Registry.Get(sdk.TypeGS, "repo-helper") == nil {
		t.Errorf("user-allowlisted wrapper did not load: %v", c.Problems)
	}
}

func TestCheckDir(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, text string) {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("good/plugin.json", `{"id": "val-x", "type": "val-plugin", "description": "Validates.", "costClass": "cheap"}`)
	write("good/plugin.kus.md", "## Context Unit plugin::val-x::unit-000\nSourceId: plugin::val-x\nChunkId: plugin::val-x::chunk-000\nRole: Definition\nTopic: val-x\nClaim: val-x validates.\nUtilityActs: verify\nPhaseScopes: val-plugin\n")
	write("nokus/plugin.json", `{"id": "val-y", "type": "val-plugin", "description": "Validates.", "costClass": "cheap"}`)
	write("badkus/plugin.json", `{"id": "val-z", "type": "val-plugin", "description": "Validates.", "costClass": "cheap"}`)
	write("badkus/plugin.kus.md", "# val-z\n\n## Context Unit plugin::val-z::unit-000\nSourceId: plugin::val-z\nChunkId: plugin::val-z::chunk-000\nRole: Wizardry\nTopic: val-z\nUtilityActs: verify\n")
	write("baddesc/plugin.json", "{\n  \"id\": \"val-w\",\n  \"type\": \"validator\"\n}\n")
	write("baddesc/plugin.kus.md", "## Context Unit plugin::val-w::unit-000\nSourceId: plugin::val-w\nChunkId: plugin::val-w::chunk-000\nRole: Definition\nTopic: val-w\nClaim: val-w validates.\nUtilityActs: verify\nPhaseScopes: val-plugin\n")
	write("wrapper/manifest.json", "{\n  \"id\": \"w\",\n  \"description\": \"Escapes.\",\n  \"protocolVersion\": 1,\n  \"command\": \"../x\"\n}\n")
	write("empty/README.md", "nothing here")

	cases := []struct {
		dir   string
		codes []string
		line  int // line of the first problem
	}{
		{"good", nil, 0},
		{"nokus", []string{plugins.CodeKUsMissing}, 0},
		{"badkus", []string{sdk.CodeKUsInvalid, sdk.CodeKUsInvalid}, 3},
		{"baddesc", []string{sdk.CodeDescriptorBadType, sdk.CodeDescriptorMissingDesc, sdk.CodeDescriptorMissingCost}, 3},
		{"wrapper", []string{sdk.CodePathSandboxViolation, plugins.CodeNoReadme}, 5},
		{"empty", []string{plugins.CodeNoDescriptor}, 0},
	}
	for _, tc := range cases {
		t.Run(tc.dir, func(t *testing.T) {
			errs := plugins.CheckDir(filepath.Join(dir, tc.dir))
			var codes []string
			for _, e := range errs {
				codes = append(codes, e.Code)
				if e.File == "" {
					t.Errorf("problem without file: %v", e)
				}
			}
			if !slices.Equal(codes, tc.codes) {
				t.Errorf("codes %v, want %v: %v", codes, tc.codes, errs)
			}
			if tc.line > 0 && (len(errs) == 0 || errs[0].Line != tc.line) {
				t.Errorf("first problem %v, want line %d", errs, tc.line)
			}
		})
	}
}
