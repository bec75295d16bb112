package wrapper

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugins/sdk"
)

// New returns the wrapper as a typed plugin of its manifest type. Each
// family method turns its input into a payload, runs the wrapper once and
// maps the `## Plugin Result` block onto the family's result. A status the
// family does not allow is reported as wrapper_bad_output. Failures of the
// run itself are returned as *sdk.PluginError (stage run).
func New(m *Manifest, l Limits) sdk.Plugin {
	b := base{r: NewRunner(m, l)}
	switch m.Descriptor.Type {
	case sdk.TypeSD:
		return &sdWrapper{b}
	case sdk.TypePlan:
		return &planWrapper{b}
	case sdk.TypeKB:
		return &kbWrapper{b}
	case sdk.TypeVal:
		return &valWrapper{b}
	default:
		return &gsWrapper{b}
	}
}

type base struct{ r *Runner }

func (b base) Descriptor() sdk.Descriptor { return b.r.m.Descriptor.Clone() }

// Runner exposes the wrapper's runner (for Helpers and tests).
func (b base) Runner() *Runner { return b.r }

// call runs the wrapper and checks the status against the family's set.
func (b base) call(ctx context.Context, p sdk.Payload, allowed []sdk.Status) (*sdk.WrapperResult, error) {
	res, err := b.r.Call(ctx, p)
	if err != nil {
		return nil, err
	}
	if !res.Status.In(allowed) {
		return nil, b.r.fail(sdk.CodeWrapperBadOutput, "Status %q is not valid for a %s (expected one of %s)",
			res.Status, b.r.m.Descriptor.Type, statusList(allowed))
	}
	return res, nil
}

// meta reports what the parser ignored in res: each warning is logged and
// listed under Extra["warnings"], where the loop copies it into the trace.
func (b base) meta(rc sdk.RunContext, res *sdk.WrapperResult) sdk.Metadata {
	if len(res.Warnings) == 0 {
		return sdk.Metadata{}
	}
	for _, w := range res.Warnings {
		rc.Log().Warn("wrapper result: "+w, "plugin", b.r.m.Descriptor.ID)
	}
	return sdk.Metadata{Extra: map[string]any{"warnings": slices.Clone(res.Warnings)}}
}

func statusList(s []sdk.Status) string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = string(v)
	}
	return strings.Join(out, ", ")
}

// resultError is the error of a wrapper's error or unsupported
// status: the Result text as message.
func resultError(id string, res *sdk.WrapperResult) *sdk.Error {
	if res.Status != sdk.StatusError && res.Status != sdk.StatusUnsupported {
		return nil
	}
	msg := res.Result
	if msg == "" {
		msg = "the wrapper reported " + string(res.Status)
	}
	return &sdk.Error{Code: "wrapper_" + strings.ReplaceAll(string(res.Status), "-", "_"), Message: id + ": " + msg}
}

// ---- gs-plugin

type gsWrapper struct{ base }

func (w *gsWrapper) Solve(ctx context.Context, rc sdk.RunContext, in *sdk.SolveInput) (*sdk.SolveResult, error) {
	res, err := w.call(ctx, in.Payload, sdk.SolveStatuses)
	if err != nil {
		return nil, err
	}
	out := &sdk.SolveResult{Status: res.Status, Error: resultError(w.r.m.Descriptor.ID, res), Metadata: w.meta(rc, res)}
	if out.Error == nil {
		out.ResponseMarkdown = res.Result
		doc, _ := json.Marshal(res)
		out.ResponseDocument = doc
	}
	return out, nil
}

// ---- val-plugin

type valWrapper struct{ base }

func (w *valWrapper) Validate(ctx context.Context, rc sdk.RunContext, in *sdk.ValidateInput) (*sdk.ValidateResult, error) {
	p := sdk.Payload{Prompt: in.Payload.Prompt}
	p.Context = append(p.Context, sdk.ContextItem{Title: "Answer to validate", SourceLink: "goal-solver:" + in.SolverID, Text: in.Answer})
	p.Context = append(p.Context, in.Payload.Context...)
	res, err := w.call(ctx, p, sdk.ValidateStatuses)
	if err != nil {
		return nil, err
	}
	out := &sdk.ValidateResult{Status: res.Status, Reason: res.Result, Error: resultError(w.r.m.Descriptor.ID, res), Metadata: w.meta(rc, res)}
	if res.Status == sdk.StatusAccepted || res.Status == sdk.StatusRejected {
		out.Verdict = res.Status
	}
	return out, nil
}

// ---- sd-plugin

type sdWrapper struct{ base }

func (w *sdWrapper) DetectSeeds(ctx context.Context, rc sdk.RunContext, in *sdk.SeedInput) (*sdk.SeedResult, error) {
	res, err := w.call(ctx, in.Payload, sdk.SeedStatuses)
	if err != nil {
		return nil, err
	}
	out := &sdk.SeedResult{Status: res.Status, Error: resultError(w.r.m.Descriptor.ID, res), Metadata: w.meta(rc, res)}
	if out.Error == nil {
		out.IntentCNL = res.Result
		out.CurrentTurnContextCNL = strings.Join(res.Evidence, "\n")
	}
	return out, nil
}

func (w *sdWrapper) NormalizePersistentContext(ctx context.Context, rc sdk.RunContext, in *sdk.NormalizeInput) (*sdk.NormalizeResult, error) {
	p := sdk.Payload{Prompt: in.Text, Context: []sdk.ContextItem{}}
	res, err := w.call(ctx, p, sdk.NormalizeStatuses)
	if err != nil {
		return nil, err
	}
	out := &sdk.NormalizeResult{Status: res.Status, Error: resultError(w.r.m.Descriptor.ID, res)}
	if out.Error == nil {
		out.ContextCNL = res.Result
	}
	return out, nil
}

// ---- kb-plugin

type kbWrapper struct{ base }

// Retrieve turns each Evidence line into an atomic KU of source
// wrapper::<id>.
func (w *kbWrapper) Retrieve(ctx context.Context, rc sdk.RunContext, in *sdk.RetrieveInput) (*sdk.RetrieveResult, error) {
	res, err := w.call(ctx, in.Payload, sdk.RetrieveStatuses)
	if err != nil {
		return nil, err
	}
	id := w.r.m.Descriptor.ID
	purpose := in.Purpose
	if purpose == "" {
		purpose = sdk.PurposeTaskEvidence
	}
	out := &sdk.RetrieveResult{Status: res.Status, ResolvedIntents: []sdk.ResolvedIntent{},
		RetrievalTrace: sdk.RetrievalTrace{Purpose: purpose, KULevelsUsed: []string{}},
		Error:          resultError(id, res), Metadata: w.meta(rc, res)}
	if out.Error != nil {
		return out, nil
	}
	score := 0.5
	if res.Confidence != nil {
		score = *res.Confidence
	}
	var ev []sdk.ScoredKU
	for i, e := range res.Evidence {
		src := "wrapper::" + id
		ku := &kus.KU{ID: fmt.Sprintf("%s::%03d", src, i), KUType: kus.TypeAtomic, Level: kus.LevelLeaf,
			Title: e, Role: "Description", Topic: id, Claim: e, SourceID: src, SourceName: id,
			ChunkID: src + "::chunk-000", UnitIndex: i, PhaseScopes: []string{"kb-plugin"}}
		ev = append(ev, sdk.ScoredKU{KU: ku, Score: score, Level: kus.LevelLeaf, Strategy: "wrapper"})
	}
	intent := ""
	if len(in.Intents) > 0 {
		intent = in.Intents[0].ID
	}
	out.Sufficient = res.Status == sdk.StatusSuccess && len(ev) > 0
	out.ResolvedIntents = []sdk.ResolvedIntent{{IntentID: intent, Intent: in.Payload.Prompt, Evidence: ev,
		Guidance: []sdk.ScoredKU{}, Sufficient: out.Sufficient}}
	if len(ev) > 0 {
		out.RetrievalTrace.KULevelsUsed = []string{kus.LevelLeaf}
	}
	out.RetrievalTrace.TotalKUsConsidered = len(ev)
	out.RetrievalTrace.SelectedKUCount = len(ev)
	return out, nil
}

// OnSourceText: wrappers keep no index; the ingest hook is not offered to
// them.
func (w *kbWrapper) OnSourceText(ctx context.Context, rc sdk.RunContext, st *sdk.SourceText) (*sdk.SourceTextResult, error) {
	return &sdk.SourceTextResult{Status: sdk.StatusSkipped, Artifacts: []map[string]any{}}, nil
}

func (w *kbWrapper) OnSessionEvent(ctx context.Context, rc sdk.RunContext, ev *sdk.SessionEvent) (*sdk.SessionEventResult, error) {
	return &sdk.SessionEventResult{Status: sdk.StatusSkipped}, nil
}

// ---- mrp-plan-plugin

type planWrapper struct{ base }

// BuildPlan sends the candidates as context and expects the plan as a JSON
// object in Result.
func (w *planWrapper) BuildPlan(ctx context.Context, rc sdk.RunContext, in *sdk.PlanInput) (*sdk.Plan, error) {
	p := sdk.Payload{Prompt: in.Payload.Prompt, Context: []sdk.ContextItem{}}
	for _, t := range sdk.PluginTypes {
		for _, d := range in.Candidates[t] {
			p.Context = append(p.Context, sdk.ContextItem{Title: d.ID + " (" + string(t) + ")", SourceLink: "plugin::" + d.ID, Text: d.Description})
		}
	}
	res, err := w.call(ctx, p, sdk.PlanStatuses)
	if err != nil {
		return nil, err
	}
	id := w.r.m.Descriptor.ID
	if e := resultError(id, res); e != nil {
		return &sdk.Plan{Status: res.Status, PlannerPluginID: id, KBPluginOrder: []string{}, GoalSolverOrder: []string{},
			Notes: []string{}, Error: e}, nil
	}
	var plan sdk.Plan
	if err := json.Unmarshal([]byte(res.Result), &plan); err != nil {
		return nil, w.r.fail(sdk.CodeWrapperBadOutput, "Result is not a JSON plan: %v", err)
	}
	plan.Status = sdk.StatusSuccess
	plan.PlannerPluginID = id
	return &plan, nil
}

func (w *planWrapper) RecordOutcome(ctx context.Context, rc sdk.RunContext, o *sdk.Outcome) error {
	return nil // wrappers are stateless: one process per call
}
