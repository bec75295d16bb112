package wrapper

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
)

// New returns the wrapper as a typed plugin of its manifest type. Each
// family method turns its input into a payload, runs the wrapper once and
// maps the `## Plugin Result` block onto the family's result. A status the
// family does not allow is reported as wrapper_bad_output. Failures of the
// run itself are returned as *plugin.PluginError (stage run).
func New(m *Manifest, l Limits) plugin.Plugin {
	b := base{r: NewRunner(m, l)}
	switch m.Descriptor.Type {
	case plugin.TypeSD:
		return &sdWrapper{b}
	case plugin.TypePlan:
		return &planWrapper{b}
	case plugin.TypeKB:
		return &kbWrapper{b}
	case plugin.TypeVal:
		return &valWrapper{b}
	default:
		return &gsWrapper{b}
	}
}

type base struct{ r *Runner }

func (b base) Descriptor() plugin.Descriptor { return b.r.m.Descriptor.Clone() }

// Runner exposes the wrapper's runner (for Helpers and tests).
func (b base) Runner() *Runner { return b.r }

// call runs the wrapper and checks the status against the family's set.
func (b base) call(ctx context.Context, p plugin.Payload, allowed []plugin.Status) (*plugin.WrapperResult, error) {
	res, err := b.r.Call(ctx, p)
	if err != nil {
		return nil, err
	}
	if !res.Status.In(allowed) {
		return nil, b.r.fail(plugin.CodeWrapperBadOutput, "Status %q is not valid for a %s (expected one of %s)",
			res.Status, b.r.m.Descriptor.Type, statusList(allowed))
	}
	return res, nil
}

// meta reports what the parser ignored in res: each warning is logged and
// listed under Extra["warnings"], where the loop copies it into the trace.
func (b base) meta(rc plugin.RunContext, res *plugin.WrapperResult) plugin.Metadata {
	if len(res.Warnings) == 0 {
		return plugin.Metadata{}
	}
	for _, w := range res.Warnings {
		rc.Log().Warn("wrapper result: "+w, "plugin", b.r.m.Descriptor.ID)
	}
	return plugin.Metadata{Extra: map[string]any{"warnings": slices.Clone(res.Warnings)}}
}

func statusList(s []plugin.Status) string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = string(v)
	}
	return strings.Join(out, ", ")
}

// resultError is the error of a wrapper's error or unsupported
// status: the Result text as message.
func resultError(id string, res *plugin.WrapperResult) *plugin.Error {
	if res.Status != plugin.StatusError && res.Status != plugin.StatusUnsupported {
		return nil
	}
	msg := res.Result
	if msg == "" {
		msg = "the wrapper reported " + string(res.Status)
	}
	return &plugin.Error{Code: "wrapper_" + strings.ReplaceAll(string(res.Status), "-", "_"), Message: id + ": " + msg}
}

// ---- gs-plugin

type gsWrapper struct{ base }

func (w *gsWrapper) Solve(ctx context.Context, rc plugin.RunContext, in *plugin.SolveInput) (*plugin.SolveResult, error) {
	res, err := w.call(ctx, in.Payload, plugin.SolveStatuses)
	if err != nil {
		return nil, err
	}
	out := &plugin.SolveResult{Status: res.Status, Error: resultError(w.r.m.Descriptor.ID, res), Metadata: w.meta(rc, res)}
	if out.Error == nil {
		out.ResponseMarkdown = res.Result
		doc, _ := json.Marshal(res)
		out.ResponseDocument = doc
	}
	return out, nil
}

// ---- val-plugin

type valWrapper struct{ base }

func (w *valWrapper) Validate(ctx context.Context, rc plugin.RunContext, in *plugin.ValidateInput) (*plugin.ValidateResult, error) {
	p := plugin.Payload{Prompt: in.Payload.Prompt}
	p.Context = append(p.Context, plugin.ContextItem{Title: "Answer to validate", SourceLink: "goal-solver:" + in.SolverID, Text: in.Answer})
	p.Context = append(p.Context, in.Payload.Context...)
	res, err := w.call(ctx, p, plugin.ValidateStatuses)
	if err != nil {
		return nil, err
	}
	out := &plugin.ValidateResult{Status: res.Status, Reason: res.Result, Error: resultError(w.r.m.Descriptor.ID, res), Metadata: w.meta(rc, res)}
	if res.Status == plugin.StatusAccepted || res.Status == plugin.StatusRejected {
		out.Verdict = res.Status
	}
	return out, nil
}

// ---- sd-plugin

type sdWrapper struct{ base }

func (w *sdWrapper) DetectSeeds(ctx context.Context, rc plugin.RunContext, in *plugin.SeedInput) (*plugin.SeedResult, error) {
	res, err := w.call(ctx, in.Payload, plugin.SeedStatuses)
	if err != nil {
		return nil, err
	}
	out := &plugin.SeedResult{Status: res.Status, Error: resultError(w.r.m.Descriptor.ID, res), Metadata: w.meta(rc, res)}
	if out.Error == nil {
		out.IntentCNL = res.Result
		out.CurrentTurnContextCNL = strings.Join(res.Evidence, "\n")
	}
	return out, nil
}

func (w *sdWrapper) NormalizePersistentContext(ctx context.Context, rc plugin.RunContext, in *plugin.NormalizeInput) (*plugin.NormalizeResult, error) {
	p := plugin.Payload{Prompt: in.Text, Context: []plugin.ContextItem{}}
	res, err := w.call(ctx, p, plugin.NormalizeStatuses)
	if err != nil {
		return nil, err
	}
	out := &plugin.NormalizeResult{Status: res.Status, Error: resultError(w.r.m.Descriptor.ID, res)}
	if out.Error == nil {
		out.ContextCNL = res.Result
	}
	return out, nil
}

// ---- kb-plugin

type kbWrapper struct{ base }

// Retrieve turns each Evidence line into an atomic KU of source
// wrapper::<id>.
func (w *kbWrapper) Retrieve(ctx context.Context, rc plugin.RunContext, in *plugin.RetrieveInput) (*plugin.RetrieveResult, error) {
	res, err := w.call(ctx, in.Payload, plugin.RetrieveStatuses)
	if err != nil {
		return nil, err
	}
	id := w.r.m.Descriptor.ID
	purpose := in.Purpose
	if purpose == "" {
		purpose = plugin.PurposeTaskEvidence
	}
	out := &plugin.RetrieveResult{Status: res.Status, ResolvedIntents: []plugin.ResolvedIntent{},
		RetrievalTrace: plugin.RetrievalTrace{Purpose: purpose, KULevelsUsed: []string{}},
		Error:          resultError(id, res), Metadata: w.meta(rc, res)}
	if out.Error != nil {
		return out, nil
	}
	score := 0.5
	if res.Confidence != nil {
		score = *res.Confidence
	}
	var ev []plugin.ScoredKU
	for i, e := range res.Evidence {
		src := "wrapper::" + id
		ku := &kus.KU{ID: fmt.Sprintf("%s::%03d", src, i), KUType: kus.TypeAtomic, Level: kus.LevelLeaf,
			Title: e, Role: "Description", Topic: id, Claim: e, SourceID: src, SourceName: id,
			ChunkID: src + "::chunk-000", UnitIndex: i, PhaseScopes: []string{"kb-plugin"}}
		ev = append(ev, plugin.ScoredKU{KU: ku, Score: score, Level: kus.LevelLeaf, Strategy: "wrapper"})
	}
	intent := ""
	if len(in.Intents) > 0 {
		intent = in.Intents[0].ID
	}
	out.Sufficient = res.Status == plugin.StatusSuccess && len(ev) > 0
	out.ResolvedIntents = []plugin.ResolvedIntent{{IntentID: intent, Intent: in.Payload.Prompt, Evidence: ev,
		Guidance: []plugin.ScoredKU{}, Sufficient: out.Sufficient}}
	if len(ev) > 0 {
		out.RetrievalTrace.KULevelsUsed = []string{kus.LevelLeaf}
	}
	out.RetrievalTrace.TotalKUsConsidered = len(ev)
	out.RetrievalTrace.SelectedKUCount = len(ev)
	return out, nil
}

// OnSourceText: wrappers keep no index; the ingest hook is not offered to
// them.
func (w *kbWrapper) OnSourceText(ctx context.Context, rc plugin.RunContext, st *plugin.SourceText) (*plugin.SourceTextResult, error) {
	return &plugin.SourceTextResult{Status: plugin.StatusSkipped, Artifacts: []map[string]any{}}, nil
}

func (w *kbWrapper) OnSessionEvent(ctx context.Context, rc plugin.RunContext, ev *plugin.SessionEvent) (*plugin.SessionEventResult, error) {
	return &plugin.SessionEventResult{Status: plugin.StatusSkipped}, nil
}

// ---- mrp-plan-plugin

type planWrapper struct{ base }

// BuildPlan sends the candidates as context and expects the plan as a JSON
// object in Result.
func (w *planWrapper) BuildPlan(ctx context.Context, rc plugin.RunContext, in *plugin.PlanInput) (*plugin.Plan, error) {
	p := plugin.Payload{Prompt: in.Payload.Prompt, Context: []plugin.ContextItem{}}
	for _, t := range plugin.PluginTypes {
		for _, d := range in.Candidates[t] {
			p.Context = append(p.Context, plugin.ContextItem{Title: d.ID + " (" + string(t) + ")", SourceLink: "plugin::" + d.ID, Text: d.Description})
		}
	}
	res, err := w.call(ctx, p, plugin.PlanStatuses)
	if err != nil {
		return nil, err
	}
	id := w.r.m.Descriptor.ID
	if e := resultError(id, res); e != nil {
		return &plugin.Plan{Status: res.Status, PlannerPluginID: id, KBPluginOrder: []string{}, GoalSolverOrder: []string{},
			Notes: []string{}, Error: e}, nil
	}
	var plan plugin.Plan
	if err := json.Unmarshal([]byte(res.Result), &plan); err != nil {
		return nil, w.r.fail(plugin.CodeWrapperBadOutput, "Result is not a JSON plan: %v", err)
	}
	plan.Status = plugin.StatusSuccess
	plan.PlannerPluginID = id
	return &plan, nil
}

func (w *planWrapper) RecordOutcome(ctx context.Context, rc plugin.RunContext, o *plugin.Outcome) error {
	return nil // wrappers are stateless: one process per call
}
