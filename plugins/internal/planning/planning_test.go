package planning

import (
	"bytes"
	"context"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/plugin"
)

// memStore is a map-backed plugin.Store for tests.
type memStore struct{ m map[string][]byte }

type memKV struct{ s *memStore }

func (k memKV) Get(key []byte) []byte { return k.s.m[string(key)] }
func (k memKV) Put(key, v []byte) error {
	k.s.m[string(key)] = append([]byte(nil), v...)
	return nil
}
func (k memKV) Delete(key []byte) error { delete(k.s.m, string(key)); return nil }
func (k memKV) Writable() bool          { return true }
func (k memKV) Scan(prefix, start []byte, fn func(k, v []byte) error) error {
	var keys []string
	for key := range k.s.m {
		if bytes.HasPrefix([]byte(key), prefix) && (start == nil || key >= string(start)) {
			keys = append(keys, key)
		}
	}
	sort.Strings(keys)
	for _, key := range keys {
		if err := fn([]byte(key), k.s.m[key]); err != nil {
			if err == plugin.ErrStopScan {
				return nil
			}
			return err
		}
	}
	return nil
}
func (s *memStore) View(fn func(plugin.KV) error) error   { return fn(memKV{s}) }
func (s *memStore) Update(fn func(plugin.KV) error) error { return fn(memKV{s}) }

func desc(id string, cost float64, depth string, acts ...string) plugin.Descriptor {
	return plugin.Descriptor{ID: id, Type: plugin.TypeKB, Description: "A retriever.",
		PlannerHints: &plugin.PlannerHints{RelativeCost: cost, PreferredDepth: depth, SupportedActs: acts, ConfidenceWhenMatched: 0.6}}
}

func TestOrderCheapFirstHeavyFirstPinsAndPreferences(t *testing.T) {
	cands := []plugin.Descriptor{desc("heavy", 0.9, "deep", "explain"), desc("cheap", 0.05, "shallow", "define")}
	l := NewLearner(0.25, nil)
	simple := Signals{Acts: []string{"define"}, Words: map[string]bool{}, Remaining: 5}
	ids, _ := Order(cands, l, simple, -1, "", "")
	assert.Equal(t, []string{"cheap", "heavy"}, ids, "cheap first for a simple question")
	deep := Signals{Acts: []string{"explain"}, Words: map[string]bool{}, Deep: true, Remaining: 5}
	ids, _ = Order(cands, l, deep, 1, "", "")
	assert.Equal(t, []string{"heavy", "cheap"}, ids, "heavy first for a multi-hop question")
	ids, _ = Order(cands, l, simple, -1, "heavy", "")
	assert.Equal(t, []string{"heavy"}, ids, "a pin returns the pinned plugin alone")
	ids, _ = Order(cands, l, simple, -1, "", "heavy")
	assert.Equal(t, []string{"heavy", "cheap"}, ids, "a preference goes first and keeps the fallback")
}

func TestLearningShiftsOrderAndPersists(t *testing.T) {
	store := &memStore{m: map[string][]byte{}}
	cands := []plugin.Descriptor{desc("a", 0.1, "", "define"), desc("b", 0.1, "", "define")}
	sig := Signals{Acts: []string{"define"}, Words: map[string]bool{}, Remaining: 5}
	l := NewLearner(0.25, store)
	ids, _ := Order(cands, l, sig, -1, "", "")
	require.Equal(t, "a", ids[0])
	no := false
	for i := 0; i < 6; i++ {
		require.NoError(t, l.Record(context.Background(), &plugin.Outcome{FinalStatus: "failure", Stages: []plugin.StageOutcome{
			{Stage: plugin.LoopKB, PluginID: "a", Status: plugin.StatusError, DurationMs: 900, Sufficient: &no},
			{Stage: plugin.LoopKB, PluginID: "b", Status: plugin.StatusSuccess, DurationMs: 5},
			{Stage: plugin.LoopGoalSolver, PluginID: "gs-x", Status: plugin.StatusSkippedBudget},
		}}))
	}
	ids, _ = Order(cands, l, sig, -1, "", "")
	assert.Equal(t, "b", ids[0], "repeated failures of a move b ahead")
	_, skipped := l.Stats("gs-x")
	assert.False(t, skipped, "skipped-budget outcomes teach nothing")

	restarted := NewLearner(0.25, store)
	ids, _ = Order(cands, restarted, sig, -1, "", "")
	assert.Equal(t, "b", ids[0], "statistics survive a restart")
	st, _ := restarted.Stats("a")
	assert.Equal(t, 6, st.Failures)
	assert.Less(t, st.SuccessEWMA, 0.3)
	assert.Equal(t, 6, restarted.Planner().Requests)
}

func TestBudgetAndMissingModelRouteAround(t *testing.T) {
	llmDesc := desc("llm", 0.1, "", "define")
	llmDesc.UsesLLM, llmDesc.MaxLLMCalls = true, 3
	cands := []plugin.Descriptor{llmDesc, desc("sym", 0.5, "", "define")}
	ids, notes := Order(cands, NewLearner(0.25, nil), Signals{Acts: []string{"define"}, Words: map[string]bool{}, HasLLM: false, Remaining: 5}, -1, "", "")
	assert.Equal(t, []string{"sym"}, ids, "no model: the LLM plugin is left out")
	assert.Contains(t, notes, "no model configured, left out: llm")
	ids, _ = Order(cands, NewLearner(0.25, nil), Signals{Acts: []string{"define"}, Words: map[string]bool{}, HasLLM: false, Remaining: 5}, -1, "", "llm")
	assert.Equal(t, []string{"llm", "sym"}, ids, "a session preference still goes first")
	ids, _ = Order(cands, NewLearner(0.25, nil), Signals{Acts: []string{"define"}, Words: map[string]bool{}, HasLLM: false, Remaining: 5}, -1, "llm", "")
	assert.Equal(t, []string{"llm"}, ids, "a pin is obeyed")
	ids, _ = Order(cands, NewLearner(0.25, nil), Signals{Acts: []string{"define"}, Words: map[string]bool{}, HasLLM: true, Remaining: 1}, -1, "", "")
	assert.Equal(t, []string{"sym", "llm"}, ids, "over budget goes last")
}

// TestOrderDropsClearlyIrrelevantPlugins: a plugin whose acts, specific
// topic tags and description all miss the task is dropped (and noted),
// unless it is preferred, deep for a deep task, or the last one left.
func TestOrderDropsClearlyIrrelevantPlugins(t *testing.T) {
	legal := plugin.Descriptor{ID: "kb-legal", Description: "Statute and case-law retrieval.",
		PlannerHints: &plugin.PlannerHints{SupportedActs: []string{"evaluate"}, TopicTags: []string{"legal"}}}
	general := plugin.Descriptor{ID: "kb-general", Description: "A retriever.",
		PlannerHints: &plugin.PlannerHints{SupportedActs: []string{"define"}, TopicTags: []string{"general"}}}
	deep := plugin.Descriptor{ID: "kb-deep", Description: "Multi-hop closure.",
		PlannerHints: &plugin.PlannerHints{SupportedActs: []string{"diagnose"}, TopicTags: []string{"relations"}, PreferredDepth: "deep"}}
	l := NewLearner(0.25, nil)
	sig := func(act string, deepTask bool, words ...string) Signals {
		s := Signals{Acts: []string{act}, Words: map[string]bool{}, Deep: deepTask, Remaining: 5}
		for _, w := range words {
			s.Words[w] = true
		}
		return s
	}
	cases := []struct {
		name    string
		cands   []plugin.Descriptor
		sig     Signals
		pref    string
		want    []string
		dropped bool
	}{
		{"act, tags and description miss", []plugin.Descriptor{legal, general}, sig("define", false, "alpha"), "", []string{"kb-general"}, true},
		{"a topic tag in the task keeps it", []plugin.Descriptor{legal, general}, sig("define", false, "legal"), "", []string{"kb-general", "kb-legal"}, false},
		{"a description word keeps it", []plugin.Descriptor{legal, general}, sig("define", false, "statute"), "", []string{"kb-general", "kb-legal"}, false},
		{"a supported act keeps it", []plugin.Descriptor{legal, general}, sig("evaluate", false), "", []string{"kb-general", "kb-legal"}, false},
		{"the preference is kept", []plugin.Descriptor{legal, general}, sig("define", false), "kb-legal", []string{"kb-legal", "kb-general"}, false},
		{"deep plugin for a deep task", []plugin.Descriptor{deep, general}, sig("define", true), "", []string{"kb-deep", "kb-general"}, false},
		{"deep plugin for a shallow task", []plugin.Descriptor{deep, general}, sig("define", false), "", []string{"kb-general"}, true},
		{"never the last one", []plugin.Descriptor{legal}, sig("define", false), "", []string{"kb-legal"}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ids, notes := Order(tc.cands, l, tc.sig, -1, "", tc.pref)
			assert.ElementsMatch(t, tc.want, ids)
			if tc.pref != "" {
				assert.Equal(t, tc.pref, ids[0])
			}
			noted := false
			for _, n := range notes {
				noted = noted || strings.HasPrefix(n, "dropped as irrelevant")
			}
			assert.Equal(t, tc.dropped, noted, "%v", notes)
		})
	}
}

func TestUtilityIgnoresLatencyJitterButNotSlowness(t *testing.T) {
	quick := PluginStats{SuccessEWMA: 0.9, SufficiencyEWMA: 0.8, LatencyMsEWMA: 3}
	loaded := quick
	loaded.LatencyMsEWMA = 60 // the same plugin timed on a busy machine
	assert.Equal(t, quick.Utility(), loaded.Utility(), "jitter under one step must not change utility")

	slow := quick
	slow.LatencyMsEWMA = 900
	assert.InDelta(t, quick.Utility()-0.18, slow.Utility(), 1e-9, "nine whole steps of 100 ms cost 0.18")

	stalled := quick
	stalled.LatencyMsEWMA = 60000
	assert.InDelta(t, quick.Utility()-0.5, stalled.Utility(), 1e-9, "the latency penalty is capped")
}
