package kbplugin

import (
	"context"
	"io/fs"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins"
)

// The built-in kb-plugins are variants of one engine: each is a Profile
// whose MaxResults, MinScore and MaxDepth are the defaults of its options.
// A folder plugins/kb/<id>/ embeds its plugin.json and plugin.kus.md and
// registers its variant with one call to plugins.RegisterBuiltin.
var (
	// Fast is kb-fast: BM25 alone with a small result budget.
	Fast = Profile{ID: "kb-fast", MaxResults: 3, MinScore: 0.3}
	// Balanced is kb-balanced: BM25 candidates reranked with HDC
	// hypervectors and MMR diversity.
	Balanced = Profile{ID: "kb-balanced", MaxResults: 7, MinScore: 0.15, HDC: true}
	// ThinkingDB is kb-thinkingdb: BM25 fused with ThinkingDB facts and
	// bounded proofs; it alone takes the maxDepth option.
	ThinkingDB = Profile{ID: "kb-thinkingdb", MaxResults: 8, MinScore: 0.12, ThinkingDB: true, MaxDepth: 3}
)

// Builtin is the registration of the variant prof, built from the plugin
// folder's embedded descriptor and KUs (see plugins.ReadFolder). Call
// plugins.RegisterBuiltin with it from the folder's init, so that the
// registry records that folder's plugin.json as the plugin's source.
func (prof Profile) Builtin(folder fs.FS) plugins.Builtin {
	if prof.ThinkingDB {
		defaults := DepthOptions{MaxResults: prof.MaxResults, MinScore: prof.MinScore, MaxDepth: prof.MaxDepth}
		return plugins.Define(folder, defaults, (*DepthOptions).validate, func(base plugin.Base, o DepthOptions, env plugin.Env) plugin.Plugin {
			p := prof
			p.MaxResults, p.MinScore, p.MaxDepth = o.MaxResults, o.MinScore, o.MaxDepth
			return &Plugin{Base: base, engine: New(p, env.Store)}
		})
	}
	// Only a ThinkingDB variant accepts maxDepth; for the others it is an
	// unknown key like any other.
	defaults := Options{MaxResults: prof.MaxResults, MinScore: prof.MinScore}
	return plugins.Define(folder, defaults, (*Options).validate, func(base plugin.Base, o Options, env plugin.Env) plugin.Plugin {
		p := prof
		p.MaxResults, p.MinScore, p.MaxDepth = o.MaxResults, o.MinScore, 0
		return &Plugin{Base: base, engine: New(p, env.Store)}
	})
}

// Options are a kb-plugin's options in plugins.json (plugins.<id>.options).
type Options struct {
	MaxResults int     `json:"maxResults"` // KUs returned at most
	MinScore   float64 `json:"minScore"`   // fused score a KU needs
}

func (o *Options) validate() error {
	if o.MaxResults < 1 || o.MaxResults > 100 {
		return plugin.Errorf(plugin.CodeOptionsInvalid, "maxResults %d is outside [1, 100]", o.MaxResults)
	}
	if o.MinScore < 0 || o.MinScore > 1 {
		return plugin.Errorf(plugin.CodeOptionsInvalid, "minScore %g is outside [0, 1]", o.MinScore)
	}
	return nil
}

// DepthOptions are the options of a variant that fuses ThinkingDB: Options
// plus the depth of the fact neighbourhood.
type DepthOptions struct {
	MaxResults int     `json:"maxResults"` // KUs returned at most
	MinScore   float64 `json:"minScore"`   // fused score a KU needs
	MaxDepth   int     `json:"maxDepth"`   // hops of the fact neighbourhood
}

func (o *DepthOptions) validate() error {
	if err := (&Options{MaxResults: o.MaxResults, MinScore: o.MinScore}).validate(); err != nil {
		return err
	}
	if o.MaxDepth < 1 || o.MaxDepth > 10 {
		return plugin.Errorf(plugin.CodeOptionsInvalid, "maxDepth %d is outside [1, 10]", o.MaxDepth)
	}
	return nil
}

// Plugin is a built-in kb-plugin: the engine under one profile.
type Plugin struct {
	plugin.Base
	engine *Engine
}

var (
	_ plugin.KBPlugin       = (*Plugin)(nil)
	_ plugin.IndexVersioner = (*Plugin)(nil)
	_ plugin.Searcher       = (*Plugin)(nil)
	_ plugin.Warmer         = (*Plugin)(nil)
	_ plugin.TermCounter    = (*Plugin)(nil)
	_ plugin.SourcePreparer = (*Plugin)(nil)
)

// IndexVersion names the index layout; a change rebuilds the index.
func (p *Plugin) IndexVersion() string { return IndexVersion }

// Retrieve returns evidence and guidance KUs for the request's intents.
func (p *Plugin) Retrieve(ctx context.Context, _ plugin.RunContext, in *plugin.RetrieveInput) (*plugin.RetrieveResult, error) {
	return p.engine.Retrieve(ctx, in)
}

// OnSourceText indexes one committed source inside its transaction.
func (p *Plugin) OnSourceText(ctx context.Context, _ plugin.RunContext, st *plugin.SourceText) (*plugin.SourceTextResult, error) {
	return p.engine.OnSourceText(ctx, st)
}

// OnSessionEvent keeps session KUs searchable for their session.
func (p *Plugin) OnSessionEvent(ctx context.Context, _ plugin.RunContext, ev *plugin.SessionEvent) (*plugin.SessionEventResult, error) {
	return p.engine.OnSessionEvent(ctx, ev)
}

// Search ranks the knowledge base for a free-text query (plugin.Searcher; used by mrpvm search).
func (p *Plugin) Search(ctx context.Context, req plugin.SearchRequest) (*plugin.SearchResult, error) {
	return p.engine.Search(ctx, req)
}

// TermFreq reports how many sources hold an analysed term, out of how
// many (plugin.TermCounter; the VM's term statistics for rarity).
func (p *Plugin) TermFreq(ctx context.Context, term string) (holding, sources int, err error) {
	return p.engine.TermFreq(ctx, term)
}

// Warm loads the index state searches keep in memory (plugin.Warmer; used by mrpvm search and the language server).
func (p *Plugin) Warm(ctx context.Context) error {
	return p.engine.Warm(ctx)
}

// PrepareSource analyses a parsed source ahead of its ingest transaction (run on the parse workers).
func (p *Plugin) PrepareSource(sourceID string, doc *kus.Document) {
	p.engine.PrepareSource(sourceID, doc)
}
