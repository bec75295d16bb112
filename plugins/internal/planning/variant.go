package planning

import (
	"context"
	"io/fs"

	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins"
)

// Variant is one built-in planner: the shared planner with the direction
// in which it orders candidates. A folder plugins/mrp-plan/<id>/ embeds its
// plugin.json and plugin.kus.md and registers its variant with one call to
// plugins.RegisterBuiltin.
type Variant struct {
	ID string
	// Heaviness orders candidates: negative prefers cheap plugins,
	// positive heavy ones.
	Heaviness float64
}

var (
	// CheapFirst is planner-default: adaptive cheap-first planning.
	CheapFirst = Variant{ID: "planner-default", Heaviness: -1}
	// HeavyFirst is planner-depth: the deepest, most thorough plugins
	// first, for multi-hop questions and recovery.
	HeavyFirst = Variant{ID: "planner-depth", Heaviness: 1}
)

// Builtin is the registration of the variant v, built from the plugin
// folder's embedded descriptor and KUs (see plugins.ReadFolder). Call
// plugins.RegisterBuiltin with it from the folder's init, so that the
// registry records that folder's plugin.json as the plugin's source.
func (v Variant) Builtin(folder fs.FS) plugins.Builtin {
	return plugins.Define(folder, Options{Alpha: 0.25}, (*Options).validate, func(base plugin.Base, opts Options, env plugin.Env) plugin.Plugin {
		return &Planner{Base: base, Options: opts, variant: v, learner: NewLearner(opts.Alpha, env.Store)}
	})
}

// Options are a planner's options in plugins.json (plugins.<id>.options).
type Options struct {
	Alpha float64 `json:"alpha"` // EWMA smoothing factor of the learned statistics
}

func (o *Options) validate() error {
	if o.Alpha <= 0 || o.Alpha > 1 {
		return plugin.Errorf(plugin.CodeOptionsInvalid, "alpha %g is outside (0, 1]", o.Alpha)
	}
	return nil
}

// Planner is a built-in mrp-plan-plugin.
type Planner struct {
	plugin.Base
	Options Options
	variant Variant
	learner *Learner
}

var _ plugin.PlanPlugin = (*Planner)(nil)

// stageFamilies are the stages a plan orders.
var stageFamilies = []struct {
	stage string
	typ   plugin.PluginType
}{{plugin.LoopSeedDetector, plugin.TypeSD}, {plugin.LoopKB, plugin.TypeKB}, {plugin.LoopGoalSolver, plugin.TypeGS}, {plugin.LoopValidation, plugin.TypeVal}}

// BuildPlan orders the seed detectors, kb-plugins, goal solvers and validators for a task
// and decides whether to decompose it.
func (p *Planner) BuildPlan(ctx context.Context, rc plugin.RunContext, in *plugin.PlanInput) (*plugin.Plan, error) {
	sig := Read(in, rc)
	plan := &plugin.Plan{Status: plugin.StatusSuccess, PlannerPluginID: p.variant.ID}
	for _, sf := range stageFamilies {
		ids, notes := Order(in.Candidates[sf.typ], p.learner, sig, p.variant.Heaviness, in.Pins[sf.stage], in.Preferences[sf.stage])
		switch sf.typ {
		case plugin.TypeSD:
			plan.SeedDetectorOrder = ids
		case plugin.TypeKB:
			plan.KBPluginOrder = ids
		case plugin.TypeGS:
			plan.GoalSolverOrder = ids
		case plugin.TypeVal:
			plan.ValidatorOrder = ids
		}
		for _, n := range notes {
			plan.Notes = append(plan.Notes, sf.stage+": "+n)
		}
	}
	if len(in.Intents) > 1 && in.FrameDepth < rc.Budgets.MaxFrameDepth {
		plan.Decompose = true
		plan.FramePurpose = plugin.FrameSubtaskDecomposition
		plan.Notes = append(plan.Notes, "several independent tasks: one child frame each")
	} else if len(in.Guidance["frame"]) > 0 || len(in.Guidance[plugin.FrameStrategyGuidance]) > 0 {
		plan.FramePurpose = plugin.FrameStrategyGuidance
	}
	return plan, nil
}

// RecordOutcome learns from one request.
func (p *Planner) RecordOutcome(ctx context.Context, rc plugin.RunContext, o *plugin.Outcome) error {
	return p.learner.Record(ctx, o)
}
