package vm

import (
	"fmt"
	"log/slog"
	"slices"

	"github.com/mrpvm/mrpvm/config"
	"github.com/mrpvm/mrpvm/engine"
	"github.com/mrpvm/mrpvm/engine/llm"
	"github.com/mrpvm/mrpvm/plugins"
	"github.com/mrpvm/mrpvm/plugins/sdk"
)

// Workspace is an open workspace: its knowledge base, the plugin catalog
// whose kb-plugins index it, and the machine that answers over both.
type Workspace struct {
	KB      *engine.KB
	Catalog *plugins.Catalog
	VM      *Machine
}

// OpenOptions say how to open a workspace.
type OpenOptions struct {
	Workspace   string
	DBPath      string // "" : engine.DefaultDBPath
	Store       engine.StoreOptions
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
	Virtual []engine.VirtualSource
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

// Open opens the knowledge base, boots the catalog with each plugin's
// private namespace in it, and attaches every enabled kb-plugin as an
// ingest hook and every built-in's plugin.kus.md as source plugin::<id>.
// Built-ins must have been registered (import plugins/all).
func Open(o OpenOptions) (*Workspace, error) {
	kb, err := engine.Open(engine.Config{Workspace: o.Workspace, DBPath: o.DBPath, Store: o.Store, MaxFileSize: o.MaxFileSize})
	if err != nil {
		return nil, err
	}
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if o.LLMCache == nil && o.CacheLLM {
		o.LLMCache = llm.StoreCache(kb.Store().PluginStore(LLMCacheNamespace))
	}
	if o.LLM == nil && !o.NoLLM {
		// The bridge joins only when some endpoint is configured; otherwise
		// the LLM plugins step aside and the symbolic path answers.
		cfg, _ := config.Load(config.Options{Workspace: kb.Workspace(), UserDir: o.UserDir})
		if b := llm.NewBridge(cfg.ModelSettings(), llm.Options{Cache: o.LLMCache, Logger: log}); b.AnyConfigured() {
			o.LLM = b
		}
	}
	cat := plugins.LoadCatalog(plugins.CatalogOptions{Workspace: kb.Workspace(), UserDir: o.UserDir,
		Env: PluginEnv(kb, o.LLM, log), Logger: log, NoWrappers: o.NoWrappers, PluginSwitches: o.PluginSwitches})
	kb.Attach(Hooks(cat), append(VirtualSources(cat), o.Virtual...))
	kb.SetWalk(engine.WalkOptions{
		Exclude:  append(slices.Clone(cat.Config.Engine.Exclude), o.Exclude...),
		MaxFiles: cat.Config.Engine.MaxWorkspaceFiles,
	})
	kb.SetHookTimeout(config.Duration(cat.Config.Engine.HookTimeoutMs))
	kb.SetReader(IngestReader(cat, o.LLM, log))
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
