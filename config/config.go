// Package config loads and validates mrpvm's three configuration files:
// plugins.json (which plugins are enabled, default orders per loop stage,
// fallback chains, per-plugin options), engine.json (budgets, timeouts,
// frame depth, planner fallback order, the wrapper allowlist) and
// llm-role-settings.json (model roles and per-plugin overrides; see
// docs/configuration.md).
//
// Each file is read in layers, later layers overriding earlier ones key by
// key (objects merge, other values replace): the defaults embedded in the
// binary, then the user's file in UserDir(), then the workspace's
// <workspace>/.mrpvm/<name>.json. Every layer is validated on its own and
// every problem carries file:line:col and a stable code; a bad value is
// dropped (the lower layer's value stays), a file that is not JSON is
// skipped whole. Two settings are trusted only outside the workspace,
// because opening a cloned repository must never run or send anything the
// repository chose: a workspace pluginAllowlist can only narrow the user's
// allowlist, and a workspace cannot set an LLM baseURL or apiKeyEnv.
package config

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mrpvm/mrpvm/internal/fsafe"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugin/jsonpos"
)

//go:embed plugins.json engine.json llm-role-settings.json
var embedded embed.FS

// File names.
const (
	PluginsFile  = "plugins.json"
	EngineFile   = "engine.json"
	LLMRolesFile = "llm-role-settings.json"
)

// Names lists the configuration files.
var Names = []string{PluginsFile, EngineFile, LLMRolesFile}

// Layer kinds, lowest first.
const (
	LayerDefault   = "default"
	LayerUser      = "user"
	LayerWorkspace = "workspace"
	// LayerSettings is the editor's settings (Options.PluginSwitches),
	// laid over every file.
	LayerSettings = "settings"
)

// SettingsFile is how errors name the editor's settings layer.
const SettingsFile = "<editor settings: mrpvm.plugins>"

// WorkspaceDir is the folder of a workspace's configuration overrides.
const WorkspaceDir = ".mrpvm"

// Stable error codes.
const (
	CodeRead              = "config_read_failed"
	CodeSyntax            = "config_syntax"
	CodeUnknownKey        = "config_unknown_key"
	CodeBadValue          = "config_bad_value"
	CodeUnknownPlugin     = "config_unknown_plugin"
	CodeUnknownStage      = "config_unknown_stage"
	CodeWrongStage        = "config_wrong_stage"
	CodeUnknownRole       = "config_unknown_role"
	CodeWorkspaceWidening = "config_workspace_cannot_widen"
	CodeWorkspaceEndpoint = "config_workspace_endpoint_ignored"
)

// Error is one configuration problem.
type Error struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Col     int    `json:"col"`
	Code    string `json:"code"`
	Message string `json:"message"`
	Pointer string `json:"pointer,omitempty"` // JSON Pointer of the value at fault
	Warning bool   `json:"warning,omitempty"` // the value was ignored; nothing else is affected
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s: %s", e.File, e.Line, e.Col, e.Code, e.Message)
}

// Pos is where a value was set.
type Pos struct {
	File      string `json:"file"`
	Line, Col int
}

// Config is the merged configuration.
type Config struct {
	Plugins Plugins
	Engine  Engine
	LLM     LLMRoles
	// Layers lists the files read, lowest first.
	Layers []LayerInfo
	pos    map[string]map[string]Pos // file name -> JSON pointer -> where the winning value sits
}

// LayerInfo names one file that was read.
type LayerInfo struct {
	Name string // PluginsFile, ...
	Kind string // LayerDefault, LayerUser, LayerWorkspace
	File string // path shown in errors
}

// Plugins is plugins.json.
type Plugins struct {
	Plugins map[string]PluginSettings `json:"plugins"`
	// DefaultOrder maps a loop stage (seed-detector, planner, kb,
	// goal-solver, validation) to plugin ids, most preferred first.
	DefaultOrder map[string][]string `json:"defaultOrder"`
	// FallbackChains maps a plugin id to the plugins to try, in order, when
	// it fails or answers weakly.
	FallbackChains map[string][]string `json:"fallbackChains"`
	// Ingest names the seed detector that reads the workspace files a
	// gitignore-style glob matches (the first matching rule wins); the
	// other files are read by sd-symbolic (the Markdown reader).
	Ingest []IngestRule `json:"ingest"`
}

// IngestRule is one element of plugins.json's ingest: the files Glob
// matches are read by the sd-plugin SeedDetector.
type IngestRule struct {
	Glob         string `json:"glob"`
	SeedDetector string `json:"seedDetector"`
}

// PluginSettings is one plugin's entry.
type PluginSettings struct {
	Enabled bool            `json:"enabled"`
	Options json.RawMessage `json:"options,omitempty"`
}

// Engine is engine.json.
type Engine struct {
	MaxLLMAttemptsPerRequest int      `json:"maxLLMAttemptsPerRequest"`
	RequestTimeoutMs         int      `json:"requestTimeoutMs"`
	MaxPluginsPerStage       int      `json:"maxPluginsPerStage"`
	MaxFrameDepth            int      `json:"maxFrameDepth"`
	PluginTimeoutMs          int      `json:"pluginTimeoutMs"`
	HookTimeoutMs            int      `json:"hookTimeoutMs"`
	PlannerFallbackOrder     []string `json:"plannerFallbackOrder"`
	// PluginAllowlist names the external wrappers that may run, each bound
	// to where it may come from (see AllowEntry). Only the user's file can
	// add to it; a workspace can only remove.
	PluginAllowlist       Allowlist `json:"pluginAllowlist"`
	WrapperTimeoutMs      int       `json:"wrapperTimeoutMs"`
	WrapperMaxInputBytes  int       `json:"wrapperMaxInputBytes"`
	WrapperMaxOutputBytes int       `json:"wrapperMaxOutputBytes"`
	// Exclude are gitignore-style patterns, relative to the workspace
	// folder, of files and folders never ingested, laid over the
	// workspace's ignore files. The layers add up: the user's patterns and
	// the workspace's all apply.
	Exclude []string `json:"exclude"`
	// MaxWorkspaceFiles caps the Markdown files (and the folders) one
	// ingest lists; the walk stops there and says so. A workspace file can
	// only lower it, so a cloned repository cannot make an editor walk
	// without bound.
	MaxWorkspaceFiles int `json:"maxWorkspaceFiles"`
}

// Duration turns a millisecond setting into a duration.
func Duration(ms int) time.Duration { return time.Duration(ms) * time.Millisecond }

// Allowed reports whether a wrapper id is named by the effective
// allowlist. Whether a given wrapper with that id may run also depends on
// where it sits: see AllowEntry.
func (e *Engine) Allowed(id string) bool { return len(e.PluginAllowlist.For(id)) > 0 }

// AllowEntry is one element of pluginAllowlist. Written as a plain string
// it is an id alone, which admits only the wrapper of that id in the user's
// configuration folder (wrappers/*/). Written as an object it also binds
// the id to a place or to contents, which is what admits a wrapper found
// anywhere else (a workspace's wrappers/*/):
//
//	{"id": "repo-helper", "dir": "/home/me/src/repo/wrappers/helper"}
//	{"id": "repo-helper", "sha256": "<64 hex digits>"}
//
// Dir is the absolute folder holding the wrapper's manifest.json (symbolic
// links resolved on both sides). SHA256 is the wrapper's fingerprint: the
// SHA-256 of the SHA-256 digests of its manifest.json, its executable and
// each argument naming a file of its folder, in that order. With both set,
// both must match.
type AllowEntry struct {
	ID     string `json:"id"`
	Dir    string `json:"dir,omitempty"`
	SHA256 string `json:"sha256,omitempty"`
}

// Bound reports whether the entry names a place or contents, not an id
// alone.
func (a AllowEntry) Bound() bool { return a.Dir != "" || a.SHA256 != "" }

// UnmarshalJSON reads a plain id string or an object.
func (a *AllowEntry) UnmarshalJSON(b []byte) error {
	var id string
	if err := json.Unmarshal(b, &id); err == nil {
		*a = AllowEntry{ID: id}
		return nil
	}
	type plain AllowEntry
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return fmt.Errorf("a pluginAllowlist entry is an id or an object {id, dir, sha256}: %w", err)
	}
	*a = AllowEntry(p)
	a.SHA256 = strings.ToLower(a.SHA256)
	return nil
}

// MarshalJSON writes an id alone as a string, a bound entry as an object.
func (a AllowEntry) MarshalJSON() ([]byte, error) {
	if !a.Bound() {
		return json.Marshal(a.ID)
	}
	type plain AllowEntry
	return json.Marshal(plain(a))
}

// Allowlist is the decoded pluginAllowlist.
type Allowlist []AllowEntry

// IDs lists the ids the allowlist names, in order, each once.
func (l Allowlist) IDs() []string {
	var out []string
	for _, e := range l {
		if !slices.Contains(out, e.ID) {
			out = append(out, e.ID)
		}
	}
	return out
}

// For returns the entries naming id.
func (l Allowlist) For(id string) []AllowEntry {
	var out []AllowEntry
	for _, e := range l {
		if e.ID == id {
			out = append(out, e)
		}
	}
	return out
}

// LLMRoles is llm-role-settings.json.
type LLMRoles struct {
	Default         plugin.RoleSetting            `json:"default"`
	Roles           map[string]plugin.RoleSetting `json:"roles"`
	PluginOverrides map[string]plugin.RoleSetting `json:"pluginOverrides"`
}

// ModelSettings returns the settings in the form plugins receive.
func (c *Config) ModelSettings() plugin.ModelSettings {
	return plugin.ModelSettings{Default: c.LLM.Default, Roles: c.LLM.Roles, PluginOverrides: c.LLM.PluginOverrides}
}

// PluginEnabled reports whether plugins.json enables id.
func (c *Config) PluginEnabled(id string) bool { return c.Plugins.Plugins[id].Enabled }

// PluginOptions returns id's options object, or nil.
func (c *Config) PluginOptions(id string) json.RawMessage { return c.Plugins.Plugins[id].Options }

// Order returns the default order of a loop stage.
func (c *Config) Order(stage string) []string { return slices.Clone(c.Plugins.DefaultOrder[stage]) }

// Pos returns where the value at a JSON pointer of a file was set.
func (c *Config) Pos(name, pointer string) (Pos, bool) {
	p, ok := c.pos[name][pointer]
	return p, ok
}

// Options says where to look.
type Options struct {
	// Workspace is the workspace folder; empty: no workspace layer.
	Workspace string
	// UserDir is the folder of the user's files; the zero value reads
	// none.
	UserDir UserFolder
	// Known maps every plugin id that exists (built-ins and discovered
	// wrappers) to its type. Ids in the files are checked against it;
	// nil skips those checks.
	Known map[string]plugin.PluginType
	// PluginSwitches enables (true) or disables (false) plugins by id over
	// every file: an editor's settings (the mrpvm.plugins setting). Like the
	// user's configuration folder it is trusted; a plugin's options stay
	// those of the files.
	PluginSwitches map[string]bool
}

// UserDir returns the user's configuration folder: $MRPVM_CONFIG_DIR, else
// os.UserConfigDir()/mrpvm, else "".
func UserDir() string {
	if d := os.Getenv("MRPVM_CONFIG_DIR"); d != "" {
		return d
	}
	d, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "mrpvm")
}

// UserFolder is the user configuration folder a load reads. A setting
// naming it (a flag, an editor's userDir) is decoded once where it enters
// the program (ParseUserFolder) and passed on as this value. The zero value
// is no folder: only the embedded defaults and the workspace's files count.
type UserFolder struct{ dir string }

// UserFolderAt is the folder dir; "" is no folder.
func UserFolderAt(dir string) UserFolder { return UserFolder{dir: dir} }

// DefaultUserFolder is UserDir(): no folder when the platform has none.
func DefaultUserFolder() UserFolder { return UserFolder{dir: UserDir()} }

// ParseUserFolder decodes a user-folder setting: "" is the default folder
// (DefaultUserFolder), "-" is none, anything else names the folder.
func ParseUserFolder(setting string) UserFolder {
	switch setting {
	case "":
		return DefaultUserFolder()
	case "-":
		return UserFolder{}
	}
	return UserFolder{dir: setting}
}

// Dir is the folder's path; "" when there is none.
func (u UserFolder) Dir() string { return u.dir }

// Default returns the embedded defaults. They are valid (a test says so).
func Default() *Config {
	c, errs := Load(Options{})
	if len(errs) > 0 {
		panic(fmt.Sprintf("config: embedded defaults are invalid: %v", errs))
	}
	return c
}

// Load reads, validates and merges the three files. It always returns a
// usable configuration; the errors list what was ignored and why.
func Load(opt Options) (*Config, []*Error) {
	userDir := opt.UserDir.Dir()
	cfg := &Config{pos: map[string]map[string]Pos{}}
	var errs []*Error
	for _, name := range Names {
		var layers []*layer
		def, _ := embedded.ReadFile(name)
		layers = append(layers, &layer{name: name, kind: LayerDefault, file: "<builtin>/config/" + name, src: def})
		if userDir != "" {
			if l, err := readLayer(name, LayerUser, "", filepath.Join(userDir, name)); err != nil {
				errs = append(errs, err)
			} else if l != nil {
				layers = append(layers, l)
			}
		}
		if opt.Workspace != "" {
			if l, err := readLayer(name, LayerWorkspace, opt.Workspace, filepath.Join(opt.Workspace, WorkspaceDir, name)); err != nil {
				errs = append(errs, err)
			} else if l != nil {
				layers = append(layers, l)
			}
		}
		if name == PluginsFile && len(opt.PluginSwitches) > 0 {
			layers = append(layers, switchesLayer(opt.PluginSwitches))
		}
		errs = append(errs, cfg.merge(name, layers, opt.Known, userDir)...)
	}
	return cfg, errs
}

// switchesLayer writes plugin switches as a plugins.json layer, one plugin
// per line in id order (so an error's line names the plugin).
func switchesLayer(sw map[string]bool) *layer {
	ids := slices.Sorted(maps.Keys(sw))
	var b strings.Builder
	b.WriteString("{\"plugins\": {\n")
	for i, id := range ids {
		k, _ := json.Marshal(id)
		fmt.Fprintf(&b, "  %s: {\"enabled\": %t}", k, sw[id])
		if i < len(ids)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("}}\n")
	return &layer{name: PluginsFile, kind: LayerSettings, file: SettingsFile, src: []byte(b.String())}
}

// CheckFile validates one file's text as a layer of the given kind without
// merging it, for `mrpvm plugins check` and editors.
func CheckFile(name, kind, file string, src []byte, known map[string]plugin.PluginType) []*Error {
	l := &layer{name: name, kind: kind, file: file, src: src}
	return l.validate(known)
}

// layer is one file of one configuration.
type layer struct {
	name, kind, file string
	src              []byte
	ix               *jsonpos.Index
	tree             map[string]any
	bad              map[string]bool // pointers removed from tree
}

// readLayer reads one configuration file, confined to root when it is not
// "" (a workspace's file must not resolve outside the workspace). Files
// that are not regular or are over fsafe.MaxConfigBytes are refused with
// the fsafe code; a missing file is no layer.
func readLayer(name, kind, root, path string) (*layer, *Error) {
	src, err := fsafe.ReadFile(root, path, fsafe.MaxConfigBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, &Error{File: path, Line: 1, Col: 1, Code: fsafe.CodeOr(err, CodeRead), Message: err.Error()}
	}
	return &layer{name: name, kind: kind, file: path, src: src}, nil
}

// parse indexes and decodes the layer; a syntax error is returned as the
// only error.
func (l *layer) parse() *Error {
	if len(bytes.TrimSpace(l.src)) == 0 {
		return &Error{File: l.file, Line: 1, Col: 1, Code: CodeSyntax, Message: "the file is empty; write {} for no settings"}
	}
	if line, col, msg, bad := jsonpos.SyntaxPos(l.src); bad {
		return &Error{File: l.file, Line: line, Col: col, Code: CodeSyntax, Message: msg}
	}
	l.ix, _ = jsonpos.Parse(l.src)
	var tree any
	dec := json.NewDecoder(bytes.NewReader(l.src))
	dec.UseNumber()
	_ = dec.Decode(&tree)
	m, ok := tree.(map[string]any)
	if !ok {
		return &Error{File: l.file, Line: 1, Col: 1, Code: CodeSyntax, Message: l.name + " must hold a JSON object"}
	}
	l.tree = m
	return nil
}

// validate parses the layer and checks every value against the file's
// rules, removing bad values from the tree.
func (l *layer) validate(known map[string]plugin.PluginType) []*Error {
	if err := l.parse(); err != nil {
		return []*Error{err}
	}
	c := &checker{l: l, known: known}
	c.run()
	return c.errs
}

// merge validates the layers, lays them over each other and decodes the
// result into the configuration.
func (c *Config) merge(name string, layers []*layer, known map[string]plugin.PluginType, userDir string) []*Error {
	var errs []*Error
	merged := map[string]any{}
	pos := map[string]Pos{}
	var userAllow []any
	var wsAllow []any
	var wsAllowLayer *layer
	var exclude []any // every layer's exclude, lowest first
	for _, l := range layers {
		lerrs := l.validate(known)
		errs = append(errs, lerrs...)
		if l.tree == nil {
			continue
		}
		c.Layers = append(c.Layers, LayerInfo{Name: name, Kind: l.kind, File: l.file})
		if name == EngineFile {
			if a, ok := l.tree["pluginAllowlist"].([]any); ok {
				if l.kind == LayerWorkspace {
					wsAllow, wsAllowLayer = a, l
					delete(l.tree, "pluginAllowlist")
				} else {
					userAllow = a
				}
			}
			if a, ok := l.tree["exclude"].([]any); ok {
				exclude = append(exclude, a...)
			}
			if l.kind == LayerWorkspace {
				if err := capNotRaised(l, merged); err != nil {
					errs = append(errs, err)
				}
			}
		}
		for _, n := range l.ix.Nodes {
			if !l.removed(n.Pointer) {
				line, col := l.ix.LineCol(n.KeyOffset)
				pos[n.Pointer] = Pos{File: l.file, Line: line, Col: col}
			}
		}
		mergeTree(merged, l.tree)
	}
	if name == EngineFile && wsAllowLayer != nil {
		// The workspace may only narrow the allowlist: it names ids, and the
		// user's entries for those ids stay, with their bindings.
		keep := map[string]bool{}
		for i, v := range wsAllow {
			id := allowID(v)
			if slices.ContainsFunc(userAllow, func(u any) bool { return allowID(u) == id }) {
				keep[id] = true
				continue
			}
			line, col := wsAllowLayer.ix.KeyPos(jsonpos.Pointer("pluginAllowlist", strconv.Itoa(i)))
			errs = append(errs, &Error{File: wsAllowLayer.file, Line: line, Col: col, Code: CodeWorkspaceWidening,
				Pointer: jsonpos.Pointer("pluginAllowlist", strconv.Itoa(i)), Warning: true,
				Message: fmt.Sprintf("%v is not in the user's allowlist (%s); a workspace can only narrow the allowlist, never widen it",
					id, userFile(userDir, EngineFile))})
		}
		narrowed := []any{}
		for _, u := range userAllow {
			if keep[allowID(u)] {
				narrowed = append(narrowed, u)
			}
		}
		merged["pluginAllowlist"] = narrowed
	}
	if name == EngineFile && exclude != nil {
		merged["exclude"] = exclude
	}
	c.pos[name] = pos
	b, _ := json.Marshal(merged)
	var err error
	switch name {
	case PluginsFile:
		err = json.Unmarshal(b, &c.Plugins)
	case EngineFile:
		err = json.Unmarshal(b, &c.Engine)
	case LLMRolesFile:
		err = json.Unmarshal(b, &c.LLM)
	}
	if err != nil { // cannot happen for validated layers; report rather than hide
		errs = append(errs, &Error{File: name, Line: 1, Col: 1, Code: CodeBadValue, Message: err.Error()})
	}
	return errs
}

// capNotRaised drops a workspace layer's maxWorkspaceFiles above the value
// of the layers below (merged so far), with a warning.
func capNotRaised(l *layer, below map[string]any) *Error {
	v, ok := l.tree["maxWorkspaceFiles"].(json.Number)
	if !ok {
		return nil
	}
	lower, ok := below["maxWorkspaceFiles"].(json.Number)
	if !ok {
		return nil
	}
	n, err1 := v.Int64()
	max, err2 := lower.Int64()
	if err1 != nil || err2 != nil || n <= max {
		return nil
	}
	delete(l.tree, "maxWorkspaceFiles")
	ptr := jsonpos.Pointer("maxWorkspaceFiles")
	l.bad[ptr] = true
	line, col := l.ix.KeyPos(ptr)
	return &Error{File: l.file, Line: line, Col: col, Code: CodeWorkspaceWidening, Pointer: ptr, Warning: true,
		Message: fmt.Sprintf("maxWorkspaceFiles %d is above %d (the user's or default value); a workspace can only lower it", n, max)}
}

// allowID is the id of a validated pluginAllowlist element: the string
// itself or the object's "id".
func allowID(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case map[string]any:
		id, _ := v["id"].(string)
		return id
	}
	return ""
}

func userFile(dir, name string) string {
	if dir == "" {
		return "no user configuration folder"
	}
	return filepath.Join(dir, name)
}

// removed reports whether ptr or one of its ancestors was dropped.
func (l *layer) removed(ptr string) bool {
	for p := range l.bad {
		if ptr == p || (len(ptr) > len(p) && ptr[:len(p)] == p && ptr[len(p)] == '/') {
			return true
		}
	}
	return false
}

// mergeTree lays src over dst: objects merge recursively, everything else
// replaces.
func mergeTree(dst, src map[string]any) {
	for k, v := range src {
		if sm, ok := v.(map[string]any); ok {
			if dm, ok := dst[k].(map[string]any); ok {
				mergeTree(dm, sm)
				continue
			}
			cp := map[string]any{}
			mergeTree(cp, sm)
			dst[k] = cp
			continue
		}
		dst[k] = v
	}
}

// deletePointer removes the value at ptr from tree.
func deletePointer(tree map[string]any, ptr string) {
	toks := jsonpos.Tokens(ptr)
	var cur any = tree
	for i, t := range toks {
		m, ok := cur.(map[string]any)
		if !ok {
			return // array elements are checked, and dropped, with their array
		}
		if i == len(toks)-1 {
			delete(m, t)
			return
		}
		cur = m[t]
	}
}
