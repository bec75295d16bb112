package workspace

import (
	"fmt"
	"log/slog"
	"slices"

	"github.com/mrpvm/mrpvm/config"
	"github.com/mrpvm/mrpvm/ingest"
	"github.com/mrpvm/mrpvm/llm"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins"
	"github.com/mrpvm/mrpvm/store"
	"github.com/mrpvm/mrpvm/vm"
)

// Workspace is an open workspace: its knowledge base, the plugin catalog
// whose kb-plugins index it, and the machine that answers over both.
type Workspace struct {
	KB      *ingest.KB
	Catalog *plugins.Catalog
	VM      *vm.Machine
	// LLM is the model the machine and the plugins use: Options.LLM, or
	// the bridge built from the configuration; nil when no endpoint is
	// configured or with Options.NoLLM.
	LLM plugin.LLM
}

// Options say how to open a workspace.
type Options struct {
	// Root is the workspace folder.
	Root        string
	DBPath      string // "" : store.DefaultPath
	Store       store.Options
	MaxFileSize int64
	// UserDir is the user configuration folder, decoded by the caller
	// (config.ParseUserFolder); the zero value reads none.
	UserDir config.UserFolder
	Logger  *slog.Logger // nil discards
	// NoWrappers skips wrapper discovery: only built-ins load.
	NoWrappers bool
	// LLM is a model the caller built (tests); nil: the bridge is built
	// from the configuration when some endpoint is configured.
	LLM plugin.LLM
	// LLMSetting is laid over the default role of llm-role-settings.json
	// (an editor's llm setting); nil: the files alone decide.
	LLMSetting *plugin.RoleSetting
	// NoLLM keeps the LLM bridge out even when an endpoint is configured.
	NoLLM bool
	// LLMCache, when set, caches model replies.
	LLMCache llm.Cache
	// CacheLLM caches model replies in the knowledge base file (namespace
	// LLMCacheNamespace) when LLMCache is nil: the --llm-cache flag.
	CacheLLM bool
	// Virtual are extra sources besides the plugins' KUs.
	Virtual []ingest.VirtualSource
	// SourcesFrom, when set, makes more sources with no file from the
	// loaded catalog, after Virtual: sources read with the workspace's own
	// plugins, such as an evaluation story read by its seed detector.
	SourcesFrom func(cat *plugins.Catalog) []ingest.VirtualSource
	// PluginSwitches enables or disables plugins by id over the
	// configuration files (an editor's mrpvm.plugins setting).
	PluginSwitches map[string]bool
	// Exclude are gitignore-style patterns laid over engine.json's exclude
	// (an editor's mrpvm.exclude setting).
	Exclude []string
}

// LLMCacheNamespace is the knowledge base namespace of the on-disk LLM
// response cache (Options.CacheLLM).
const LLMCacheNamespace = "_llm-cache"

// Open opens the knowledge base file, loads the configuration once,
// builds the LLM bridge and the catalog from it (each plugin with its
// private namespace of the file), then opens the knowledge base with every
// enabled kb-plugin as an ingest hook, every built-in's plugin.kus.md as
// source plugin::<id>, and the walk, hook timeout and reader the
// configuration sets. The configuration's errors are problems of the
// catalog (Catalog.Problems); a failing plugin is left out. Built-ins must
// have been registered (import plugins/all).
func Open(o Options) (*Workspace, error) {
	root, err := ingest.Dir(o.Root)
	if err != nil {
		return nil, err
	}
	st, err := openStore(root, o)
	if err != nil {
		return nil, err
	}
	log := logger(o)
	cfg := loadConfig(root, o)
	if o.LLMCache == nil && o.CacheLLM {
		o.LLMCache = llm.StoreCache(st.PluginStore(LLMCacheNamespace))
	}
	model := o.LLM
	if model == nil && !o.NoLLM {
		model = bridge(cfg.Config, root, o, log)
	}
	cat := cfg.catalog(root, pluginEnv(root, st, model, log), log)
	kb, err := ingest.Open(kbOptions(root, st, cat, model, o, log))
	if err != nil {
		cat.Close()
		return nil, err
	}
	return &Workspace{KB: kb, Catalog: cat, VM: vm.New(kb, cat, vm.Options{Logger: log, LLM: model}), LLM: model}, nil
}

// LoadCatalog boots the plugin system of the workspace o.Root without its
// knowledge base or a model (mrpvm plugins): the configuration is loaded
// once as Open loads it and its errors are problems of the catalog. The
// caller closes the catalog.
func LoadCatalog(o Options) *plugins.Catalog {
	log := logger(o)
	return loadConfig(o.Root, o).catalog(o.Root, nil, log)
}

// UserAllowlist is the wrapper allowlist of the layers below any
// workspace: the embedded defaults and the user's engine.json. errs are
// the problems of those layers; what the loader leaves out of a broken
// file (all of it on a syntax error) is missing from ids too, so ids is
// the allowlist a workspace's engine.json narrows.
func UserAllowlist(user config.UserFolder) (ids []string, errs []*config.Error) {
	cfg, errs := config.Load(config.Options{UserDir: user})
	return cfg.Engine.PluginAllowlist.IDs(), errs
}

// loaded is a configuration as read for one workspace: the merged files,
// the errors met reading them, and the wrappers whose ids the files may
// name.
type loaded struct {
	*config.Config
	errs     []*config.Error
	wrappers *plugins.Wrappers
}

// loadConfig reads the configuration of the workspace root: the one place
// the files are read for a workspace.
func loadConfig(root string, o Options) loaded {
	var w *plugins.Wrappers
	if !o.NoWrappers {
		w = plugins.DiscoverWrappers(root, o.UserDir)
	}
	cfg, errs := config.Load(config.Options{Workspace: root, UserDir: o.UserDir, Known: w.Known(), PluginSwitches: o.PluginSwitches})
	return loaded{Config: cfg, errs: errs, wrappers: w}
}

// catalog builds the plugin catalog of the loaded configuration.
func (l loaded) catalog(root string, env func(plugin.Descriptor) plugin.Env, log *slog.Logger) *plugins.Catalog {
	return plugins.NewCatalog(plugins.CatalogOptions{Workspace: root, Config: l.Config, ConfigErrors: l.errs,
		Wrappers: l.wrappers, Env: env, Logger: log})
}

// bridge is the LLM bridge of the configuration's model settings, with
// o.LLMSetting over the default role; nil when no endpoint is configured,
// so the LLM plugins step aside and the symbolic path answers.
func bridge(cfg *config.Config, root string, o Options, log *slog.Logger) plugin.LLM {
	ms := cfg.ModelSettings()
	if o.LLMSetting != nil {
		ms.Default = ms.Default.Over(*o.LLMSetting)
	}
	b := llm.NewBridge(ms, llm.Options{Cache: o.LLMCache, Logger: log})
	if !b.AnyConfigured() {
		if o.LLMSetting != nil {
			log.Warn("the llm setting resolves to no endpoint (baseURL and model are both needed)", "folder", root)
		}
		return nil
	}
	return b
}

// openStore opens the knowledge base file of root. It is opened before the
// catalog exists because each plugin's store is a namespace of that file.
func openStore(root string, o Options) (*store.Store, error) {
	path := o.DBPath
	if path == "" {
		var err error
		if path, err = store.DefaultPath(root); err != nil {
			return nil, err
		}
	}
	return store.Open(path, o.Store)
}

// kbOptions are the knowledge base's options from the configuration the
// catalog was built from: the catalog's kb-plugins as ingest hooks; its
// built-ins' KUs, o.Virtual and o.SourcesFrom's as sources with no file;
// the walk (engine.json's exclude and file cap, then o.Exclude), the hook
// timeout and the source reader (the seed detectors of plugins.json's
// ingest rules).
func kbOptions(root string, st *store.Store, cat *plugins.Catalog, model plugin.LLM, o Options, log *slog.Logger) ingest.Options {
	virtual := append(virtualSources(cat), o.Virtual...)
	if o.SourcesFrom != nil {
		virtual = append(virtual, o.SourcesFrom(cat)...)
	}
	return ingest.Options{
		Workspace:   root,
		Store:       st,
		MaxFileSize: o.MaxFileSize,
		Hooks:       vm.Hooks(cat),
		HookTimeout: config.Duration(cat.Config.Engine.HookTimeoutMs),
		Virtual:     virtual,
		Reader:      vm.IngestReader(cat, model, log),
		Walk: ingest.WalkOptions{
			Exclude:  append(slices.Clone(cat.Config.Engine.Exclude), o.Exclude...),
			MaxFiles: cat.Config.Engine.MaxWorkspaceFiles,
		},
	}
}

// virtualSources returns the plugin.kus.md of every loaded built-in as a
// knowledge base source plugin::<id>.
func virtualSources(cat *plugins.Catalog) []ingest.VirtualSource {
	var out []ingest.VirtualSource
	for _, s := range cat.KUSources() {
		out = append(out, ingest.VirtualSource{ID: s.ID, Name: s.Name, Text: s.Text})
	}
	return out
}

// pluginEnv returns the services for one plugin: its private namespace in
// the knowledge base file, the LLM bridge and the logger.
func pluginEnv(root string, st *store.Store, model plugin.LLM, log *slog.Logger) func(d plugin.Descriptor) plugin.Env {
	return func(d plugin.Descriptor) plugin.Env {
		return plugin.Env{PluginID: d.ID, LLM: model, Logger: log, Workspace: root, Store: st.PluginStore(d.ID)}
	}
}

func logger(o Options) *slog.Logger {
	if o.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return o.Logger
}

// Close closes the plugins, then the knowledge base.
func (w *Workspace) Close() error {
	err := w.Catalog.Close()
	if cerr := w.KB.Close(); cerr != nil && err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("close workspace: %w", err)
	}
	return nil
}
