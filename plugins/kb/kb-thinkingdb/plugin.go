// Package kbthinkingdb is the built-in kb-plugin kb-thinkingdb: lexical + bounded symbolic closure.
//
// Its behaviour, retrieval (Retrieve) and its ingest index (OnSourceText, which
// indexes nothing yet), arrives in a later version: until then every
// method answers status unsupported with error code not_implemented (see
// sdk.UnimplementedKB), so planners route around it instead of trusting a
// fake success. The descriptor (plugin.json) and the KUs describing the
// plugin (plugin.kus.md) are embedded and registered at init.
package kbthinkingdb

import (
	_ "embed"
	"encoding/json"

	"github.com/mrpvm/mrpvm/plugins"
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
	sdk.UnimplementedKB
	Options Options
	env     sdk.Env
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
	return &Plugin{Base: base, UnimplementedKB: sdk.UnimplementedKB{ID: ID}, Options: opts, env: env}, nil
}
