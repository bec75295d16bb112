// Package plannerdefault is the built-in mrp-plan-plugin planner-default: adaptive cheap-first planner with EWMA learning.
//
// Its behaviour, planning (BuildPlan, RecordOutcome), arrives in a later version: until then every
// method answers status unsupported with error code not_implemented (see
// sdk.UnimplementedPlan), so planners route around it instead of trusting a
// fake success. The descriptor (plugin.json) and the KUs describing the
// plugin (plugin.kus.md) are embedded and registered at init.
package plannerdefault

import (
	_ "embed"
	"encoding/json"

	"github.com/mrpvm/mrpvm/plugins"
	"github.com/mrpvm/mrpvm/plugins/sdk"
)

// ID is the plugin id.
const ID = "planner-default"

//go:embed plugin.json
var descriptorJSON []byte

//go:embed plugin.kus.md
var kusMarkdown []byte

func init() {
	plugins.RegisterBuiltin(plugins.Builtin{Descriptor: descriptorJSON, KUs: kusMarkdown, New: New})
}

// Options are the plugin's options in plugins.json (plugins.<id>.options).
type Options struct {
	Alpha float64 `json:"alpha"` // EWMA smoothing factor of the learned statistics
}

func defaults() Options { return Options{Alpha: 0.25} }

func (o *Options) validate() error {
	if o.Alpha <= 0 || o.Alpha > 1 {
		return sdk.Errorf(sdk.CodeOptionsInvalid, "alpha %g is outside (0, 1]", o.Alpha)
	}
	return nil
}

// Plugin is planner-default.
type Plugin struct {
	sdk.Base
	sdk.UnimplementedPlan
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
	return &Plugin{Base: base, UnimplementedPlan: sdk.UnimplementedPlan{ID: ID}, Options: opts, env: env}, nil
}
