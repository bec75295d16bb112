// Package valllm is the built-in val-plugin val-llm: lLM-backed response validator.
//
// Its behaviour, validation (Validate), arrives in a later version: until then every
// method answers status unsupported with error code not_implemented (see
// sdk.UnimplementedVal), so planners route around it instead of trusting a
// fake success. The descriptor (plugin.json) and the KUs describing the
// plugin (plugin.kus.md) are embedded and registered at init.
package valllm

import (
	_ "embed"
	"encoding/json"

	"github.com/mrpvm/mrpvm/plugins"
	"github.com/mrpvm/mrpvm/plugins/sdk"
)

// ID is the plugin id.
const ID = "val-llm"

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

// Plugin is val-llm.
type Plugin struct {
	sdk.Base
	sdk.UnimplementedVal
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
	return &Plugin{Base: base, UnimplementedVal: sdk.UnimplementedVal{ID: ID}, Options: opts, env: env}, nil
}
