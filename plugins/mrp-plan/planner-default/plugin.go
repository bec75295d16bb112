// Package plannerdefault is the built-in mrp-plan-plugin planner-default: adaptive cheap-first planning: candidates per stage ordered by learned utility (EWMA statistics persisted in its store), descriptor hints matched to the task, and cost.
// recordOutcome folds every request's stages into the statistics, which
// survive restarts.
package plannerdefault

import (
	"context"
	_ "embed"
	"encoding/json"

	"github.com/mrpvm/mrpvm/plugins/internal/planning"

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
	Options Options
	env     sdk.Env
	learner *planning.Learner
}

// New builds the plugin from its options and injected services.
func New(raw json.RawMessage, env sdk.Env) (sdk.Plugin, error) {
	opts := defaults()
	base, err := sdk.Setup(descriptorJSON, raw, &opts, (*Options).validate)
	if err != nil {
		return nil, err
	}
	return &Plugin{Base: base, Options: opts, env: env, learner: planning.NewLearner(opts.Alpha, env.Store)}, nil
}

// heaviness orders candidates: negative prefers cheap plugins, positive heavy ones.
const heaviness = -1

// stageFamilies are the stages a plan orders.
var stageFamilies = []struct {
	stage string
	typ   sdk.PluginType
}{{sdk.LoopSeedDetector, sdk.TypeSD}, {sdk.LoopKB, sdk.TypeKB}, {sdk.LoopGoalSolver, sdk.TypeGS}, {sdk.LoopValidation, sdk.TypeVal}}

// BuildPlan orders the seed detectors, kb-plugins, goal solvers and validators for a task
// and decides whether to decompose it.
func (p *Plugin) BuildPlan(ctx context.Context, rc sdk.RunContext, in *sdk.PlanInput) (*sdk.Plan, error) {
	sig := planning.Read(in, rc)
	plan := &sdk.Plan{Status: sdk.StatusSuccess, PlannerPluginID: ID}
	for _, sf := range stageFamilies {
		ids, notes := planning.Order(in.Candidates[sf.typ], p.learner, sig, heaviness, in.Pins[sf.stage], in.Preferences[sf.stage])
		switch sf.typ {
		case sdk.TypeSD:
			plan.SeedDetectorOrder = ids
		case sdk.TypeKB:
			plan.KBPluginOrder = ids
		case sdk.TypeGS:
			plan.GoalSolverOrder = ids
		case sdk.TypeVal:
			plan.ValidatorOrder = ids
		}
		for _, n := range notes {
			plan.Notes = append(plan.Notes, sf.stage+": "+n)
		}
	}
	if len(in.Intents) > 1 && in.FrameDepth < rc.Budgets.MaxFrameDepth {
		plan.Decompose = true
		plan.FramePurpose = sdk.FrameSubtaskDecomposition
		plan.Notes = append(plan.Notes, "several independent tasks: one child frame each")
	} else if len(in.Guidance["frame"]) > 0 || len(in.Guidance[sdk.FrameStrategyGuidance]) > 0 {
		plan.FramePurpose = sdk.FrameStrategyGuidance
	}
	return plan, nil
}

// RecordOutcome learns from one request.
func (p *Plugin) RecordOutcome(ctx context.Context, rc sdk.RunContext, o *sdk.Outcome) error {
	return p.learner.Record(ctx, o)
}

// Learner exposes the statistics (for tests and `mrpvm plugins --stats`).
func (p *Plugin) Learner() *planning.Learner { return p.learner }
