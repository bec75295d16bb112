package vm

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/config"
	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
)

// intentSD admits a fixed intent document, whatever the question.
type intentSD struct {
	plugin.Base
	plugin.UnimplementedSD
	intent string
}

func (p *intentSD) DetectSeeds(ctx context.Context, rc plugin.RunContext, in *plugin.SeedInput) (*plugin.SeedResult, error) {
	return &plugin.SeedResult{Status: plugin.StatusSuccess, IntentCNL: p.intent}, nil
}

// promptGS records the prompt of every call and answers at depth > 0.
type promptGS struct {
	plugin.Base
	plugin.UnimplementedGS
	mu      sync.Mutex
	prompts []string
	always  bool // needs decomposition at every depth
}

func (p *promptGS) Solve(ctx context.Context, rc plugin.RunContext, in *plugin.SolveInput) (*plugin.SolveResult, error) {
	p.mu.Lock()
	p.prompts = append(p.prompts, fmt.Sprintf("%d:%s", in.FrameDepth, in.Payload.Prompt))
	p.mu.Unlock()
	if in.FrameDepth == 0 || p.always {
		return &plugin.SolveResult{Status: plugin.StatusNeedsDecomposition}, nil
	}
	return &plugin.SolveResult{Status: plugin.StatusSuccess, ResponseMarkdown: "sub-answer: " + in.Payload.Prompt}, nil
}

func topicKU(id, topic, text string) *kus.KU {
	k := leaf(id, text)
	k.Topic = topic
	return k
}

// TestDecompositionOfASingleTask: one task with one part still gets a
// child frame with a narrower sub-question, from the plan (its criteria)
// or from a solver's needs-decomposition (the evidence's entities), up to
// maxFrameDepth; FRAME_DEPTH_EXCEEDED and DECOMPOSITION_FAILED are
// reported when the limit is reached or nothing narrower exists.
func TestDecompositionOfASingleTask(t *testing.T) {
	evidence := []*kus.KU{topicKU("doc.md::0::0", "Ploinky", "AchillesIDE uses Ploinky."), topicKU("doc.md::0::1", "sandbox", "Ploinky runs agents in a sandbox.")}
	withCriterion := "@i1 intent evaluate \"secure execution of agents\"\n@i2 set $i1 output assessment\n@i3 set $i1 criterion \"isolation; cost\"\n"
	plain := "@i1 intent explain \"secure execution of agents\"\n@i2 set $i1 output answer\n"
	cases := []struct {
		name      string
		intent    string
		decompose bool // the plan asks for decomposition
		always    bool // the solver asks at every depth
		units     []*kus.KU
		maxDepth  int
		status    string
		subs      []string // sub-questions seen at depth 1
		code      string   // a trace error code expected
	}{
		{"plan decompose by criteria", withCriterion, true, false, evidence, 3, StatusAnswered,
			[]string{"secure execution of agents (criterion: isolation)", "secure execution of agents (criterion: cost)"}, ""},
		{"needs-decomposition by evidence entities", plain, false, false, evidence, 3, StatusAnswered,
			[]string{"secure execution of agents (about Ploinky)", "secure execution of agents (about sandbox)"}, ""},
		{"depth limit", plain, false, true, evidence, 2, StatusFailure, nil, CodeFrameDepthExceeded},
		{"nothing to narrow", plain, false, false, nil, 3, StatusFailure, nil, CodeDecompositionFailed},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			sd := &intentSD{Base: descriptor(t, "sd-t", plugin.TypeSD, ""), intent: tc.intent}
			kb := &testKB{Base: descriptor(t, "kb-t", plugin.TypeKB, ""), units: tc.units}
			gs := &promptGS{Base: descriptor(t, "gs-t", plugin.TypeGS, ""), always: tc.always}
			pl := &testPlanner{Base: descriptor(t, "pl-t", plugin.TypePlan, ""), plan: plugin.Plan{Decompose: tc.decompose,
				FramePurpose: map[bool]string{true: plugin.FrameSubtaskDecomposition}[tc.decompose]}}
			m, _ := setup(t, func(e *config.Engine) { e.MaxFrameDepth = tc.maxDepth }, sd, kb, gs, pl)
			resp, err := m.Ask(context.Background(), Request{Question: "How are agents executed securely?"})
			require.NoError(t, err)
			assert.Equal(t, tc.status, resp.Status, "%v %v", stagesOf(resp), resp.Trace.Errors)
			var depth1 []string
			for _, p := range gs.prompts {
				if rest, ok := strings.CutPrefix(p, "1:"); ok {
					depth1 = append(depth1, rest)
				}
			}
			if tc.subs != nil {
				assert.Equal(t, tc.subs, depth1)
				assert.Equal(t, 1, resp.Trace.FrameDepth)
				assert.Equal(t, plugin.FrameSubtaskDecomposition, resp.Trace.FramePurpose)
				for _, s := range tc.subs {
					assert.Contains(t, resp.AnswerMarkdown, "sub-answer: "+s)
				}
				require.NotNil(t, resp.Trace.Frames)
				assert.Len(t, resp.Trace.Frames.Children, len(tc.subs))
			}
			if tc.code != "" {
				assert.Contains(t, errorCodes(resp), tc.code)
			}
			if tc.always {
				assert.Equal(t, tc.maxDepth, resp.Trace.FrameDepth, "child frames down to the limit")
			}
		})
	}
}

// TestFallbackChainsFollowExhaustedCandidates: a stage whose planned
// candidates all fail tries the plugins.json fallback chain.
func TestFallbackChainsFollowExhaustedCandidates(t *testing.T) {
	kb := &testKB{Base: descriptor(t, "kb-t", plugin.TypeKB, ""), units: []*kus.KU{leaf("doc.md::0::0", "Alpha uses beta.")}}
	broken := &testGS{Base: descriptor(t, "gs-broken", plugin.TypeGS, ""), solve: func(context.Context, *plugin.SolveInput) (*plugin.SolveResult, error) {
		return &plugin.SolveResult{Status: plugin.StatusUnsupported}, nil
	}}
	backup := &testGS{Base: descriptor(t, "gs-backup", plugin.TypeGS, ""), solve: answer("Alpha uses beta.")}
	pl := &testPlanner{Base: descriptor(t, "pl-t", plugin.TypePlan, ""), plan: plugin.Plan{GoalSolverOrder: []string{"gs-broken"}}}
	m, _ := setup(t, nil, kb, broken, backup, pl)
	resp, err := m.Ask(context.Background(), Request{Question: "What does alpha use?"})
	require.NoError(t, err)
	assert.NotEqual(t, StatusAnswered, resp.Status, "without a chain the backup is not tried")

	m.cat.Config.Plugins.FallbackChains = map[string][]string{"gs-broken": {"gs-backup"}}
	resp, err = m.Ask(context.Background(), Request{Question: "What does alpha use?"})
	require.NoError(t, err)
	assert.Equal(t, StatusAnswered, resp.Status)
	assert.Equal(t, []string{"kb/kb-t/success", "goal-solver/gs-broken/unsupported", "goal-solver/gs-backup/success"}, stagesOf(resp))
}

// TestDecomposedTraceMatchesThePlannerOutcomeSchema checks the JSON trace
// of a decomposed request field by field against the Planner Outcome
// Schema: every field present with its type and allowed values.
func TestDecomposedTraceMatchesThePlannerOutcomeSchema(t *testing.T) {
	sd := &intentSD{Base: descriptor(t, "sd-t", plugin.TypeSD, ""), intent: "@i1 intent explain \"secure execution of agents\"\n@i2 set $i1 output answer\n"}
	kb := &testKB{Base: descriptor(t, "kb-t", plugin.TypeKB, ""), units: []*kus.KU{topicKU("doc.md::0::0", "Ploinky", "AchillesIDE uses Ploinky.")}}
	gs := &promptGS{Base: descriptor(t, "gs-t", plugin.TypeGS, "")}
	val := &testVal{Base: descriptor(t, "val-t", plugin.TypeVal, ""), verdict: plugin.StatusAccepted}
	pl := &testPlanner{Base: descriptor(t, "pl-t", plugin.TypePlan, "")}
	m, _ := setup(t, nil, sd, kb, gs, val, pl)
	resp, err := m.Ask(context.Background(), Request{Question: "How are agents executed securely?", SessionID: "schema", CreateSession: true})
	require.NoError(t, err)
	require.Equal(t, StatusAnswered, resp.Status)

	b, err := json.Marshal(resp.Trace)
	require.NoError(t, err)
	var tr map[string]any
	require.NoError(t, json.Unmarshal(b, &tr))
	str := func(v any) bool { _, ok := v.(string); return ok }
	num := func(v any) bool { _, ok := v.(float64); return ok }
	oneOf := func(vals ...any) func(any) bool { return func(v any) bool { return slices.Contains(vals, v) } }
	strOrNull := func(v any) bool { return v == nil || str(v) }
	boolOrNull := func(v any) bool { _, ok := v.(bool); return v == nil || ok }
	top := map[string]func(any) bool{
		"requestId":       func(v any) bool { return v == resp.RequestID },
		"sessionId":       oneOf("schema"),
		"plannerPluginId": oneOf("pl-t"),
		"plannerAttempts": func(v any) bool {
			a, ok := v.([]any)
			return ok && len(a) == 1 && a[0] == "pl-t"
		},
		"stages":            func(v any) bool { _, ok := v.([]any); return ok },
		"finalStatus":       oneOf("success"),
		"finalAnswerStatus": oneOf("answered"),
		"frameDepth":        oneOf(1.0),
		"framePurpose":      oneOf(plugin.FrameSubtaskDecomposition),
	}
	for k, ok := range top {
		v, present := tr[k]
		assert.True(t, present, "field %s missing", k)
		assert.True(t, ok(v), "field %s = %#v", k, v)
	}
	stage := map[string]func(any) bool{
		"plannerPluginId": oneOf("pl-t"),
		"stage":           oneOf(plugin.LoopSeedDetector, plugin.LoopKB, plugin.LoopGoalSolver, plugin.LoopValidation),
		"pluginId":        oneOf("sd-t", "kb-t", "gs-t", "val-t"),
		"status": oneOf("success", "insufficient", "error", "unsupported", "skipped-budget", "accepted", "rejected",
			"needs-decomposition"),
		"durationMs": num,
		"llmCalls":   oneOf(0.0),
		"sufficient": boolOrNull,
		"model":      strOrNull,
		"modelRole":  strOrNull,
	}
	stages := tr["stages"].([]any)
	var seq []string
	for i, s := range stages {
		e := s.(map[string]any)
		assert.Len(t, e, len(stage), "stage %d has exactly the schema's fields: %v", i, e)
		for k, ok := range stage {
			v, present := e[k]
			assert.True(t, present, "stage %d: field %s missing", i, k)
			assert.True(t, ok(v), "stage %d: field %s = %#v", i, k, v)
		}
		seq = append(seq, e["stage"].(string)+"/"+e["status"].(string))
		if e["stage"] == plugin.LoopKB {
			assert.Equal(t, true, e["sufficient"])
		} else {
			assert.Nil(t, e["sufficient"])
		}
	}
	assert.Equal(t, []string{"seed-detector/success", "kb/success", "goal-solver/needs-decomposition",
		"kb/success", "goal-solver/success", "validation/accepted"}, seq)
	frames := tr["frames"].(map[string]any)
	assert.Equal(t, 0.0, frames["depth"])
	child := frames["children"].([]any)[0].(map[string]any)
	assert.Equal(t, 1.0, child["depth"])
	assert.Equal(t, plugin.FrameSubtaskDecomposition, child["purpose"])
	assert.Equal(t, StatusAnswered, child["status"])
}

// guidanceKB answers strategy-guidance retrievals with a planner-scoped
// KU and task-evidence retrievals with evidence, recording each purpose.
type guidanceKB struct {
	testKB
	mu       sync.Mutex
	purposes []string
}

func (p *guidanceKB) Retrieve(ctx context.Context, rc plugin.RunContext, in *plugin.RetrieveInput) (*plugin.RetrieveResult, error) {
	p.mu.Lock()
	p.purposes = append(p.purposes, in.Purpose)
	p.mu.Unlock()
	if in.Purpose == plugin.PurposeStrategyGuidance {
		g := &kus.KU{ID: "plugin::kb-t::unit-001", Title: "planning", Claim: "Prefer deep retrieval for causal questions.",
			Level: kus.LevelLeaf, PhaseScopes: []string{"mrp-plan-plugin"}}
		v := &kus.KU{ID: "plugin::kb-t::unit-002", Title: "validation", Claim: "Answers must cite a source.",
			Level: kus.LevelLeaf, PhaseScopes: []string{"val-plugin"}}
		return &plugin.RetrieveResult{Status: plugin.StatusSuccess, Sufficient: true, ResolvedIntents: []plugin.ResolvedIntent{{
			Guidance: []plugin.ScoredKU{{KU: g, Score: 1}, {KU: v, Score: 0.5}}}}}, nil
	}
	return p.testKB.Retrieve(ctx, rc, in)
}

// inputPlanner records every PlanInput it receives.
type inputPlanner struct {
	testPlanner
	mu     sync.Mutex
	inputs []*plugin.PlanInput
}

func (p *inputPlanner) BuildPlan(ctx context.Context, rc plugin.RunContext, in *plugin.PlanInput) (*plugin.Plan, error) {
	p.mu.Lock()
	p.inputs = append(p.inputs, in)
	p.mu.Unlock()
	return p.testPlanner.BuildPlan(ctx, rc, in)
}

var gsScopedTurn = turnKU("Constraint", "Answer in two bullet points.", "gs-plugin")

// TestPlannerInputIsComplete checks the plan input field by field: the
// admitted and decomposed intents, the current-turn KUs, the KB identity
// and metadata, strategy guidance retrieved with purpose
// strategy-guidance, phase guidance, pins and the session's preferences
// (set by one request, kept for the next).
func TestPlannerInputIsComplete(t *testing.T) {
	kb := &guidanceKB{testKB: testKB{Base: descriptor(t, "kb-t", plugin.TypeKB, ""), units: []*kus.KU{leaf("doc.md::0::0", "Alpha uses beta.")}}}
	kb2 := &testKB{Base: descriptor(t, "kb-u", plugin.TypeKB, "")}
	sd := &turnSD{Base: descriptor(t, "sd-t", plugin.TypeSD, ""), turn: gsScopedTurn}
	gs := &testGS{Base: descriptor(t, "gs-t", plugin.TypeGS, ""), solve: answer("Alpha uses beta.")}
	pl := &inputPlanner{testPlanner: testPlanner{Base: descriptor(t, "pl-t", plugin.TypePlan, "")}}
	m, _ := setup(t, nil, sd, kb, kb2, gs, pl)

	resp, err := m.Ask(context.Background(), Request{Question: "What does alpha use; what does gamma use?",
		Pins: map[string]string{"gs": "gs-t"}, Preferences: map[string]string{"kb": "kb-u"}})
	require.NoError(t, err)
	require.Equal(t, StatusAnswered, resp.Status)
	require.Len(t, pl.inputs, 2, "one seed-routing plan, one task plan")
	route, in := pl.inputs[0], pl.inputs[1]
	assert.Empty(t, route.Intents, "seed routing runs before seed detection")
	assert.Len(t, route.Candidates[plugin.TypeSD], 1)

	require.Len(t, in.Intents, 1)
	assert.Equal(t, "explain", in.Intents[0].Act)
	require.Len(t, in.DecomposedIntents, 2, "the single intent's parts")
	assert.Equal(t, in.Intents[0].ID, in.DecomposedIntents[0].ParentID)
	require.Len(t, in.TurnUnits, 1)
	assert.Equal(t, []string{"gs-plugin"}, in.TurnUnits[0].PhaseScopes)
	assert.Equal(t, m.kbID(), in.KBID)
	assert.Equal(t, m.kbName(), in.KBName)
	assert.Contains(t, in.KBStats, "kus")
	require.Len(t, in.StrategyGuidance, 1, "%v", resp.Trace.Notes)
	assert.Equal(t, "plugin::kb-t::unit-001", in.StrategyGuidance[0].KU.ID)
	assert.Len(t, in.Guidance["mrp-plan-plugin"], 1)
	assert.Len(t, in.Guidance["val-plugin"], 1)
	assert.Len(t, in.Guidance["gs-plugin"], 1, "the turn's answer-format KU")
	assert.Equal(t, map[string]string{plugin.LoopGoalSolver: "gs-t"}, in.Pins)
	assert.Equal(t, map[string]string{plugin.LoopKB: "kb-u"}, in.Preferences)
	kb.mu.Lock()
	assert.Equal(t, plugin.PurposeStrategyGuidance, kb.purposes[0])
	kb.mu.Unlock()

	// The preference is the session's: the next question sees it unasked.
	pl.inputs = nil
	_, err = m.Ask(context.Background(), Request{Question: "And beta?", SessionID: resp.SessionID})
	require.NoError(t, err)
	require.NotEmpty(t, pl.inputs)
	assert.Equal(t, map[string]string{plugin.LoopKB: "kb-u"}, pl.inputs[len(pl.inputs)-1].Preferences)
	s, err := m.Session(resp.SessionID)
	require.NoError(t, err)
	assert.Equal(t, "kb-u", s.Preferences[plugin.LoopKB], "stored with the session")

	// Cleared with an empty id; unknown plugins are refused.
	_, err = m.Ask(context.Background(), Request{Question: "q", SessionID: resp.SessionID, Preferences: map[string]string{"kb": ""}})
	require.NoError(t, err)
	s, _ = m.Session(resp.SessionID)
	assert.NotContains(t, s.Preferences, plugin.LoopKB)
	_, err = m.Ask(context.Background(), Request{Question: "q", Preferences: map[string]string{"kb": "kb-nope"}})
	assert.ErrorContains(t, err, "kb-nope")
}

// TestSeedDetectorsFollowThePlan: the seed detectors run in the order the
// planner gives before seed detection.
func TestSeedDetectorsFollowThePlan(t *testing.T) {
	sd1 := &turnSD{Base: descriptor(t, "sd-a", plugin.TypeSD, "")}
	sd2 := &turnSD{Base: descriptor(t, "sd-b", plugin.TypeSD, "")}
	gs := &testGS{Base: descriptor(t, "gs-t", plugin.TypeGS, ""), solve: answer("x")}
	pl := &testPlanner{Base: descriptor(t, "pl-t", plugin.TypePlan, ""), plan: plugin.Plan{SeedDetectorOrder: []string{"sd-b", "sd-a"}}}
	m, _ := setup(t, nil, sd1, sd2, gs, pl)
	resp, err := m.Ask(context.Background(), Request{Question: "What is x?"})
	require.NoError(t, err)
	assert.Equal(t, "seed-detector/sd-b/success", stagesOf(resp)[0])
}
