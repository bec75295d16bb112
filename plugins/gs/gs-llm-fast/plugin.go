// Package gsllmfast is the built-in gs-plugin gs-llm-fast: a fluent answer
// written by the goal-fast model role from the structured payload
// (intents, evidence KUs, gs-plugin guidance KUs), grounded in the evidence
// with [n] citations that map back to KUs (responseDocument lists them,
// evidenceIds names the cited KUs). It makes one call (maxLLMCalls 1),
// answers `no-context` without calling the model when there is no
// evidence and when the model says the evidence does not answer, and
// `needs-decomposition` when the model says the task is too broad. An
// answer that cites no source is an error (llm_uncited). With no model
// endpoint configured it answers `unsupported` (code llm_not_configured)
// and the planner falls back to gs-symbolic. The prompt is prompts/solve.tmpl,
// embedded.
package gsllmfast

import (
	"context"
	"embed"
	"encoding/json"
	"errors"

	"github.com/mrpvm/mrpvm/plugins"
	"github.com/mrpvm/mrpvm/plugins/internal/llmplug"
	"github.com/mrpvm/mrpvm/plugins/sdk"
)

// ID is the plugin id.
const ID = "gs-llm-fast"

//go:embed plugin.json
var descriptorJSON []byte

//go:embed plugin.kus.md
var kusMarkdown []byte

//go:embed prompts/*.tmpl
var promptFS embed.FS

var prompts = llmplug.MustParsePrompts(promptFS, "prompts/*.tmpl")

func init() {
	plugins.RegisterBuiltin(plugins.Builtin{Descriptor: descriptorJSON, KUs: kusMarkdown, New: New})
}

// Options are the plugin's options in plugins.json.
type Options struct {
	// MaxEvidence is the number of evidence KUs shown to the model; default 6.
	MaxEvidence int `json:"maxEvidence,omitempty"`
	// MaxEvidenceChars bounds their text together; default 8000.
	MaxEvidenceChars int `json:"maxEvidenceChars,omitempty"`
}

func defaults() Options { return Options{MaxEvidence: 6, MaxEvidenceChars: 8000} }

func (o *Options) validate() error {
	if o.MaxEvidence < 1 || o.MaxEvidence > 50 {
		return errors.New("maxEvidence must be between 1 and 50")
	}
	if o.MaxEvidenceChars < 500 {
		return errors.New("maxEvidenceChars must be at least 500")
	}
	return nil
}

// Plugin is gs-llm-fast.
type Plugin struct {
	sdk.Base
	Options Options
	env     sdk.Env
	gs      *llmplug.GoalSolver
}

// New builds the plugin from its options and injected services.
func New(raw json.RawMessage, env sdk.Env) (sdk.Plugin, error) {
	opts := defaults()
	base, err := sdk.Setup(descriptorJSON, raw, &opts, (*Options).validate)
	if err != nil {
		return nil, err
	}
	gs := &llmplug.GoalSolver{ID: ID, Role: sdk.RoleGoalFast, Prompts: prompts,
		Limits: llmplug.Limits{MaxItems: opts.MaxEvidence, MaxChars: opts.MaxEvidenceChars}}
	return &Plugin{Base: base, Options: opts, env: env, gs: gs}, nil
}

// Solve answers one task from its evidence.
func (p *Plugin) Solve(ctx context.Context, rc sdk.RunContext, in *sdk.SolveInput) (*sdk.SolveResult, error) {
	return p.gs.Solve(ctx, rc, in)
}
