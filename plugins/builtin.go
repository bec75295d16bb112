package plugins

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/mrpvm/mrpvm/plugin"
)

// Builtin is what a built-in plugin package registers at init: its
// embedded plugin.json and plugin.kus.md and a factory.
type Builtin struct {
	Descriptor []byte // plugin.json
	KUs        []byte // plugin.kus.md
	// New builds the plugin from its options object in plugins.json (nil
	// when there is none) and the services the core injects. It should
	// reject unknown options (plugin.DecodeOptions does).
	New func(opts json.RawMessage, env plugin.Env) (plugin.Plugin, error)
}

// ReadFolder returns the descriptor (plugin.json) and the KUs
// (plugin.kus.md) of a built-in plugin's folder, which embeds them in one
// embed.FS:
//
//	//go:embed plugin.json plugin.kus.md
//	var files embed.FS
//
// It panics when one is missing, a programming error the folder's tests
// catch at init.
func ReadFolder(folder fs.FS) (descriptorJSON, kusMarkdown []byte) {
	descriptorJSON, err := fs.ReadFile(folder, "plugin.json")
	if err != nil {
		panic(fmt.Errorf("built-in plugin folder: %w", err))
	}
	kusMarkdown, err = fs.ReadFile(folder, "plugin.kus.md")
	if err != nil {
		panic(fmt.Errorf("built-in plugin folder: %w", err))
	}
	return descriptorJSON, kusMarkdown
}

// Define is the Builtin of a plugin built from the descriptor and KUs its
// folder embeds (see ReadFolder): its factory decodes the options object
// over defaults (an unknown key is an error), checks the result with check
// (nil: no check) and hands the descriptor's base, the options and the
// injected services to build. Every built-in is registered through it, so
// options are decoded one way.
func Define[O any](folder fs.FS, defaults O, check func(*O) error, build func(base plugin.Base, opts O, env plugin.Env) plugin.Plugin) Builtin {
	descriptorJSON, kusMarkdown := ReadFolder(folder)
	return Builtin{Descriptor: descriptorJSON, KUs: kusMarkdown,
		New: func(raw json.RawMessage, env plugin.Env) (plugin.Plugin, error) {
			opts := defaults
			base, err := plugin.Setup(descriptorJSON, raw, &opts, check)
			if err != nil {
				return nil, err
			}
			return build(base, opts, env), nil
		}}
}

// DefineStateless is the Builtin of a plugin that takes no options (any key
// is an error) and needs no injected service: build makes it from its
// descriptor's base alone.
func DefineStateless(folder fs.FS, build func(base plugin.Base) plugin.Plugin) Builtin {
	return Define(folder, struct{}{}, nil, func(base plugin.Base, _ struct{}, _ plugin.Env) plugin.Plugin { return build(base) })
}

// BuiltinInfo is a registered built-in.
type BuiltinInfo struct {
	Descriptor plugin.Descriptor
	KUs        []byte
	// Ref is the plugin.json path relative to the module root
	// ("plugins/kb/kb-fast/plugin.json"), or the absolute source path when
	// the module root is unknown.
	Ref string
	New func(opts json.RawMessage, env plugin.Env) (plugin.Plugin, error)
}

// KUSourceID is the knowledge base source id of a plugin's plugin.kus.md.
func KUSourceID(id string) string { return "plugin::" + id }

// builtinTable is the factory table; the package has one, tests make more.
type builtinTable struct {
	sync.Mutex
	byID     map[string]*BuiltinInfo
	problems []*plugin.PluginError
}

var builtins builtinTable

// moduleRoot is the source folder of the module, derived from this file.
var moduleRoot = func() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return ""
	}
	return filepath.Dir(filepath.Dir(file))
}()

// RegisterBuiltin records a built-in plugin's factory. Call it while the
// plugin package initialises, from its init or a package variable's
// initializer in its plugin.go. It never panics: a broken descriptor or a
// duplicate id is recorded as a problem naming the file and line (see
// BuiltinProblems), and the plugin is left out while the others load. It
// returns b.New, so that a package whose plugin type is its own keeps its
// factory from the same call:
//
//	var New = plugins.RegisterBuiltin(plugins.DefineStateless(files, build))
func RegisterBuiltin(b Builtin) func(opts json.RawMessage, env plugin.Env) (plugin.Plugin, error) {
	ref := "builtin"
	if _, file, _, ok := runtime.Caller(1); ok {
		ref = filepath.Join(filepath.Dir(file), "plugin.json")
		if moduleRoot != "" {
			if rel, err := filepath.Rel(moduleRoot, ref); err == nil && !strings.HasPrefix(rel, "..") {
				ref = filepath.ToSlash(rel)
			}
		}
	}
	builtins.register(b, ref)
	return b.New
}

func (builtins *builtinTable) register(b Builtin, ref string) {
	builtins.Lock()
	defer builtins.Unlock()
	if builtins.byID == nil {
		builtins.byID = map[string]*BuiltinInfo{}
	}
	d, errs := plugin.ParseDescriptor(b.Descriptor, ref)
	if b.New == nil {
		errs = append(errs, &plugin.PluginError{Code: plugin.CodePluginFactory, Message: "Builtin.New is nil", File: ref})
	}
	for _, e := range errs {
		e.Ref = ref
		if e.Stage == "" {
			e.Stage = plugin.StageLoad
		}
	}
	if len(errs) > 0 {
		builtins.problems = append(builtins.problems, errs...)
		return
	}
	if old, ok := builtins.byID[d.ID]; ok {
		line, col := plugin.NewLocator(b.Descriptor, ref).Pos("id")
		builtins.problems = append(builtins.problems, &plugin.PluginError{Ref: ref, ID: d.ID, Stage: plugin.StageRegister,
			Code: plugin.CodeDuplicatePluginID, File: ref, Line: line, Col: col,
			Message: fmt.Sprintf("id %q is already registered by %s", d.ID, old.Ref)})
		return
	}
	builtins.byID[d.ID] = &BuiltinInfo{Descriptor: *d, KUs: b.KUs, Ref: ref, New: b.New}
}

// Builtins returns the registered built-ins in family order, then by id.
func Builtins() []BuiltinInfo { return builtins.list() }

func (builtins *builtinTable) list() []BuiltinInfo {
	builtins.Lock()
	defer builtins.Unlock()
	out := make([]BuiltinInfo, 0, len(builtins.byID))
	for _, b := range builtins.byID {
		c := *b
		c.Descriptor = b.Descriptor.Clone()
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b BuiltinInfo) int {
		if d := typeIndex(a.Descriptor.Type) - typeIndex(b.Descriptor.Type); d != 0 {
			return d
		}
		return strings.Compare(a.Descriptor.ID, b.Descriptor.ID)
	})
	return out
}

// LookupBuiltin returns the built-in with the given id.
func LookupBuiltin(id string) (BuiltinInfo, bool) {
	builtins.Lock()
	defer builtins.Unlock()
	b, ok := builtins.byID[id]
	if !ok {
		return BuiltinInfo{}, false
	}
	c := *b
	c.Descriptor = b.Descriptor.Clone()
	return c, true
}

// BuiltinProblems returns what went wrong while built-ins registered.
func BuiltinProblems() []*plugin.PluginError { return builtins.problemList() }

func (builtins *builtinTable) problemList() []*plugin.PluginError {
	builtins.Lock()
	defer builtins.Unlock()
	return slices.Clone(builtins.problems)
}

func typeIndex(t plugin.PluginType) int {
	if i := slices.Index(plugin.PluginTypes, t); i >= 0 {
		return i
	}
	return len(plugin.PluginTypes)
}
