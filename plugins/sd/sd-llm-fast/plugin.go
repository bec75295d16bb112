// Package sdllmfast is the built-in sd-plugin sd-llm-fast: lightweight LLM-backed normalization.
//
// Its behaviour, seed detection (DetectSeeds, NormalizePersistentContext), arrives in a later version: until then every
// method answers status unsupported with error code not_implemented (see
// sdk.UnimplementedSD), so planners route around it instead of trusting a
// fake success. The descriptor (plugin.json) and the KUs describing the
// plugin (plugin.kus.md) are embedded and registered at init.
package sdllmfast

import (
	_ "embed"
	"encoding/json"

	"github.com/mrpvm/mrpvm/plugins"
	"github.com/mrpvm/mrpvm/plugins/sdk"
)

// ID is the plugin id.
const ID = "sd-llm-fast"

//go:embed plugin.json
var descriptorJSON []byte

//go:embed plugin.kus.md
var kusMarkdown []byte

func init() {
	plugins.RegisterBuiltin(plugins.Builtin{Descriptor: descriptorJSON, KUs: kusMarkdown, New: New})
}

// Options are the plugin's options in plugins.json; it takes none, and
// any key is an error.
type Options struct{}

func defaults() Options { return Options{} }

func (o *Options) validate() error { return nil }

// Plugin is sd-llm-fast.
type Plugin struct {
	sdk.Base
	sdk.UnimplementedSD
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
	return &Plugin{Base: base, UnimplementedSD: sdk.UnimplementedSD{ID: ID}, Options: opts, env: env}, nil
}
