package config

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/mrpvm/mrpvm/internal/testtree"
	"github.com/mrpvm/mrpvm/plugin"
)

// known mirrors the built-in plugin catalog; plugins/all checks the real registry
// against the embedded defaults.
var known = map[string]plugin.PluginType{
	"sd-symbolic": plugin.TypeSD, "sd-llm-fast": plugin.TypeSD, "sd-llm-deep": plugin.TypeSD,
	"planner-default": plugin.TypePlan, "planner-depth": plugin.TypePlan,
	"kb-fast": plugin.TypeKB, "kb-balanced": plugin.TypeKB, "kb-thinkingdb": plugin.TypeKB,
	"gs-symbolic": plugin.TypeGS, "gs-llm-fast": plugin.TypeGS, "gs-llm-deep": plugin.TypeGS,
	"val-llm": plugin.TypeVal, "val-symbolic": plugin.TypeVal,
}

func load(t *testing.T, dir string) (*Config, []*Error) {
	t.Helper()
	base := filepath.Join("testdata", dir)
	return Load(Options{Workspace: filepath.Join(base, "workspace"), UserDir: UserFolderAt(filepath.Join(base, "user")), Known: known})
}

func TestDefaultsAreValid(t *testing.T) {
	cfg, errs := Load(Options{Known: known})
	if len(errs) > 0 {
		t.Fatalf("embedded defaults: %v", errs)
	}
	e := cfg.Engine
	if e.MaxLLMAttemptsPerRequest != 5 || e.RequestTimeoutMs != 60000 || e.MaxPluginsPerStage != 4 ||
		e.MaxFrameDepth != 3 || e.PluginTimeoutMs != 30000 || len(e.PluginAllowlist) != 0 ||
		!slices.Equal(e.PlannerFallbackOrder, []string{"planner-default", "planner-depth"}) {
		t.Errorf("engine defaults differ from the documented ones (docs/configuration.md): %+v", e)
	}
	for id := range known {
		if !cfg.PluginEnabled(id) {
			t.Errorf("%s is not enabled by default", id)
		}
	}
	for _, stage := range plugin.LoopStages {
		if len(cfg.Order(stage)) == 0 {
			t.Errorf("no default order for stage %s", stage)
		}
	}
	if len(cfg.LLM.Roles) != len(plugin.ModelRoles) {
		t.Errorf("roles %v, want all of %v", cfg.LLM.Roles, plugin.ModelRoles)
	}
	if p, ok := cfg.Pos(PluginsFile, "/plugins/kb-fast"); !ok || p.Line < 2 || !strings.HasSuffix(p.File, "config/plugins.json") {
		t.Errorf("position of /plugins/kb-fast: %+v %v", p, ok)
	}
	if Default() == nil {
		t.Error("Default returned nil")
	}
}

func TestOverrides(t *testing.T) {
	cfg, errs := load(t, "override")
	if len(errs) > 0 {
		t.Fatalf("errors: %v", errs)
	}
	if got := string(cfg.PluginOptions("kb-fast")); got != `{"maxResults":5,"minScore":0.3}` { // objects merge
		t.Errorf("kb-fast options %s", got)
	}
	if !cfg.PluginEnabled("kb-fast") {
		t.Error("kb-fast lost enabled from the default layer")
	}
	if cfg.PluginEnabled("gs-llm-deep") {
		t.Error("workspace did not disable gs-llm-deep")
	}
	if got := cfg.Order("kb"); !slices.Equal(got, []string{"kb-fast", "kb-balanced"}) {
		t.Errorf("kb order %v", got)
	}
	if got := cfg.Order("goal-solver"); len(got) != 3 {
		t.Errorf("goal-solver order lost: %v", got)
	}
	if cfg.Engine.MaxFrameDepth != 2 || cfg.Engine.RequestTimeoutMs != 5000 || cfg.Engine.MaxPluginsPerStage != 4 {
		t.Errorf("engine layers: %+v", cfg.Engine)
	}
	if !slices.Equal(cfg.Engine.PluginAllowlist.IDs(), []string{"my-helper"}) {
		t.Errorf("narrowed allowlist %v", cfg.Engine.PluginAllowlist)
	}
	ms := cfg.ModelSettings()
	if s := ms.Resolve("gs-llm-deep", plugin.RoleGoalDeep); s.Model != "qwen2.5:14b" || s.BaseURL != "http://localhost:11434/v1" || s.MaxTokens != 2000 {
		t.Errorf("goal-deep resolves to %+v", s)
	}
	if s := ms.Resolve("gs-llm-fast", plugin.RoleGoalFast); s.Model != "phi3" || s.Temperature == nil || *s.Temperature != 0 {
		t.Errorf("plugin override resolves to %+v", s)
	}
	if p, _ := cfg.Pos(PluginsFile, "/plugins/kb-fast/options"); !strings.HasSuffix(p.File, filepath.Join(".mrpvm", "plugins.json")) || p.Line != 3 {
		t.Errorf("options position %+v", p)
	}
}

// problem is an expected error: file base name, line, code, warning.
type problem struct {
	file    string
	line    int
	code    string
	warning bool
}

func TestErrors(t *testing.T) {
	cases := []struct {
		dir  string
		want []problem
		// check inspects the merged configuration.
		check func(t *testing.T, cfg *Config)
	}{
		{"syntax", []problem{{"plugins.json", 4, CodeSyntax, false}}, func(t *testing.T, cfg *Config) {
			if !cfg.PluginEnabled("kb-fast") {
				t.Error("a broken workspace file must not change the defaults")
			}
		}},
		{"empty", []problem{{"plugins.json", 1, CodeSyntax, false}}, nil},
		{"unknown_plugin", []problem{
			{"plugins.json", 4, CodeUnknownPlugin, false},
			{"plugins.json", 7, CodeUnknownPlugin, false},
			{"plugins.json", 7, CodeWrongStage, false},
			{"plugins.json", 8, CodeUnknownStage, false},
			{"plugins.json", 11, CodeBadValue, false},
			{"plugins.json", 13, CodeUnknownKey, false},
		}, func(t *testing.T, cfg *Config) {
			if cfg.PluginEnabled("kb-fast") {
				t.Error("the valid part of the file was not applied")
			}
			if _, ok := cfg.Plugins.Plugins["kb-fastest"]; ok {
				t.Error("unknown plugin kept")
			}
			if got := cfg.Order("kb"); !slices.Equal(got, []string{"kb-thinkingdb"}) {
				t.Errorf("kb order %v: bad ids must be dropped, good ones kept", got)
			}
			if got := cfg.Plugins.FallbackChains["kb-fast"]; !slices.Equal(got, []string{}) {
				t.Errorf("self fallback kept: %v", got)
			}
		}},
		{"bad_values", []problem{
			{"engine.json", 2, CodeBadValue, false},
			{"engine.json", 3, CodeBadValue, false},
			{"engine.json", 5, CodeWrongStage, false},
			{"llm-role-settings.json", 2, CodeWorkspaceEndpoint, true},
			{"llm-role-settings.json", 2, CodeWorkspaceEndpoint, true},
			{"llm-role-settings.json", 4, CodeBadValue, false},
			{"llm-role-settings.json", 5, CodeUnknownRole, false},
		}, func(t *testing.T, cfg *Config) {
			e := cfg.Engine
			if e.MaxFrameDepth != 3 || e.RequestTimeoutMs != 60000 || e.MaxPluginsPerStage != 2 {
				t.Errorf("engine %+v", e)
			}
			if !slices.Equal(e.PlannerFallbackOrder, []string{"planner-depth"}) {
				t.Errorf("planner order %v", e.PlannerFallbackOrder)
			}
			if cfg.LLM.Default.BaseURL != "" || cfg.LLM.Default.APIKeyEnv != "" || cfg.LLM.Default.Model != "gpt" {
				t.Errorf("workspace endpoint applied: %+v", cfg.LLM.Default)
			}
		}},
		{"bad_ingest", []problem{
			{"plugins.json", 4, CodeBadValue, false},
			{"plugins.json", 5, CodeWrongStage, false},
			{"plugins.json", 6, CodeUnknownPlugin, false},
			{"plugins.json", 7, CodeUnknownKey, false},
			{"plugins.json", 8, CodeBadValue, false},
			{"plugins.json", 9, CodeBadValue, false},
			{"plugins.json", 10, CodeBadValue, false},
		}, func(t *testing.T, cfg *Config) {
			want := []IngestRule{{Glob: "notes/**", SeedDetector: "sd-llm-fast"}, {Glob: "deep/**", SeedDetector: "sd-llm-deep"}}
			if !reflect.DeepEqual(cfg.Plugins.Ingest, want) {
				t.Errorf("ingest %+v, want the two valid rules %+v", cfg.Plugins.Ingest, want)
			}
		}},
		{"widen", []problem{{"engine.json", 2, CodeWorkspaceWidening, true}}, func(t *testing.T, cfg *Config) {
			if len(cfg.Engine.PluginAllowlist) != 0 {
				t.Errorf("a workspace widened the allowlist to %v", cfg.Engine.PluginAllowlist)
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.dir, func(t *testing.T) {
			cfg, errs := load(t, tc.dir)
			var got []problem
			for _, e := range errs {
				if !strings.Contains(e.File, filepath.Join("testdata", tc.dir)) {
					t.Errorf("error names file %q", e.File)
				}
				if !strings.HasPrefix(e.Error(), fmt.Sprintf("%s:%d:%d: %s: ", e.File, e.Line, e.Col, e.Code)) {
					t.Errorf("format: %s", e)
				}
				got = append(got, problem{filepath.Base(e.File), e.Line, e.Code, e.Warning})
			}
			sortProblems(got)
			want := slices.Clone(tc.want)
			sortProblems(want)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got  %v\nwant %v\nerrors: %v", got, want, errs)
			}
			if tc.check != nil {
				tc.check(t, cfg)
			}
		})
	}
}

func sortProblems(p []problem) {
	slices.SortFunc(p, func(a, b problem) int {
		return strings.Compare(fmt.Sprintf("%s%04d%s", a.file, a.line, a.code), fmt.Sprintf("%s%04d%s", b.file, b.line, b.code))
	})
}

func TestUnknownIDsNotCheckedWithoutKnown(t *testing.T) {
	base := filepath.Join("testdata", "unknown_plugin")
	_, errs := Load(Options{Workspace: filepath.Join(base, "workspace")})
	for _, e := range errs {
		if e.Code == CodeUnknownPlugin || e.Code == CodeWrongStage {
			t.Errorf("id checked without a known set: %v", e)
		}
	}
}

func TestCheckFile(t *testing.T) {
	errs := CheckFile(PluginsFile, LayerWorkspace, "x/plugins.json", []byte("{\n  \"plugins\": {\"nope\": {}}\n}"), known)
	if len(errs) != 1 || errs[0].Code != CodeUnknownPlugin || errs[0].Line != 2 || errs[0].File != "x/plugins.json" {
		t.Errorf("CheckFile: %v", errs)
	}
}

// TestPluginSwitches lays an editor's plugin switches over the files: they
// win over the workspace and the user files, keep each plugin's options,
// and an unknown id is reported against the settings, on its own line.
func TestPluginSwitches(t *testing.T) {
	base := filepath.Join("testdata", "override")
	cfg, errs := Load(Options{Workspace: filepath.Join(base, "workspace"), UserDir: UserFolderAt(filepath.Join(base, "user")), Known: known,
		PluginSwitches: map[string]bool{"kb-fast": false, "gs-llm-deep": true, "kb-fastest": true}})
	if len(errs) != 1 || errs[0].File != SettingsFile || errs[0].Code != CodeUnknownPlugin || errs[0].Line != 4 {
		t.Fatalf("errors %v, want the unknown kb-fastest on line 4 of the settings", errs)
	}
	if cfg.PluginEnabled("kb-fast") {
		t.Error("the settings did not disable kb-fast")
	}
	if !cfg.PluginEnabled("gs-llm-deep") {
		t.Error("the settings did not enable gs-llm-deep over the workspace's false")
	}
	if got := string(cfg.PluginOptions("kb-fast")); got != `{"maxResults":5,"minScore":0.3}` {
		t.Errorf("kb-fast options %s: the switches must keep the files' options", got)
	}
	if !cfg.PluginEnabled("kb-balanced") {
		t.Error("a plugin the settings do not name keeps the files' state")
	}
	var last LayerInfo
	for _, l := range cfg.Layers {
		if l.Name == PluginsFile {
			last = l
		}
	}
	if last.Kind != LayerSettings || last.File != SettingsFile {
		t.Errorf("the settings are not the top plugins.json layer: %+v", cfg.Layers)
	}
}

// TestAllowlistEntries: pluginAllowlist takes ids and {id, dir, sha256}
// objects; bad elements are dropped with their position; a workspace names
// ids and keeps the user's entries for them, bindings included.
func TestAllowlistEntries(t *testing.T) {
	root := t.TempDir()
	user, ws := filepath.Join(root, "user"), filepath.Join(root, "ws")
	sum := strings.Repeat("ab", 32)
	write := func(path, text string) { testtree.WriteFile(t, path, text) }
	write(filepath.Join(user, EngineFile), `{"pluginAllowlist": [
  "plain",
  {"id": "by-dir", "dir": "/opt/wrappers/by-dir"},
  {"id": "by-sum", "sha256": "`+strings.ToUpper(sum)+`"},
  {"id": "relative", "dir": "wrappers/x"},
  {"id": "short", "sha256": "abc"},
  {"id": "extra", "dir": "/x", "run": "yes"},
  {"dir": "/x"},
  42
]}`)
	cfg, errs := Load(Options{UserDir: UserFolderAt(user)})
	var lines []int
	for _, e := range errs {
		if e.Code != CodeBadValue {
			t.Errorf("unexpected %v", e)
		}
		lines = append(lines, e.Line)
	}
	if !slices.Equal(lines, []int{5, 6, 7, 8, 9}) {
		t.Errorf("errors on lines %v: %v", lines, errs)
	}
	want := Allowlist{{ID: "plain"}, {ID: "by-dir", Dir: "/opt/wrappers/by-dir"}, {ID: "by-sum", SHA256: sum}}
	if !slices.Equal(cfg.Engine.PluginAllowlist, want) {
		t.Errorf("allowlist %+v, want %+v", cfg.Engine.PluginAllowlist, want)
	}

	write(filepath.Join(ws, WorkspaceDir, EngineFile), `{"pluginAllowlist": ["by-dir", {"id": "evil", "dir": "/tmp/evil"}]}`)
	cfg, errs = Load(Options{UserDir: UserFolderAt(user), Workspace: ws})
	if got := cfg.Engine.PluginAllowlist; !slices.Equal(got, Allowlist{{ID: "by-dir", Dir: "/opt/wrappers/by-dir"}}) {
		t.Errorf("narrowed allowlist %+v", got)
	}
	widened := 0
	for _, e := range errs {
		if e.Code == CodeWorkspaceWidening {
			widened++
			if !strings.Contains(e.Message, "evil") {
				t.Errorf("widening warning %v", e)
			}
		}
	}
	if widened != 1 {
		t.Errorf("%d widening warnings: %v", widened, errs)
	}
}

// TestExcludeAndFileCap checks engine.json's exclude (the layers' patterns
// add up, a bad glob is dropped with its line) and maxWorkspaceFiles (a
// workspace can lower it, never raise it).
func TestExcludeAndFileCap(t *testing.T) {
	root := t.TempDir()
	user, ws := filepath.Join(root, "user"), filepath.Join(root, "ws")
	for path, text := range map[string]string{
		filepath.Join(user, EngineFile):             `{"exclude": ["archive/"], "maxWorkspaceFiles": 5000}`,
		filepath.Join(ws, WorkspaceDir, EngineFile): "{\"exclude\": [\n  \"drafts/*\",\n  \"[bad\",\n  \"!drafts/keep.md\"\n],\n \"maxWorkspaceFiles\": 9000000\n}",
	} {
		testtree.WriteFile(t, path, text)
	}
	if d := Default(); d.Engine.MaxWorkspaceFiles != 100000 || len(d.Engine.Exclude) != 0 {
		t.Errorf("defaults: %d %v", d.Engine.MaxWorkspaceFiles, d.Engine.Exclude)
	}
	cfg, errs := Load(Options{UserDir: UserFolderAt(user), Workspace: ws})
	if want := []string{"archive/", "drafts/*", "!drafts/keep.md"}; !slices.Equal(cfg.Engine.Exclude, want) {
		t.Errorf("exclude %q, want %q", cfg.Engine.Exclude, want)
	}
	if cfg.Engine.MaxWorkspaceFiles != 5000 {
		t.Errorf("maxWorkspaceFiles %d: a workspace raised it", cfg.Engine.MaxWorkspaceFiles)
	}
	var got []string
	for _, e := range errs {
		got = append(got, fmt.Sprintf("%d %s", e.Line, e.Code))
	}
	if want := []string{"3 " + CodeBadValue, "6 " + CodeWorkspaceWidening}; !slices.Equal(got, want) {
		t.Errorf("problems %v, want %v: %v", got, want, errs)
	}

	// Lowering is allowed.
	if err := os.WriteFile(filepath.Join(ws, WorkspaceDir, EngineFile), []byte(`{"maxWorkspaceFiles": 10}`), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, errs = Load(Options{UserDir: UserFolderAt(user), Workspace: ws})
	if cfg.Engine.MaxWorkspaceFiles != 10 || len(errs) != 0 {
		t.Errorf("lowered cap %d: %v", cfg.Engine.MaxWorkspaceFiles, errs)
	}
}

// TestParseUserFolder decodes the user-folder setting: "" is the default
// folder ($MRPVM_CONFIG_DIR here), "-" none, anything else that folder;
// the zero value reads none.
func TestParseUserFolder(t *testing.T) {
	t.Setenv("MRPVM_CONFIG_DIR", "/cfg/default")
	for setting, want := range map[string]string{"": "/cfg/default", "-": "", "/cfg/mine": "/cfg/mine"} {
		if got := ParseUserFolder(setting).Dir(); got != want {
			t.Errorf("ParseUserFolder(%q) = %q, want %q", setting, got, want)
		}
	}
	if d := (UserFolder{}).Dir(); d != "" {
		t.Errorf("zero UserFolder is %q, want none", d)
	}
	if DefaultUserFolder() != UserFolderAt("/cfg/default") {
		t.Errorf("DefaultUserFolder %v", DefaultUserFolder())
	}
}
