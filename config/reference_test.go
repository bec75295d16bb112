package config_test

// The configuration reference (docs/configuration.md) and the JSON Schemas
// (schemas/*.schema.json) are checked here against the code: the json tags
// of the structs the files decode into, the loop stages and model roles of
// the plugin SDK, the language server's settings, the VS Code extension's
// contributed settings, the Neovim plugin's defaults and the environment
// variables the Go code reads or sets.

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mrpvm/mrpvm/config"
	"github.com/mrpvm/mrpvm/llm"
	"github.com/mrpvm/mrpvm/lsp"
	"github.com/mrpvm/mrpvm/plugin"
)

const repo = ".."

// meta are the keys every file accepts besides its own.
var meta = []string{"$schema", "$comment"}

// jsonKeys returns the json names of a struct's fields (recursing into
// nothing: nested structs are listed by the caller).
func jsonKeys(v any) []string {
	t := reflect.TypeOf(v)
	var out []string
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			out = append(out, name)
		}
	}
	return out
}

func set(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		for _, s := range l {
			if !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	sort.Strings(out)
	return out
}

// codeKeys are the keys each file accepts, from the structs it decodes into.
func codeKeys() map[string][]string {
	role := jsonKeys(plugin.RoleSetting{})
	return map[string][]string{
		config.PluginsFile:  set(meta, jsonKeys(config.Plugins{}), jsonKeys(config.PluginSettings{}), jsonKeys(config.IngestRule{})),
		config.EngineFile:   set(meta, jsonKeys(config.Engine{}), jsonKeys(config.AllowEntry{})),
		config.LLMRolesFile: set(meta, jsonKeys(config.LLMRoles{}), role),
	}
}

// section returns the text of the "## title" section of the reference.
func section(t *testing.T, doc, title string) string {
	t.Helper()
	start := strings.Index(doc, "\n## "+title+"\n")
	if start < 0 {
		t.Fatalf("docs/configuration.md has no section %q", title)
	}
	rest := doc[start+len(title)+5:]
	if end := strings.Index(rest, "\n## "); end >= 0 {
		rest = rest[:end]
	}
	return rest
}

var rowRE = regexp.MustCompile("(?m)^\\| (`[^|]+`) \\|([^|]*)\\|([^|]*)\\|")
var codeRE = regexp.MustCompile("`([^`]+)`")

// row is one table row of the reference: its keys and cells.
type row struct {
	keys    []string
	kind    string
	dflt    string
	section string
}

func rows(sec string) []row {
	var out []row
	for _, m := range rowRE.FindAllStringSubmatch(sec, -1) {
		var keys []string
		for _, k := range codeRE.FindAllStringSubmatch(m[1], -1) {
			keys = append(keys, k[1])
		}
		out = append(out, row{keys: keys, kind: strings.TrimSpace(m[2]), dflt: strings.TrimSpace(m[3])})
	}
	return out
}

// leaves splits documented paths such as plugins.<id>.enabled into the
// key names they use (placeholders in <> are not keys).
func leaves(rs []row) []string {
	var out []string
	for _, r := range rs {
		for _, k := range r.keys {
			for _, seg := range splitPath(k) {
				if !strings.HasPrefix(seg, "<") {
					out = append(out, seg)
				}
			}
		}
	}
	return set(out)
}

// splitPath splits a dotted path; "$schema" and VS Code's dotted setting
// names are handled by the caller.
func splitPath(k string) []string { return strings.Split(k, ".") }

func readDoc(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repo, "docs", "configuration.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestReferenceDocumentsEveryFileKey(t *testing.T) {
	doc := readDoc(t)
	for name, want := range codeKeys() {
		got := leaves(rows(section(t, doc, name)))
		if !slices.Equal(got, want) {
			t.Errorf("docs/configuration.md, %s: documents %v, the code accepts %v", name, got, want)
		}
	}
	plugins := section(t, doc, config.PluginsFile)
	for _, stage := range plugin.LoopStages {
		if !strings.Contains(plugins, "`"+stage+"`") {
			t.Errorf("docs/configuration.md does not name the loop stage %s", stage)
		}
	}
	roles := section(t, doc, config.LLMRolesFile)
	for _, role := range plugin.ModelRoles {
		if !strings.Contains(roles, "`"+role+"`") {
			t.Errorf("docs/configuration.md does not name the model role %s", role)
		}
	}
}

// TestReferenceEngineDefaults checks each engine.json default against the
// embedded defaults.
func TestReferenceEngineDefaults(t *testing.T) {
	b, err := json.Marshal(config.Default().Engine)
	if err != nil {
		t.Fatal(err)
	}
	var want map[string]json.RawMessage
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	for _, r := range rows(section(t, readDoc(t), config.EngineFile)) {
		k := r.keys[0]
		if slices.Contains(meta, k) || slices.Contains(jsonKeys(config.AllowEntry{}), k) {
			continue // no default of its own: metadata, or a field of an allowlist entry
		}
		if got := strings.Trim(r.dflt, "`"); got != string(want[k]) {
			t.Errorf("docs/configuration.md: engine.json %s defaults to %s, the code to %s", k, got, want[k])
		}
	}
}

func TestReferenceDocumentsTheLanguageServerSettings(t *testing.T) {
	got := leaves(rows(section(t, readDoc(t), "Language server settings")))
	want := set(jsonKeys(lsp.Settings{}), jsonKeys(plugin.RoleSetting{}))
	if !slices.Equal(got, want) {
		t.Errorf("docs/configuration.md documents the server settings %v, the code has %v", got, want)
	}
}

type vscodeManifest struct {
	License     string `json:"license"`
	Contributes struct {
		Configuration struct {
			Properties map[string]struct {
				Default json.RawMessage `json:"default"`
			} `json:"properties"`
		} `json:"configuration"`
		JSONValidation []struct {
			FileMatch []string `json:"fileMatch"`
			URL       string   `json:"url"`
		} `json:"jsonValidation"`
	} `json:"contributes"`
}

func readManifest(t *testing.T) vscodeManifest {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repo, "editors", "vscode", "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m vscodeManifest
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestReferenceDocumentsEveryVSCodeSetting(t *testing.T) {
	m := readManifest(t)
	doc := map[string]row{}
	for _, r := range rows(section(t, readDoc(t), "VS Code settings")) {
		doc[r.keys[0]] = r
	}
	for k, p := range m.Contributes.Configuration.Properties {
		r, ok := doc[k]
		if !ok {
			t.Errorf("docs/configuration.md does not document the VS Code setting %s", k)
			continue
		}
		var want any
		if err := json.Unmarshal(p.Default, &want); err != nil {
			t.Fatalf("%s: default: %v", k, err)
		}
		var got any
		if err := json.Unmarshal([]byte(strings.Trim(r.dflt, "`")), &got); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("docs/configuration.md: %s defaults to %s, package.json to %s", k, r.dflt, p.Default)
		}
	}
	for k := range doc {
		if _, ok := m.Contributes.Configuration.Properties[k]; !ok {
			t.Errorf("docs/configuration.md documents %s, which package.json does not contribute", k)
		}
	}
}

func TestReferenceDocumentsEveryNeovimOption(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(repo, "editors", "nvim", "lua", "mrpvm", "init.lua"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?s)\nM\.defaults = \{\n(.*?)\n\}\n`).FindSubmatch(b)
	if m == nil {
		t.Fatal("init.lua has no M.defaults table")
	}
	var want []string
	for _, k := range regexp.MustCompile(`(?m)^  ([a-z_]+) = `).FindAllSubmatch(m[1], -1) {
		want = append(want, string(k[1]))
	}
	got := leaves(rows(section(t, readDoc(t), "Neovim options")))
	if want = set(want); !slices.Equal(got, want) {
		t.Errorf("docs/configuration.md documents the Neovim options %v, M.defaults has %v", got, want)
	}
}

// envRE finds environment variable names in Go string literals: "NAME"
// (os.Getenv) and "NAME=" (an environment entry mrpvm sets).
var envRE = regexp.MustCompile(`"(MRPVM_[A-Z0-9_]*[A-Z0-9])[="]|Getenv\("([A-Z_][A-Z0-9_]*)"\)`)

func TestReferenceDocumentsEveryEnvironmentVariable(t *testing.T) {
	code := []string{llm.EnvOpenAIBaseURL, llm.EnvOpenAIAPIKey, llm.EnvOllamaHost}
	err := filepath.WalkDir(repo, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && p != repo {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, m := range envRE.FindAllSubmatch(b, -1) {
			code = append(code, string(m[1])+string(m[2]))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	code = set(code)
	got := leavesEnv(rows(section(t, readDoc(t), "Environment variables")))
	if !slices.Equal(got, code) {
		t.Errorf("docs/configuration.md documents the variables\n%v\nthe code reads or sets\n%v", got, code)
	}
}

func leavesEnv(rs []row) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.keys...)
	}
	return set(out)
}

// schemaKeys collects every property name a schema declares, at any depth.
func schemaKeys(v any, out *[]string) {
	switch x := v.(type) {
	case map[string]any:
		if props, ok := x["properties"].(map[string]any); ok {
			for k := range props {
				*out = append(*out, k)
			}
		}
		for _, c := range x {
			schemaKeys(c, out)
		}
	case []any:
		for _, c := range x {
			schemaKeys(c, out)
		}
	}
}

func schemaFile(name string) string {
	return strings.TrimSuffix(name, ".json") + ".schema.json"
}

func compile(t *testing.T, name string) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	s, err := c.Compile(filepath.Join(repo, "schemas", schemaFile(name)))
	if err != nil {
		t.Fatalf("schemas/%s: %v", schemaFile(name), err)
	}
	return s
}

func TestSchemasDeclareExactlyTheCodeKeys(t *testing.T) {
	for name, want := range codeKeys() {
		b, err := os.ReadFile(filepath.Join(repo, "schemas", schemaFile(name)))
		if err != nil {
			t.Fatal(err)
		}
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatal(err)
		}
		var got []string
		schemaKeys(v, &got)
		if got = set(got); !slices.Equal(got, want) {
			t.Errorf("schemas/%s declares %v, the code accepts %v", schemaFile(name), got, want)
		}
		s := string(b)
		var enum []string
		switch name {
		case config.PluginsFile:
			enum = plugin.LoopStages
		case config.LLMRolesFile:
			enum = plugin.ModelRoles
		}
		if len(enum) > 0 {
			q, _ := json.Marshal(enum)
			if !strings.Contains(s, `{"enum": `+strings.ReplaceAll(string(q), `","`, `", "`)+`}`) {
				t.Errorf("schemas/%s: the enum of names is not %s", schemaFile(name), q)
			}
		}
	}
}

func TestSchemasValidateTheDefaultsAndRejectWhatTheLoaderRejects(t *testing.T) {
	bad := map[string][]string{
		config.PluginsFile: {`{"plugins": {"kb-fast": {"enabled": "yes"}}}`, `{"defaultOrder": {"nowhere": []}}`, `{"plugin": {}}`,
			`{"plugins": {"kb-fast": {"enabld": true}}}`},
		config.EngineFile: {`{"maxFrameDepth": -1}`, `{"requestTimeoutMs": 0}`, `{"pluginAllowlist": ["bad id!"]}`, `{"maxFrameDeph": 3}`},
		config.LLMRolesFile: {`{"roles": {"writer": {}}}`, `{"default": {"temperature": 3}}`, `{"default": {"apiKeyEnv": "sk-abc 123"}}`,
			`{"default": {"baseURL": "ftp://x"}}`, `{"default": {"modle": "x"}}`},
	}
	for name, docs := range bad {
		s := compile(t, name)
		def, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(def))
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Validate(inst); err != nil {
			t.Errorf("the default config/%s does not validate against its schema: %v", name, err)
		}
		for _, d := range docs {
			inst, err := jsonschema.UnmarshalJSON(strings.NewReader(d))
			if err != nil {
				t.Fatal(err)
			}
			if s.Validate(inst) == nil {
				t.Errorf("schemas/%s accepts %s", schemaFile(name), d)
			}
			// The loader refuses it too, so the schema is not stricter in
			// name only.
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, name), []byte(d), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, errs := config.Load(config.Options{UserDir: config.UserFolderAt(dir)}); len(errs) == 0 {
				t.Errorf("config.Load accepts %s in %s, the schema does not", d, name)
			}
		}
	}
}

func TestVSCodeValidatesTheFilesWithTheSchemas(t *testing.T) {
	m := readManifest(t)
	if m.License != "MIT" {
		t.Errorf("package.json license %q, want MIT (the repository's LICENSE)", m.License)
	}
	for _, name := range config.Names {
		found := false
		for _, v := range m.Contributes.JSONValidation {
			if v.URL != "./schemas/"+schemaFile(name) {
				continue
			}
			found = true
			for _, want := range []string{"**/" + config.WorkspaceDir + "/" + name, "**/mrpvm/" + name} {
				if !slices.Contains(v.FileMatch, want) {
					t.Errorf("jsonValidation of %s lacks %s", name, want)
				}
			}
		}
		if !found {
			t.Errorf("package.json has no jsonValidation entry for %s", name)
		}
		a, err := os.ReadFile(filepath.Join(repo, "schemas", schemaFile(name)))
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(repo, "editors", "vscode", "schemas", schemaFile(name)))
		if err != nil || !bytes.Equal(a, b) {
			t.Errorf("editors/vscode/schemas/%s is not a copy of schemas/%s (cp schemas/*.json editors/vscode/schemas/): %v", schemaFile(name), schemaFile(name), err)
		}
	}
}
