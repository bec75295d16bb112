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
