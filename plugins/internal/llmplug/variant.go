package llmplug

import (
	"errors"
	"io/fs"

	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins"
)

// The built-in LLM plugins are variants of three implementations: a goal
// solver, a seed detector and a validator, each variant a model role and
// the defaults of its options. A folder plugins/<type>/<id>/ embeds its
// plugin.json, plugin.kus.md and prompts/*.tmpl in one embed.FS and
// registers its variant with one call to plugins.RegisterBuiltin.
var (
	// FastGoalSolver is gs-llm-fast: one call to the goal-fast role.
	FastGoalSolver = GSVariant{ID: "gs-llm-fast", Role: plugin.RoleGoalFast,
		Defaults: GSOptions{MaxEvidence: 6, MaxEvidenceChars: 8000}}
	// DeepGoalSolver is gs-llm-deep: the goal-deep role, more evidence,
	// and one corrective call for an uncited answer.
	DeepGoalSolver = GSVariant{ID: "gs-llm-deep", Role: plugin.RoleGoalDeep, CorrectUncited: true,
		Defaults: GSOptions{MaxEvidence: 10, MaxEvidenceChars: 16000}}
	// FastSeedDetector is sd-llm-fast: the seed-fast role.
	FastSeedDetector = SDVariant{ID: "sd-llm-fast", Role: plugin.RoleSeedFast,
		Defaults: SDOptions{MaxTurnBytes: 8192, MaxSourceBytes: 12000}}
	// DeepSeedDetector is sd-llm-deep: the seed-deep role, shown the last
	// six conversation turns to resolve references.
	DeepSeedDetector = SDVariant{ID: "sd-llm-deep", Role: plugin.RoleSeedDeep, Turns: 6,
		Defaults: SDOptions{MaxTurnBytes: 8192, MaxSourceBytes: 12000}}
	// LLMValidator is val-llm: one call to the validation role.
	LLMValidator = ValVariant{ID: "val-llm", Role: plugin.RoleValidation,
		Defaults: ValOptions{MaxEvidence: 8, MaxEvidenceChars: 10000, MaxAnswerBytes: 8000}}
)

// builtin is the registration of a variant from its folder's files, its
// options' defaults and check, and build, which makes the plugin from its
// base, options and prompts. The folder embeds the descriptor, the KUs
// (see plugins.ReadFolder) and the prompt templates prompts/*.tmpl:
//
//	//go:embed plugin.json plugin.kus.md prompts/*.tmpl
//	var files embed.FS
//
// It panics when a file is missing or a prompt does not parse, a
// programming error caught by the folder's tests.
func builtin[O any](folder fs.FS, defaults O, check func(*O) error, build func(plugin.Base, O, *Prompts) plugin.Plugin) plugins.Builtin {
	prompts := MustParsePrompts(folder, "prompts/*.tmpl")
	return plugins.Define(folder, defaults, check, func(base plugin.Base, opts O, _ plugin.Env) plugin.Plugin {
		return build(base, opts, prompts)
	})
}

// GSVariant is one built-in LLM goal solver.
type GSVariant struct {
	ID             string
	Role           string // the model role it calls
	CorrectUncited bool   // see GoalSolver.CorrectUncited
	Defaults       GSOptions
}

// GSOptions are an LLM goal solver's options in plugins.json.
type GSOptions struct {
	// MaxEvidence is the number of evidence KUs shown to the model.
	MaxEvidence int `json:"maxEvidence,omitempty"`
	// MaxEvidenceChars bounds their text together.
	MaxEvidenceChars int `json:"maxEvidenceChars,omitempty"`
}

func (o *GSOptions) validate() error {
	if o.MaxEvidence < 1 || o.MaxEvidence > 50 {
		return errors.New("maxEvidence must be between 1 and 50")
	}
	if o.MaxEvidenceChars < 500 {
		return errors.New("maxEvidenceChars must be at least 500")
	}
	return nil
}

// Builtin is the registration of the variant v from its folder's files
// (see builtin). Call plugins.RegisterBuiltin with it from the folder's init.
func (v GSVariant) Builtin(folder fs.FS) plugins.Builtin {
	return builtin(folder, v.Defaults, (*GSOptions).validate, func(base plugin.Base, opts GSOptions, prompts *Prompts) plugin.Plugin {
		return &GoalSolverPlugin{Base: base, Options: opts, GoalSolver: &GoalSolver{ID: v.ID, Role: v.Role, Prompts: prompts,
			CorrectUncited: v.CorrectUncited, Limits: Limits{MaxItems: opts.MaxEvidence, MaxChars: opts.MaxEvidenceChars}}}
	})
}

// GoalSolverPlugin is a built-in LLM gs-plugin: its GoalSolver with the
// plugin's descriptor and options.
type GoalSolverPlugin struct {
	plugin.Base
	Options GSOptions
	*GoalSolver
}

var _ plugin.GSPlugin = (*GoalSolverPlugin)(nil)

// SDVariant is one built-in LLM seed detector.
type SDVariant struct {
	ID       string
	Role     string // the model role it calls
	Turns    int    // earlier conversation turns the prompt shows
	Defaults SDOptions
}

// SDOptions are an LLM seed detector's options in plugins.json.
type SDOptions struct {
	// MaxTurnBytes bounds the user's turn sent to the model.
	MaxTurnBytes int `json:"maxTurnBytes,omitempty"`
	// MaxSourceBytes bounds the source text one normalization call sends.
	MaxSourceBytes int `json:"maxSourceBytes,omitempty"`
}

func (o *SDOptions) validate() error {
	if o.MaxTurnBytes < 256 || o.MaxSourceBytes < 256 {
		return errors.New("maxTurnBytes and maxSourceBytes must be at least 256")
	}
	return nil
}

// Builtin is the registration of the variant v from its folder's files
// (see builtin). Call plugins.RegisterBuiltin with it from the folder's init.
func (v SDVariant) Builtin(folder fs.FS) plugins.Builtin {
	return builtin(folder, v.Defaults, (*SDOptions).validate, func(base plugin.Base, opts SDOptions, prompts *Prompts) plugin.Plugin {
		return &SeedDetectorPlugin{Base: base, Options: opts, SeedDetector: &SeedDetector{ID: v.ID, Role: v.Role, Prompts: prompts,
			Turns: v.Turns, MaxTurnBytes: opts.MaxTurnBytes, MaxSourceBytes: opts.MaxSourceBytes}}
	})
}

// SeedDetectorPlugin is a built-in LLM sd-plugin: its SeedDetector with
// the plugin's descriptor and options.
type SeedDetectorPlugin struct {
	plugin.Base
	Options SDOptions
	*SeedDetector
}

var _ plugin.SDPlugin = (*SeedDetectorPlugin)(nil)

// ValVariant is one built-in LLM validator.
type ValVariant struct {
	ID       string
	Role     string // the model role it calls
	Defaults ValOptions
}

// ValOptions are an LLM validator's options in plugins.json.
type ValOptions struct {
	// MaxEvidence is the number of evidence KUs shown to the model.
	MaxEvidence int `json:"maxEvidence,omitempty"`
	// MaxEvidenceChars bounds their text together.
	MaxEvidenceChars int `json:"maxEvidenceChars,omitempty"`
	// MaxAnswerBytes bounds the answer shown.
	MaxAnswerBytes int `json:"maxAnswerBytes,omitempty"`
}

func (o *ValOptions) validate() error {
	if o.MaxEvidence < 1 || o.MaxEvidence > 50 {
		return errors.New("maxEvidence must be between 1 and 50")
	}
	if o.MaxEvidenceChars < 500 || o.MaxAnswerBytes < 500 {
		return errors.New("maxEvidenceChars and maxAnswerBytes must be at least 500")
	}
	return nil
}

// Builtin is the registration of the variant v from its folder's files
// (see builtin). Call plugins.RegisterBuiltin with it from the folder's init.
func (v ValVariant) Builtin(folder fs.FS) plugins.Builtin {
	return builtin(folder, v.Defaults, (*ValOptions).validate, func(base plugin.Base, opts ValOptions, prompts *Prompts) plugin.Plugin {
		return &ValidatorPlugin{Base: base, Options: opts, Validator: &Validator{ID: v.ID, Role: v.Role, Prompts: prompts,
			Limits: Limits{MaxItems: opts.MaxEvidence, MaxChars: opts.MaxEvidenceChars}, MaxAnswerBytes: opts.MaxAnswerBytes}}
	})
}

// ValidatorPlugin is a built-in LLM val-plugin: its Validator with the
// plugin's descriptor and options.
type ValidatorPlugin struct {
	plugin.Base
	Options ValOptions
	*Validator
}

var _ plugin.ValPlugin = (*ValidatorPlugin)(nil)
