// Package kbthinkingdb is the built-in kb-plugin kb-thinkingdb: BM25 fused with ThinkingDB facts and bounded proofs.
//
// onSourceText keeps its private index (in its own bbolt namespace) in step
// with every committed source; retrieve answers with evidence and
// phase-scoped guidance KUs (see plugins/kb/internal/kbplugin). The
// descriptor (plugin.json) and the KUs describing the plugin
// (plugin.kus.md) are embedded and registered at init.
package kbthinkingdb

import (
	"context"
	_ "embed"
	"encoding/json"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugins"
	"github.com/mrpvm/mrpvm/plugins/kb"
	"github.com/mrpvm/mrpvm/plugins/kb/internal/kbplugin"
	"github.com/mrpvm/mrpvm/plugins/sdk"
)

// ID is the plugin id.
const ID = "kb-thinkingdb"

//go:embed plugin.json
var descriptorJSON []byte

//go:embed plugin.kus.md
var kusMarkdown []byte

func init() {
	plugins.RegisterBuiltin(plugins.Builtin{Descriptor: descriptorJSON, KUs: kusMarkdown, New: New})
}

// Options are the plugin's options in plugins.json (plugins.<id>.options).
type Options struct {
	MaxResults int     `json:"maxResults"` // KUs returned at most
	MinScore   float64 `json:"minScore"`   // fused score a KU needs
	MaxDepth   int     `json:"maxDepth"`   // hops of the fact neighbourhood
}

func defaults() Options { return Options{MaxResults: 8, MinScore: 0.12, MaxDepth: 3} }

func (o *Options) validate() error {
	if o.MaxResults < 1 || o.MaxResults > 100 {
		return sdk.Errorf(sdk.CodeOptionsInvalid, "maxResults %d is outside [1, 100]", o.MaxResults)
	}
	if o.MinScore < 0 || o.MinScore > 1 {
		return sdk.Errorf(sdk.CodeOptionsInvalid, "minScore %g is outside [0, 1]", o.MinScore)
	}
	if o.MaxDepth < 1 || o.MaxDepth > 10 {
		return sdk.Errorf(sdk.CodeOptionsInvalid, "maxDepth %d is outside [1, 10]", o.MaxDepth)
	}
	return nil
}

// Plugin is kb-thinkingdb.
type Plugin struct {
	sdk.Base
	Options Options
	env     sdk.Env
	engine  *kbplugin.Engine
}

// New builds the plugin from its options and injected services.
func New(raw json.RawMessage, env sdk.Env) (sdk.Plugin, error) {
	base, err := sdk.NewBase(descriptorJSON)
	if err != nil {
		return nil, err
	}
	opts := defaults()
	if err := sdk.DecodeOptions(raw, &opts); err != nil {
		return nil, err
	}
	if err := opts.validate(); err != nil {
		return nil, err
	}
	return &Plugin{Base: base, Options: opts, env: env, engine: kbplugin.New(kbplugin.Profile{ID: ID, MaxResults: opts.MaxResults, MinScore: opts.MinScore, ThinkingDB: true, MaxDepth: opts.MaxDepth}, env.Store)}, nil
}

// IndexVersion names the index layout; a change rebuilds the index.
func (p *Plugin) IndexVersion() string { return kbplugin.IndexVersion }

// Retrieve returns evidence and guidance KUs for the request's intents.
func (p *Plugin) Retrieve(ctx context.Context, _ sdk.RunContext, in *sdk.RetrieveInput) (*sdk.RetrieveResult, error) {
	return p.engine.Retrieve(ctx, in)
}

// OnSourceText indexes one committed source inside its transaction.
func (p *Plugin) OnSourceText(ctx context.Context, _ sdk.RunContext, st *sdk.SourceText) (*sdk.SourceTextResult, error) {
	return p.engine.OnSourceText(ctx, st)
}

// OnSessionEvent keeps session KUs searchable for their session.
func (p *Plugin) OnSessionEvent(ctx context.Context, _ sdk.RunContext, ev *sdk.SessionEvent) (*sdk.SessionEventResult, error) {
	return p.engine.OnSessionEvent(ctx, ev)
}

// Search ranks the knowledge base for a free-text query (kb.Searcher; used by mrpvm search).
func (p *Plugin) Search(ctx context.Context, req kb.SearchRequest) (*kb.SearchResult, error) {
	return p.engine.Search(ctx, req)
}

// Warm loads the index state searches keep in memory (kb.Warmer; used by mrpvm search and the language server).
func (p *Plugin) Warm(ctx context.Context) error {
	return p.engine.Warm(ctx)
}

// PrepareSource analyses a parsed source ahead of its ingest transaction (run on the parse workers).
func (p *Plugin) PrepareSource(sourceID string, doc *kus.Document) {
	p.engine.PrepareSource(sourceID, doc)
}
