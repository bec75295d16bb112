package vm

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mrpvm/mrpvm/config"
	"github.com/mrpvm/mrpvm/kbsearch"
	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/kus/sop"
	"github.com/mrpvm/mrpvm/llm"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/store"
)

// outcome is what one isolated plugin call produced.
type outcome struct {
	status     plugin.Status
	sufficient *bool
	meta       plugin.Metadata
	err        *plugin.Error
}

// callFor runs one typed plugin method through call and hands back its
// result with the outcome: an error or a missing result is a failed call,
// otherwise fields reads the status, metadata and error the result carries.
// The result is nil when the method was not run or did not return one.
func callFor[R any](r *run, ctx context.Context, frame *FrameTrace, stage string, p plugin.Plugin, allowed []plugin.Status,
	invoke func(ctx context.Context, rc plugin.RunContext) (*R, error), fields func(*R) outcome) (*R, outcome) {
	var res *R
	o := r.call(ctx, frame, stage, p, allowed, func(ctx context.Context, rc plugin.RunContext) (outcome, error) {
		var err error
		res, err = invoke(ctx, rc)
		if err != nil || res == nil {
			return outcome{}, errOr(err, "no result")
		}
		return fields(res), nil
	})
	return res, o
}

// call runs one plugin method isolated from the loop: skipped when its
// maxLLMCalls exceed the remaining budget, bounded by its timeout, a panic
// or a hang turned into an error status, statuses outside the family's
// contract rejected. Every call becomes one stage entry in the trace.
func (r *run) call(ctx context.Context, frame *FrameTrace, stage string, p plugin.Plugin, allowed []plugin.Status,
	fn func(ctx context.Context, rc plugin.RunContext) (outcome, error)) outcome {
	d := p.Descriptor()
	so := plugin.StageOutcome{PlannerPluginID: r.planner, Stage: stage, PluginID: d.ID}
	if d.UsesLLM && len(d.ModelRoles) > 0 {
		so.ModelRole = d.ModelRoles[0]
	}
	if e, ok := r.broken[d.ID]; ok {
		// The plugin itself failed earlier in this request; calling it again
		// on another evidence view would only fail again and cost its time.
		return outcome{status: plugin.StatusSkipped, err: e}
	}
	if d.MaxLLMCalls > r.remaining {
		so.Status = plugin.StatusSkippedBudget
		r.trace.addStage(frame, so, &plugin.Error{Code: CodeBudgetExhausted,
			Message: fmt.Sprintf("%s may make %d LLM calls; %d remain in this request", d.ID, d.MaxLLMCalls, r.remaining)})
		return outcome{status: plugin.StatusSkippedBudget}
	}
	if ctx.Err() != nil {
		so.Status = plugin.StatusError
		e := &plugin.Error{Code: CodeRequestTimeout, Message: "the request ran out of time before this stage"}
		r.trace.addStage(frame, so, e)
		return outcome{status: plugin.StatusError, err: e}
	}
	timeout := config.Duration(d.TimeoutMs)
	if max := config.Duration(r.m.eng.PluginTimeoutMs); timeout <= 0 || (max > 0 && timeout > max) {
		timeout = max
	}
	cctx := ctx
	cancel := context.CancelFunc(func() {})
	if timeout > 0 {
		cctx, cancel = context.WithTimeout(ctx, timeout)
	}
	defer cancel()

	start := time.Now()
	done := make(chan outcome, 1)
	rc := r.rc(frame)
	if dl, ok := cctx.Deadline(); ok {
		rc.Budgets.Deadline = dl // the nearer of the request's deadline and the call's timeout
	}
	var stageMeter *llm.StageMeter
	if r.meter != nil && d.UsesLLM {
		stageMeter = r.meter.Stage(d.ID, d.MaxLLMCalls)
		rc.LLM = stageMeter
	}
	go func() {
		defer func() {
			if rec := recover(); rec != nil {
				done <- outcome{status: plugin.StatusError, err: &plugin.Error{Code: CodePluginPanic, Message: fmt.Sprintf("%s panicked: %v", d.ID, rec)}}
			}
		}()
		o, err := fn(cctx, rc)
		if err != nil {
			code := "PLUGIN_ERROR"
			var se *plugin.Error
			var pe *plugin.PluginError
			switch {
			case errors.As(err, &se):
				code = se.Code
			case errors.As(err, &pe):
				code = pe.Code
			}
			o = outcome{status: plugin.StatusError, err: &plugin.Error{Code: code, Message: err.Error()}}
		}
		done <- o
	}()
	var o outcome
	select {
	case o = <-done:
	case <-cctx.Done():
		code, msg := CodePluginTimeout, fmt.Sprintf("%s did not answer within %s", d.ID, timeout)
		if ctx.Err() != nil {
			code, msg = CodeRequestTimeout, "the request ran out of time during this stage"
		}
		o = outcome{status: plugin.StatusError, err: &plugin.Error{Code: code, Message: msg}}
	}
	if !o.status.In(allowed) {
		o = outcome{status: plugin.StatusError, meta: o.meta, err: &plugin.Error{Code: CodeBadStatus,
			Message: fmt.Sprintf("%s answered status %q, which a %s may not return", d.ID, o.status, d.Type)}}
	}
	if o.status == plugin.StatusError && o.err != nil && slices.Contains(brokenCodes, o.err.Code) {
		if r.broken == nil {
			r.broken = map[string]*plugin.Error{}
		}
		r.broken[d.ID] = o.err
		r.trace.note("%s failed with %s; it is not called again in this request", d.ID, o.err.Code)
	}
	if ws, ok := o.meta.Extra["warnings"].([]string); ok {
		for _, w := range ws {
			r.trace.note("%s: %s", d.ID, w)
		}
	}
	if o.err != nil && o.err.Code == plugin.CodeLLMBudget && (o.status == plugin.StatusUnsupported || o.status == plugin.StatusError) {
		// The bridge refused a call: the request's LLM budget ran out during the stage.
		o.status = plugin.StatusSkippedBudget
	}
	if stageMeter != nil {
		st := stageMeter.Stats()
		o.meta.LLMCalls = max(o.meta.LLMCalls, st.Calls)
		if o.meta.Model == "" {
			o.meta.Model = st.Model
		}
		r.remaining = r.meter.Remaining()
	} else if o.meta.LLMCalls > 0 {
		r.remaining = max(0, r.remaining-o.meta.LLMCalls)
	}
	if d.UsesLLM && o.status == plugin.StatusUnsupported && r.m.llm == nil {
		r.llmHint = true
	}
	so.Status = o.status
	so.DurationMs = time.Since(start).Milliseconds()
	so.LLMCalls = o.meta.LLMCalls
	so.Sufficient = o.sufficient
	so.Model = o.meta.Model
	var perr *plugin.Error
	if o.err != nil && (o.status == plugin.StatusError || o.status == plugin.StatusSkippedBudget ||
		o.status == plugin.StatusUnsupported && o.err.Code != plugin.CodeNotImplemented) {
		perr = o.err
	}
	r.trace.addStage(frame, so, perr)
	if o.err != nil && o.err.Code == plugin.CodeKBCorrupt && r.corrupt == nil {
		r.corrupt = &kbCorruptError{plugin: d.ID, msg: o.err.Message}
	}
	return o
}

// brokenCodes are the failures that say the plugin itself is broken (it
// crashed, hung, answered outside its contract or printed no valid result),
// not that this input was hard: a plugin failing so is not called again in
// the same request.
var brokenCodes = []string{CodePluginPanic, CodePluginTimeout, CodeBadStatus,
	plugin.CodeWrapperBadOutput, plugin.CodeWrapperExit, plugin.CodeWrapperStart, plugin.CodeWrapperTimeout}

// kbCorruptError is a plugin's report that the knowledge base file is
// damaged (plugin.CodeKBCorrupt): the request fails with it, as the store's
// own error would, instead of answering from what could still be read.
type kbCorruptError struct{ plugin, msg string }

func (e *kbCorruptError) Error() string { return e.plugin + ": " + e.msg }

// Is matches store.ErrCorrupt and plugin.ErrKBCorrupt.
func (e *kbCorruptError) Is(target error) bool {
	return target == store.ErrCorrupt || target == plugin.ErrKBCorrupt
}

// stageOrder returns the plugins to try at a stage: the pin alone, else
// the given order (the plan's) limited to loaded plugins of the family,
// else the catalog's default order; at most maxPluginsPerStage.
func (r *run) stageOrder(stage string, planned []string, frame *FrameTrace) []string {
	if id, ok := r.pins[stage]; ok {
		return []string{id}
	}
	t := plugin.TypeOfLoopStage(stage)
	var out []string
	for _, id := range planned {
		if r.m.cat.Registry.Get(t, id) == nil {
			r.trace.fail(frame, CodeUnknownPlugin, "planner %s named %q for stage %s, which is not a loaded %s; skipped", r.planner, id, stage, t)
			continue
		}
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	if len(out) == 0 {
		out = r.m.cat.Order(stage)
	}
	if len(out) > r.perStage {
		out = out[:r.perStage]
	}
	// The configured fallback chains (plugins.json fallbackChains) follow,
	// tried only once the planned candidates are exhausted.
	var fallbacks []string
	for _, id := range out {
		for _, f := range r.m.cat.Fallbacks(id) {
			if !slices.Contains(out, f) && !slices.Contains(fallbacks, f) {
				fallbacks = append(fallbacks, f)
			}
		}
	}
	if len(fallbacks) > r.perStage {
		fallbacks = fallbacks[:r.perStage]
	}
	return append(out, fallbacks...)
}

// detectSeeds runs the seed detectors until one returns documents the SOP
// interpreter admits; with none, the question becomes a single intent.
func (r *run) detectSeeds(ctx context.Context, planned []string) {
	for _, id := range r.stageOrder(plugin.LoopSeedDetector, planned, nil) {
		p, ok := r.m.cat.Registry.SD(id)
		if !ok {
			continue
		}
		res, o := callFor(r, ctx, nil, plugin.LoopSeedDetector, p, plugin.SeedStatuses, func(ctx context.Context, rc plugin.RunContext) (*plugin.SeedResult, error) {
			return p.DetectSeeds(ctx, rc, &plugin.SeedInput{Payload: plugin.Payload{Prompt: r.question}, SessionID: r.session.ID, TurnID: r.turnID})
		}, func(res *plugin.SeedResult) outcome {
			return outcome{status: res.Status, meta: res.Metadata, err: res.Error}
		})
		if o.status != plugin.StatusSuccess {
			continue
		}
		intents, units, err := r.admit(res)
		if err != nil {
			i := len(r.trace.Outcome.Stages) - 1
			r.trace.Errors = append(r.trace.Errors, StageError{Stage: i, Code: CodeSeedInvalid, Message: err.Error()})
			continue
		}
		if len(intents) == 0 {
			r.trace.note("%s found no intent; the question is used as one intent", id)
			intents = []plugin.Intent{questionIntent(r.question)}
		}
		r.intents, r.turnKUs = intents, units
		return
	}
	r.trace.note("no seed detector succeeded; the question is used as one intent")
	r.intents = []plugin.Intent{questionIntent(r.question)}
}

// questionIntent is the intent used when seed detection gives none.
func questionIntent(q string) plugin.Intent {
	return plugin.Intent{ID: "i1", Act: "explain", Target: firstLine(q, 500), Output: "answer"}
}

// admit interprets a seed detector's documents: intents from intentCNL,
// current-turn KUs from currentTurnContextCNL, renamed into the session's
// id space (session::<turnId>::unit-NNN).
func (r *run) admit(res *plugin.SeedResult) ([]plugin.Intent, []*kus.KU, error) {
	var intents []plugin.Intent
	if strings.TrimSpace(res.IntentCNL) != "" {
		ir, err := sop.Interpret(res.IntentCNL)
		if err != nil {
			return nil, nil, fmt.Errorf("intentCNL: %w", err)
		}
		for _, in := range ir.Intents {
			intents = append(intents, plugin.Intent{ID: in.ID, Act: in.Act, Target: in.Target, Output: in.Output,
				Context: in.Context, Criterion: in.Criterion, Evidence: strings.Join(in.Evidence, ", "), Constraints: in.Constraints})
		}
	}
	var units []*kus.KU
	if strings.TrimSpace(res.CurrentTurnContextCNL) != "" {
		cr, err := sop.Interpret(res.CurrentTurnContextCNL)
		if err != nil {
			return nil, nil, fmt.Errorf("currentTurnContextCNL: %w", err)
		}
		src := "session::" + r.turnID
		now := r.m.now()
		for i, k := range cr.ActiveKUs() {
			c := *k
			c.ID = fmt.Sprintf("%s::unit-%03d", src, i)
			c.SourceID, c.SourceName, c.SourceType = src, "turn "+r.turnID, kus.SourceChatTurn
			c.ChunkID = src + "::chunk-000"
			c.Level = kus.LevelLeaf
			c.IngestedAt = now
			if c.KUType == "" {
				c.KUType = kus.TypeAtomic
			}
			if len(c.PhaseScopes) == 0 {
				c.PhaseScopes = []string{"kb-plugin"}
			}
			if c.Title == "" {
				c.Title = c.Topic
			}
			c.ParentUnitIDs, c.ChildUnitIDs = nil, nil
			c.Hash = kus.HashKU(&c)
			units = append(units, &c)
		}
	}
	return intents, units, nil
}

// plan asks a planner for a plan. A planner that fails or is not loaded
// leaves the catalog's default orders in place, so the loop always runs.
func (r *run) plan(ctx context.Context, pid string) *plugin.Plan {
	var previous []string
	if n := len(r.trace.PlannerAttempts); n > 0 {
		previous = slices.Clone(r.trace.PlannerAttempts[:n-1])
	}
	return r.buildPlan(ctx, pid, &plugin.PlanInput{
		Payload:           plugin.Payload{Prompt: r.question},
		Intents:           r.intents,
		DecomposedIntents: splitIntents(r.intents),
		TurnUnits:         r.turnKUs,
		KBID:              r.session.KBID,
		KBName:            r.session.KBName,
		KBStats:           r.m.workspaceStats(),
		StrategyGuidance:  r.strategy,
		Guidance:          r.phaseGuidance(),
		Pins:              r.pins,
		Preferences:       r.session.Preferences,
		Candidates:        r.m.cat.Candidates(),
		FrameDepth:        0,
		PreviousAttempts:  previous,
	}, "")
}

// seedRouting asks the first planner to order the seed detectors from the
// question alone (seed detection runs before the task's plan); nil leaves
// the catalog's order.
func (r *run) seedRouting(ctx context.Context) []string {
	if _, pinned := r.pins[plugin.LoopSeedDetector]; pinned {
		return nil
	}
	planners := r.m.cat.PlannerOrder()
	if id, ok := r.pins[plugin.LoopPlanner]; ok {
		planners = []string{id}
	}
	if len(planners) == 0 {
		return nil
	}
	r.planner = planners[0] // seed detection runs under the routing planner
	plan := r.buildPlan(ctx, planners[0], &plugin.PlanInput{
		Payload:     plugin.Payload{Prompt: r.question},
		KBID:        r.session.KBID,
		KBName:      r.session.KBName,
		KBStats:     r.m.workspaceStats(),
		Pins:        r.pins,
		Preferences: r.session.Preferences,
		Candidates:  r.m.cat.Candidates(),
	}, "seed routing: ")
	return plan.SeedDetectorOrder
}

// buildPlan asks planner pid for a plan; notes are recorded with prefix.
func (r *run) buildPlan(ctx context.Context, pid string, in *plugin.PlanInput, prefix string) *plugin.Plan {
	fallback := &plugin.Plan{PlannerPluginID: pid}
	p, ok := r.m.cat.Registry.Planner(pid)
	if !ok {
		if pid != "" {
			r.trace.fail(nil, CodeUnknownPlugin, "planner %s is not loaded; the catalog's default order is used", pid)
		}
		return fallback
	}
	var plan *plugin.Plan
	prc := r.rc(nil)
	if r.meter != nil {
		// A model is configured: planners see it (and may use the planner
		// role, charged to the request), so they can route to LLM plugins.
		prc.LLM = r.meter.Stage(pid, 0)
	}
	done := make(chan error, 1)
	cctx, cancel := context.WithTimeout(ctx, max(config.Duration(r.m.eng.PluginTimeoutMs), time.Second))
	defer cancel()
	go func() {
		defer func() {
			if rec := recover(); rec != nil {
				done <- fmt.Errorf("%s panicked: %v", pid, rec)
			}
		}()
		var err error
		plan, err = p.BuildPlan(cctx, prc, in)
		done <- err
	}()
	var err error
	select {
	case err = <-done:
	case <-cctx.Done():
		err = fmt.Errorf("%s did not plan in time", pid)
	}
	switch {
	case err != nil:
		r.trace.fail(nil, "PLAN_FAILED", "%v; the catalog's default order is used", err)
		return fallback
	case plan == nil || plan.Status == plugin.StatusUnsupported || plan.Status == plugin.StatusError:
		msg := "no plan"
		if plan != nil && plan.Error != nil {
			msg = plan.Error.Code + ": " + plan.Error.Message
		}
		if plan == nil || plan.Error == nil || plan.Error.Code != plugin.CodeNotImplemented {
			r.trace.fail(nil, "PLAN_FAILED", "planner %s: %s; the catalog's default order is used", pid, msg)
		} else {
			r.trace.note("planner %s is not implemented; the catalog's default order is used", pid)
		}
		return fallback
	}
	for _, n := range plan.Notes {
		r.trace.note("%s%s: %s", prefix, pid, n)
	}
	plan.PlannerPluginID = pid
	return plan
}

// phaseGuidance groups the guidance the planner sees by the phase it
// guides: the current turn's KUs and the retrieved strategy guidance.
func (r *run) phaseGuidance() map[string][]plugin.ScoredKU {
	out := r.turnGuidance()
	for phase, g := range r.guidance {
		out[phase] = mergeEvidence(out[phase], g)
	}
	return out
}

// retrieveStrategy asks the first kb-plugin for strategy guidance (purpose
// strategy-guidance) before planning: the KUs whose PhaseScopes name the
// planner become the plan input's StrategyGuidance, and every retrieved
// KU scoped to another phase joins that phase's guidance.
func (r *run) retrieveStrategy(ctx context.Context) {
	order := r.stageOrder(plugin.LoopKB, nil, nil)
	if len(order) == 0 {
		return
	}
	id := order[0]
	p, ok := r.m.cat.Registry.KB(id)
	if !ok {
		return
	}
	cctx, cancel := context.WithTimeout(ctx, max(config.Duration(r.m.eng.PluginTimeoutMs), time.Second))
	defer cancel()
	rc := r.rc(nil)
	rc.Budgets.Deadline, _ = cctx.Deadline()
	done := make(chan *plugin.RetrieveResult, 1)
	go func() {
		defer func() {
			if rec := recover(); rec != nil {
				done <- nil
			}
		}()
		res, err := p.Retrieve(cctx, rc, &plugin.RetrieveInput{Payload: plugin.Payload{Prompt: r.question}, Intents: r.intents,
			TurnUnits: r.turnKUs, Purpose: plugin.PurposeStrategyGuidance, SessionID: r.session.ID, KUs: storeKUReader{r.m.kb}})
		if err != nil {
			res = nil
		}
		done <- res
	}()
	var res *plugin.RetrieveResult
	select {
	case res = <-done:
	case <-cctx.Done():
	}
	if res == nil || (res.Status != plugin.StatusSuccess && res.Status != plugin.StatusInsufficient) {
		r.trace.note("strategy guidance: %s gave none", id)
		return
	}
	r.guidance = map[string][]plugin.ScoredKU{}
	for _, ri := range res.ResolvedIntents {
		for _, s := range append(slices.Clone(ri.Guidance), ri.Evidence...) {
			if s.KU == nil {
				continue
			}
			for _, phase := range s.KU.PhaseScopes {
				if phase == "kb-plugin" {
					continue
				}
				r.guidance[phase] = mergeEvidence(r.guidance[phase], []plugin.ScoredKU{s})
			}
		}
	}
	r.strategy = r.guidance["mrp-plan-plugin"]
	r.trace.note("strategy guidance: %d planner KUs from %s", len(r.strategy), id)
}

// turnGuidance groups the current turn's KUs by the phase they guide.
func (r *run) turnGuidance() map[string][]plugin.ScoredKU {
	out := map[string][]plugin.ScoredKU{}
	for _, k := range r.turnKUs {
		for _, s := range k.PhaseScopes {
			if s != "kb-plugin" {
				out[s] = append(out[s], plugin.ScoredKU{KU: k, Score: 1, Level: kus.LevelLeaf, Strategy: "turn"})
			}
		}
	}
	return out
}

// runFrame executes one frame: retrieval views in the plan's kb order,
// solvers in its goal-solver order, validation of the first answer, and
// decomposition into child frames when the plan, a solver or an
// all-no-context outcome calls for it.
func (r *run) runFrame(ctx context.Context, ft *FrameTrace, plan *plugin.Plan, intents []plugin.Intent, prompt string, depth int) frameResult {
	r.deepest = max(r.deepest, depth)
	ft.Depth = depth
	// A question of several parts ("pack a directory into a tar.gz file,
	// and later unpack it") is answered part by part, each part retrieved,
	// answered and cited on its own: one passage that answers the whole
	// rarely exists, and one that answers a part must not pass for the
	// whole.
	// When no part is answered, the question is still tried whole (its
	// parts were a guess from its wording, not the planner's decision).
	var split *frameResult
	if plan.Decompose {
		if res, ok := r.decompose(ctx, ft, plan, intents, nil, depth, plugin.FrameSubtaskDecomposition); ok {
			return res
		}
	} else if depth == 0 && len(intents) == 1 && len(splitIntents(intents)) >= 2 {
		res, ok := r.decompose(ctx, ft, plan, intents, nil, depth, plugin.FrameSubtaskDecomposition)
		if ok && res.status == StatusAnswered {
			return res
		}
		split = &frameResult{status: StatusFailure}
		if ok {
			*split = res
		}
	}
	splitNoContext := func() (frameResult, bool) {
		if split != nil {
			return *split, true // already tried
		}
		return r.splitNoContext(ctx, ft, plan, intents, depth)
	}
	best := frameResult{status: StatusFailure}
	noContext := false
	var merged []plugin.ScoredKU
	var guidance []plugin.ScoredKU
	kbOrder := r.stageOrder(plugin.LoopKB, plan.KBPluginOrder, ft)
	gsOrder := r.stageOrder(plugin.LoopGoalSolver, plan.GoalSolverOrder, ft)
	views := 0
	triedFocused := false
	for i, kbID := range kbOrder {
		evidence, guide, sufficient, ok := r.retrieve(ctx, ft, kbID, intents, prompt)
		if !ok {
			continue
		}
		merged = mergeEvidence(merged, evidence)
		guidance = mergeEvidence(guidance, guide)
		if !sufficient && i+1 < len(kbOrder) && len(evidence) == 0 {
			continue // nothing new to show a solver; try the next retriever first
		}
		if focused := r.focusedView(merged); focused != nil && !triedFocused {
			// A follow-up is answered from the passages of the
			// conversation's pages that hold its own words when they
			// answer it; from all the evidence only when they do not.
			triedFocused = true
			ft.Branches = append(ft.Branches, fmt.Sprintf("follow-up view from %s (%d KUs)", kbID, len(focused)))
			if res := r.solveView(ctx, ft, plan, intents, prompt, depth, focused, guidance, gsOrder); res.status == StatusAnswered {
				return res
			}
		}
		views++
		ft.Branches = append(ft.Branches, fmt.Sprintf("evidence view %d from %s (%d KUs)", views, kbID, len(merged)))
		res := r.solveView(ctx, ft, plan, intents, prompt, depth, merged, guidance, gsOrder)
		switch res.status {
		case StatusAnswered:
			return res
		case "rejected":
			// No one passage answers the whole task: its parts, each
			// retrieved and answered on its own, may.
			if split, ok := splitNoContext(); ok && split.status == StatusAnswered {
				return split
			}
			return res
		case StatusNoContext:
			noContext = true
			if res.better(best) || best.status == StatusFailure {
				best = res
			}
		}
		if ctx.Err() != nil {
			break
		}
	}
	if views == 0 && ctx.Err() == nil {
		// No retriever gave anything: solvers still get to say no-context.
		res := r.solveView(ctx, ft, plan, intents, prompt, depth, nil, nil, gsOrder)
		if res.status == StatusAnswered || res.status == "rejected" {
			return res
		}
		if res.status == StatusNoContext {
			noContext = true
			best = res
		}
	}
	if noContext && ctx.Err() == nil {
		// Only no-context came back: a smaller task may find its evidence.
		if res, ok := splitNoContext(); ok && res.better(best) {
			return res
		}
	}
	if best.status == StatusFailure {
		r.trace.fail(ft, CodeStageExhausted, "no goal solver produced an answer")
	}
	return best
}

// solveView runs the goal solvers on one evidence view.
func (r *run) solveView(ctx context.Context, ft *FrameTrace, plan *plugin.Plan, intents []plugin.Intent, prompt string, depth int,
	evidence, guidance []plugin.ScoredKU, gsOrder []string) frameResult {
	best := frameResult{status: StatusFailure}
	gsGuidance := append(scoped(guidance, "gs-plugin"), r.turnGuidance()["gs-plugin"]...)
	rejection := ""
	if n := len(r.reasons); n > 0 {
		rejection = r.reasons[n-1]
	}
	for _, id := range gsOrder {
		p, ok := r.m.cat.Registry.GS(id)
		if !ok {
			continue
		}
		res, o := callFor(r, ctx, ft, plugin.LoopGoalSolver, p, plugin.SolveStatuses, func(ctx context.Context, rc plugin.RunContext) (*plugin.SolveResult, error) {
			return p.Solve(ctx, rc, &plugin.SolveInput{
				Payload:     plugin.Payload{Prompt: prompt, Context: contextOf(evidence)},
				Intents:     intents,
				Evidence:    evidence,
				Guidance:    gsGuidance,
				FrameDepth:  depth,
				Rejection:   rejection,
				SearchedFor: r.trace.SearchedFor,
			})
		}, func(res *plugin.SolveResult) outcome {
			return outcome{status: res.Status, meta: res.Metadata, err: res.Error}
		})
		switch o.status {
		case plugin.StatusSuccess:
			ans := frameResult{status: StatusAnswered, answer: res.ResponseMarkdown, evidence: evidence, cited: res.EvidenceIDs, solver: id}
			verdict, reason := r.validate(ctx, ft, plan, intents, prompt, ans, guidance)
			if verdict == plugin.StatusRejected {
				ft.Failures = append(ft.Failures, fmt.Sprintf("%s rejected: %s", id, reason))
				ans.status, ans.reason = "rejected", reason
				return ans
			}
			return ans
		case plugin.StatusNeedsDecomposition:
			ft.Failures = append(ft.Failures, id+" needs decomposition")
			if res, ok := r.decompose(ctx, ft, plan, intents, evidence, depth, plugin.FrameSubtaskDecomposition); ok && res.better(best) {
				if res.status == StatusAnswered {
					return res
				}
				best = res
			}
		case plugin.StatusNoContext:
			if best.status == StatusFailure {
				best = frameResult{status: StatusNoContext, answer: res.ResponseMarkdown, evidence: evidence, solver: id}
			}
		}
	}
	return best
}

// validate runs the validators on an answer: the first that accepts or
// rejects decides; with none deciding the answer stands, noted as unvalidated.
func (r *run) validate(ctx context.Context, ft *FrameTrace, plan *plugin.Plan, intents []plugin.Intent, prompt string,
	ans frameResult, guidance []plugin.ScoredKU) (plugin.Status, string) {
	valGuidance := append(scoped(guidance, "val-plugin"), r.turnGuidance()["val-plugin"]...)
	for _, id := range r.stageOrder(plugin.LoopValidation, plan.ValidatorOrder, ft) {
		p, ok := r.m.cat.Registry.Val(id)
		if !ok {
			continue
		}
		res, o := callFor(r, ctx, ft, plugin.LoopValidation, p, plugin.ValidateStatuses, func(ctx context.Context, rc plugin.RunContext) (*plugin.ValidateResult, error) {
			return p.Validate(ctx, rc, &plugin.ValidateInput{
				Payload:  plugin.Payload{Prompt: prompt, Context: contextOf(ans.evidence)},
				Intents:  intents,
				Answer:   ans.answer,
				SolverID: ans.solver,
				Evidence: ans.evidence,
				Guidance: valGuidance,

				SearchedFor: r.trace.SearchedFor,
			})
		}, func(res *plugin.ValidateResult) outcome {
			return outcome{status: res.Status, meta: res.Metadata, err: res.Error}
		})
		switch o.status {
		case plugin.StatusAccepted:
			return plugin.StatusAccepted, res.Reason
		case plugin.StatusRejected:
			return plugin.StatusRejected, res.Reason
		}
	}
	r.trace.fail(ft, CodeUnvalidated, "no validator accepted or rejected the answer of %s; it is returned unvalidated", ans.solver)
	return plugin.StatusAccepted, ""
}

// retrieve asks one kb-plugin for evidence and guidance.
func (r *run) retrieve(ctx context.Context, ft *FrameTrace, id string, intents []plugin.Intent, prompt string) (evidence, guidance []plugin.ScoredKU, sufficient, ok bool) {
	p, found := r.m.cat.Registry.KB(id)
	if !found {
		return nil, nil, false, false
	}
	var res *plugin.RetrieveResult
	var o outcome
	rep := kbsearch.Repair{Plugin: id,
		Started: func(error) {
			r.m.log.Warn("kb-plugin index corrupt; rebuilding from stored KUs", "plugin", id, "err", o.err.Message)
			r.trace.note("%s reported its index corrupt; it was rebuilt from the stored KUs and asked again", id)
		},
		Ended: func(_ time.Duration, err error) {
			if err != nil {
				r.trace.fail(ft, plugin.CodeIndexCorrupt, "rebuilding the index of %s failed: %v", id, err)
			}
		},
	}
	if r.m.kb != nil {
		rep.Index = r.m.kb
	}
	// The outcome o, not Do's error, says how the call went: a failed
	// rebuild leaves the corrupt report in o.
	_ = rep.Do(ctx, func() error {
		o = r.retrieveOnce(ctx, ft, p, intents, prompt, &res)
		return kbsearch.Reported(o.status, o.err)
	})
	if o.status != plugin.StatusSuccess && o.status != plugin.StatusInsufficient {
		return nil, nil, false, false
	}
	if res.RetrievalTrace.SearchedFor != "" {
		// A spelling correction of the (possibly completed) question is
		// what the answer reports as searched for.
		r.trace.SearchedFor = res.RetrievalTrace.SearchedFor
	}
	for _, ri := range res.ResolvedIntents {
		evidence = mergeEvidence(evidence, ri.Evidence)
		guidance = mergeEvidence(guidance, ri.Guidance)
	}
	searched := prompt
	if res.RetrievalTrace.SearchedFor != "" {
		searched = res.RetrievalTrace.SearchedFor
	}
	evidence = r.preferEarlier(r.preferNamed(r.preferFamily(r.preferLibrary(searched, evidence))))
	evidence = r.onSibling(evidence)
	return evidence, guidance, res.Sufficient && o.status == plugin.StatusSuccess, true
}

// retrieveOnce makes one isolated Retrieve call.
func (r *run) retrieveOnce(ctx context.Context, ft *FrameTrace, p plugin.KBPlugin, intents []plugin.Intent, prompt string, out **plugin.RetrieveResult) outcome {
	res, o := callFor(r, ctx, ft, plugin.LoopKB, p, plugin.RetrieveStatuses, func(ctx context.Context, rc plugin.RunContext) (*plugin.RetrieveResult, error) {
		return p.Retrieve(ctx, rc, &plugin.RetrieveInput{
			Payload:   plugin.Payload{Prompt: prompt},
			Intents:   intents,
			TurnUnits: r.turnKUs,
			Purpose:   plugin.PurposeTaskEvidence,
			SessionID: r.session.ID,
			KUs:       storeKUReader{r.m.kb},
		})
	}, func(res *plugin.RetrieveResult) outcome {
		suff := res.Sufficient
		return outcome{status: res.Status, sufficient: &suff, meta: res.Metadata, err: res.Error}
	})
	*out = res
	return o
}

// decompose runs one child frame per sub-task and joins their answers.
// It reports false when the task cannot be split or the depth is spent.
func (r *run) decompose(ctx context.Context, ft *FrameTrace, plan *plugin.Plan, intents []plugin.Intent, evidence []plugin.ScoredKU, depth int, purpose string) (frameResult, bool) {
	if depth+1 > r.maxDepth {
		r.trace.fail(ft, CodeFrameDepthExceeded, "decomposition needs depth %d; the limit is %d; the best result so far is kept", depth+1, r.maxDepth)
		return frameResult{}, false
	}
	subs := narrowIntents(intents, evidence)
	if len(subs) == 0 {
		r.trace.fail(ft, CodeDecompositionFailed, "the task has no parts, criteria or evidence entities to narrow it to a sub-question")
		return frameResult{}, false
	}
	if r.purpose == "" {
		r.purpose = purpose
	}
	child := *plan
	child.Decompose = false
	var parts []string
	evidence = nil
	var cited []string
	answered, noContext := 0, 0
	var rejections []string
	// What the rejected parts rested on and cited: the no-context answer
	// points at those sources first.
	var rejected []plugin.ScoredKU
	var rejectedCited []string
	// unanswered are the parts with no accepted answer, by heading.
	var unanswered []string
	asParts := len(splitIntents(intents)) >= 2
	prevSource, prevTitle := "", "" // the source the part before was answered from, its first cited passage's title
	var prevCited []string
	// searchedSubs are the parts as searched: a part that borrowed words
	// lends them on ("remove it" after "stop it (a docker container)").
	searchedSubs := slices.Clone(subs)
	results := make([]frameResult, len(subs))
	headings := make([]string, len(subs)) // a part's own words; "" for a part not run
	for i, sub := range subs {
		if ctx.Err() != nil {
			break
		}
		heading := sub.Target
		restore := func() {}
		if asParts {
			sub = r.withPartContext(searchedSubs, i, prevSource, prevTitle)
			searchedSubs[i] = sub
			prevHowTo := ""
			if i > 0 && subs[i-1].Act == "implement" {
				prevHowTo = "How do I " + searchedSubs[i-1].Target
			}
			restore = r.partAsFollowUp(heading, sub.Target, prevSource, prevCited, prevHowTo)
			prevSource, prevTitle, prevCited = "", "", nil
		}
		res, searched := r.subFrame(ctx, ft, &child, sub, "", depth, purpose)
		if searched != "" {
			r.trace.note("part %d of the question searched for %q", i+1, searched)
		}
		restore()
		results[i], headings[i] = res, heading
		if res.status == StatusAnswered && len(res.cited) > 0 {
			if k, err := r.kuByID(res.cited[0], res.evidence); err == nil && k != nil {
				prevSource, prevTitle = k.SourceID, k.Title
			}
			prevCited = res.cited
		}
	}
	if asParts && ctx.Err() == nil {
		r.retryFromLaterParts(ctx, ft, &child, searchedSubs, headings, results, depth, purpose)
	}
	for i, res := range results {
		heading := headings[i]
		if heading == "" {
			continue // not run: the request ran out of time
		}
		switch res.status {
		case StatusAnswered:
			answered++
			unanswered = append(unanswered, res.unanswered...)
			parts = append(parts, "### "+heading+"\n\n"+strings.TrimSpace(res.answer))
			evidence = mergeEvidence(evidence, res.evidence)
			cited = append(cited, res.cited...)
		case StatusNoContext:
			noContext++
			unanswered = append(unanswered, heading)
			parts = append(parts, "### "+heading+"\n\n"+noContextAnswer(res.answer))
		case "rejected":
			// The part's candidate is not shown, cited or counted among
			// the answer's evidence: validation found it short of the
			// part. What it rested on is where a reader may look.
			rejections = append(rejections, heading+": "+res.reason)
			rejected = mergeEvidence(rejected, res.evidence)
			rejectedCited = append(rejectedCited, res.cited...)
			unanswered = append(unanswered, heading)
			r.trace.fail(ft, CodeValidationRejected, "part %d (%s): %s; the part is reported unanswered", i+1, heading, res.reason)
			body := "Not answered: the answer found for this part was rejected by validation"
			if res.reason != "" {
				body += " (" + res.reason + ")"
			}
			body += "."
			if look := lookAt(res.evidence, res.cited); look != "" {
				body += "\n\n" + look
			}
			parts = append(parts, "### "+heading+"\n\n"+body)
		default:
			unanswered = append(unanswered, heading)
			parts = append(parts, "### "+heading+"\n\nNot answered: "+res.status+".")
		}
	}
	switch {
	case answered > 0:
		answer := strings.Join(parts, "\n\n")
		if len(unanswered) > 0 {
			// A reader sees before any part's answer that the question is
			// answered only in part, and which parts are not.
			answer = fmt.Sprintf("Only part of this question is answered; no accepted answer was found for: %s.\n\n",
				strings.Join(unanswered, "; ")) + answer
		}
		return frameResult{status: StatusAnswered, answer: answer, evidence: evidence, cited: cited, solver: "decomposition", unanswered: unanswered}, true
	case noContext > 0:
		return frameResult{status: StatusNoContext, answer: strings.Join(parts, "\n\n")}, true
	case len(rejections) > 0:
		// Every sub-task was answered and every answer rejected: the frame
		// is rejected, so the next planner gets its turn.
		return frameResult{status: "rejected", reason: strings.Join(rejections, "; "), evidence: rejected, cited: rejectedCited}, true
	}
	r.trace.fail(ft, CodeDecompositionFailed, "no sub-task of %d produced an answer", len(subs))
	return frameResult{status: StatusFailure}, true
}

// subFrame runs one part of a task in a child frame of ft, recorded as a
// branch (with note, when there is one), and returns its result and what
// its retrieval searched for when that differs from its words. A part is
// searched, solved and validated as its own words say (or as its
// retrieval corrects them), never as the whole question or a sibling's
// correction: the request's SearchedFor is set aside while it runs.
func (r *run) subFrame(ctx context.Context, ft *FrameTrace, plan *plugin.Plan, sub plugin.Intent, note string, depth int, purpose string) (frameResult, string) {
	cf := &FrameTrace{ID: newID("f-"), Depth: depth + 1, Purpose: purpose, Planner: r.planner, Intents: intentTargets([]plugin.Intent{sub})}
	ft.Children = append(ft.Children, cf)
	branch := "sub-task frame " + cf.ID + ": " + sub.Target
	if note != "" {
		branch += " (" + note + ")"
	}
	ft.Branches = append(ft.Branches, branch)
	searchedFor := r.trace.SearchedFor
	r.trace.SearchedFor = ""
	res := r.runFrame(ctx, cf, plan, []plugin.Intent{sub}, sub.Target, depth+1)
	searched := r.trace.SearchedFor
	r.trace.SearchedFor = searchedFor
	cf.Status = res.status
	return res, searched
}

// retryFromLaterParts asks again each part of a multi-part task that got
// no accepted answer when a later part was answered: the parts of one
// question share what they are about ("see which remotes my git repo has,
// and how do I change a remote's URL" asks both of git-remote), so the
// part is run again as a follow-up of the source the later part was
// answered from, preferring that source's passages that hold the part's
// own words, and only from that source (onSibling). A question that is itself a follow-up keeps its own
// conversation and is not asked again. results and subs are updated in
// place for each part now answered.
func (r *run) retryFromLaterParts(ctx context.Context, ft *FrameTrace, plan *plugin.Plan, subs []plugin.Intent, headings []string,
	results []frameResult, depth int, purpose string) {
	if r.carried != nil {
		return
	}
	for i := range results {
		if headings[i] == "" || results[i].status == StatusAnswered || ctx.Err() != nil {
			continue
		}
		source, cited := "", []string(nil)
		for j := i + 1; j < len(results) && source == ""; j++ {
			if results[j].status != StatusAnswered || len(results[j].cited) == 0 {
				continue
			}
			if k, err := r.kuByID(results[j].cited[0], results[j].evidence); err == nil && k != nil {
				source, cited = k.SourceID, results[j].cited
			}
		}
		if source == "" {
			continue
		}
		savedOwn := r.own
		r.carried = &TurnContext{TurnID: "part", Query: subs[i].Target, Sources: []string{source}, Anchors: []string{source}, AnchorKUs: cited}
		r.own = contentTerms(headings[i])
		r.sibling, r.siblingKUs = source, cited
		res, _ := r.subFrame(ctx, ft, plan, subs[i], "again, on "+source+" of a later part", depth, purpose)
		r.carried, r.own = nil, savedOwn
		r.sibling, r.siblingKUs = "", nil
		if res.status == StatusAnswered {
			r.trace.note("part %d of the question answered on %s, the source a later part was answered from", i+1, source)
			results[i] = res
		}
	}
}

// onSibling narrows a part's evidence, while it is asked again on the
// source a later part was answered from (r.sibling), to that source's
// units that hold the part's own words: retrieved ones in their order,
// else the units the later part cited. The evidence is kept as it is
// when that source holds none of them.
func (r *run) onSibling(ev []plugin.ScoredKU) []plugin.ScoredKU {
	if r.sibling == "" || len(r.own) == 0 {
		return ev
	}
	var out []plugin.ScoredKU
	for _, e := range ev {
		if e.KU != nil && e.KU.SourceID == r.sibling && r.cover(e.KU) > 0 {
			out = append(out, e)
		}
	}
	if len(out) == 0 && r.m.kb != nil {
		for _, id := range r.siblingKUs {
			if k, err := r.m.kb.Store().KU(id); err == nil && k != nil && k.SourceID == r.sibling && r.cover(k) > 0 {
				out = append(out, plugin.ScoredKU{KU: k, Level: k.Level, Strategy: "session"})
			}
		}
	}
	if len(out) == 0 {
		return ev
	}
	return out
}

// splitNoContext runs one child frame per part of a task that only got
// no-context answers; a task without parts is left as it is.
func (r *run) splitNoContext(ctx context.Context, ft *FrameTrace, plan *plugin.Plan, intents []plugin.Intent, depth int) (frameResult, bool) {
	if len(splitIntents(intents)) < 2 {
		return frameResult{}, false
	}
	return r.decompose(ctx, ft, plan, intents, nil, depth, plugin.FrameSubtaskDecomposition)
}

// narrowIntents returns the sub-questions a task is decomposed into: its
// parts (several intents, or a single target's parts); else, for a single
// intent, the intent narrowed to each of its criteria, else to each of
// the main entities of the evidence retrieved for it (at most 3). Every
// sub-question is narrower than the task; nil when none can be made.
func narrowIntents(intents []plugin.Intent, evidence []plugin.ScoredKU) []plugin.Intent {
	if subs := splitIntents(intents); len(subs) >= 2 {
		return subs
	}
	if len(intents) != 1 {
		return nil
	}
	in := intents[0]
	sub := func(i int, target string) plugin.Intent {
		c := in
		c.ID = fmt.Sprintf("%s.%d", in.ID, i+1)
		c.Target = target
		c.ParentID = in.ID
		return c
	}
	var out []plugin.Intent
	for _, c := range strings.FieldsFunc(in.Criterion, func(r rune) bool { return r == ';' || r == ',' }) {
		if c = strings.TrimSpace(c); c != "" && len(out) < 6 {
			s := sub(len(out), in.Target+" (criterion: "+c+")")
			s.Criterion = c
			out = append(out, s)
		}
	}
	if len(out) > 0 {
		return out
	}
	seen := map[string]bool{}
	for _, e := range evidence {
		if e.KU == nil || len(out) >= 3 {
			continue
		}
		ent := strings.TrimSpace(e.KU.SymbolicSubject)
		if ent == "" {
			ent = strings.TrimSpace(e.KU.Topic)
		}
		if ent == "" {
			ent = strings.TrimSpace(e.KU.Title)
		}
		key := strings.ToLower(ent)
		if ent == "" || seen[key] || strings.EqualFold(ent, in.Target) {
			continue
		}
		seen[key] = true
		out = append(out, sub(len(out), in.Target+" (about "+ent+")"))
	}
	return out
}

// splitIntents returns the sub-tasks of a task: its intents when there are
// several, else the parts of a single intent's target joined by "and
// also", ";" or "?", or a clause that goes on with what the one before it
// named (continuedClauses) — at most 6.
func splitIntents(intents []plugin.Intent) []plugin.Intent {
	if len(intents) > 1 {
		if len(intents) > 6 {
			return intents[:6]
		}
		return intents
	}
	if len(intents) == 0 {
		return nil
	}
	in := intents[0]
	var parts []string
	for _, p := range strings.FieldsFunc(in.Target, func(r rune) bool { return r == ';' || r == '?' }) {
		for _, q := range strings.Split(p, " and also ") {
			for _, c := range continuedClauses(q) {
				if c = strings.TrimSpace(c); len(c) > 3 {
					parts = append(parts, c)
				}
			}
		}
	}
	if len(parts) < 2 {
		return nil
	}
	if len(parts) > 6 {
		parts = parts[:6]
	}
	out := make([]plugin.Intent, len(parts))
	for i, p := range parts {
		out[i] = in
		out[i].ID = fmt.Sprintf("%s.%d", in.ID, i+1)
		out[i].Target = p
		out[i].ParentID = in.ID
	}
	return out
}

// mergeEvidence appends the KUs of b not already in a, keeping a's order.
func mergeEvidence(a, b []plugin.ScoredKU) []plugin.ScoredKU {
	if len(b) == 0 {
		return a
	}
	seen := make(map[string]bool, len(a))
	for _, s := range a {
		if s.KU != nil {
			seen[s.KU.ID] = true
		}
	}
	for _, s := range b {
		if s.KU != nil && !seen[s.KU.ID] {
			seen[s.KU.ID] = true
			a = append(a, s)
		}
	}
	return a
}

// scoped keeps the guidance KUs whose phase scopes include phase.
func scoped(in []plugin.ScoredKU, phase string) []plugin.ScoredKU {
	var out []plugin.ScoredKU
	for _, s := range in {
		if s.KU != nil && slices.Contains(s.KU.PhaseScopes, phase) {
			out = append(out, s)
		}
	}
	return out
}

func contextOf(ev []plugin.ScoredKU) []plugin.ContextItem {
	out := make([]plugin.ContextItem, 0, len(ev))
	for _, s := range ev {
		if s.KU != nil {
			out = append(out, plugin.ContextItemOf(s.KU))
		}
	}
	return out
}

func errOr(err error, msg string) error {
	if err != nil {
		return err
	}
	return errors.New(msg)
}
