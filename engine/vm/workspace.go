package vm

import (
	"fmt"
	"log/slog"
	"slices"

	"github.com/mrpvm/mrpvm/config"
	"github.com/mrpvm/mrpvm/engine/llm"
	"github.com/mrpvm/mrpvm/ingest"
	"github.com/mrpvm/mrpvm/plugins"
	"github.com/mrpvm/mrpvm/plugins/sdk"
	"github.com/mrpvm/mrpvm/store"
)

// Workspace is an open workspace: its knowledge base, the plugin catalog
// whose kb-plugins index it, and the machine that answers over both.
type Workspace struct {
	KB      *ingest.KB
	Catalog *plugins.Catalog
	VM      *Machine
}

// OpenOptions say how to open a workspace.
type OpenOptions struct {
	Workspace   string
	DBPath      string // "" : store.DefaultPath
	Store       store.Options
	MaxFileSize int64
	LLM         sdk.LLM // nil: no model endpoint
	Logger      *slog.Logger
	UserDir     string // configuration folder ("" : default, "-" : none)
	NoWrappers  bool
	// NoLLM keeps the LLM bridge out even when an endpoint is configured.
	NoLLM bool
	// LLMCache, when set, caches model replies (the --llm-cache flag).
	LLMCache llm.Cache
	// CacheLLM caches model replies in the knowledge base file (namespace
	// LLMCacheNamespace) when LLMCache is nil: the --llm-cache flag.
	CacheLLM bool
	// Virtual are extra sources besides the plugins' KUs.
	Virtual []ingest.VirtualSource
	// SourcesFrom, when set, makes more sources from the loaded catalog (a
	// source read by one of its seed detectors); they follow Virtual.
	SourcesFrom func(cat *plugins.Catalog) []ingest.VirtualSource
	// PluginSwitches enables or disables plugins by id over the
	// configuration files (an editor's mrpvm.plugins setting).
	PluginSwitches map[string]bool
	// Exclude are gitignore-style patterns laid over engine.json's exclude
	// (an editor's mrpvm.exclude setting).
	Exclude []string
}

// LLMCacheNamespace is the knowledge base namespace of the on-disk LLM
// response cache (OpenOptions.CacheLLM).
const LLMCacheNamespace = "_llm-cache"

// Open opens the knowledge base file, boots the catalog with each plugin's
// private namespace in it, then opens the knowledge base with every enabled
// kb-plugin as an ingest hook and every built-in's plugin.kus.md as source
// plugin::<id>. Built-ins must have been registered (import plugins/all).
func Open(o OpenOptions) (*Workspace, error) {
	ws, err := ingest.Dir(o.Workspace)
	if err != nil {
		return nil, err
	}
	path := o.DBPath
	if path == "" {
		if path, err = store.DefaultPath(ws); err != nil {
			return nil, err
		}
	}
	st, err := store.Open(path, o.Store)
	if err != nil {
		return nil, err
	}
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if o.LLMCache == nil && o.CacheLLM {
		o.LLMCache = llm.StoreCache(st.PluginStore(LLMCacheNamespace))
	}
	if o.LLM == nil && !o.NoLLM {
		// The bridge joins only when some endpoint is configured; otherwise
		// the LLM plugins step aside and the symbolic path answers.
		cfg, _ := config.Load(config.Options{Workspace: ws, UserDir: o.UserDir})
		if b := llm.NewBridge(cfg.ModelSettings(), llm.Options{Cache: o.LLMCache, Logger: log}); b.AnyConfigured() {
			o.LLM = b
		}
	}
	cat := plugins.LoadCatalog(plugins.CatalogOptions{Workspace: ws, UserDir: o.UserDir,
		Env: PluginEnv(ws, st, o.LLM, log), Logger: log, NoWrappers: o.NoWrappers, PluginSwitches: o.PluginSwitches})
	virtual := append(VirtualSources(cat), o.Virtual...)
	if o.SourcesFrom != nil {
		virtual = append(virtual, o.SourcesFrom(cat)...)
	}
	kb, err := ingest.Open(ingest.Options{
		Workspace:   ws,
		Store:       st,
		MaxFileSize: o.MaxFileSize,
		Hooks:       Hooks(cat),
		HookTimeout: config.Duration(cat.Config.Engine.HookTimeoutMs),
		Virtual:     virtual,
		Reader:      IngestReader(cat, o.LLM, log),
		Walk: ingest.WalkOptions{
			Exclude:  append(slices.Clone(cat.Config.Engine.Exclude), o.Exclude...),
			MaxFiles: cat.Config.Engine.MaxWorkspaceFiles,
		},
	})
	if err != nil {
		cat.Close()
		return nil, err
	}
	return &Workspace{KB: kb, Catalog: cat, VM: New(kb, cat, Options{Logger: log, LLM: o.LLM})}, nil
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
