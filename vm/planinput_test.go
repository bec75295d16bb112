package vm

import (
	"context"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
)

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
