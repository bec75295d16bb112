package kbplugin

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/retrieval/kvtest"
)

// kuMap is a plugin.KUReader over parsed units.
type kuMap map[string]*kus.KU

func (m kuMap) KU(id string) (*kus.KU, error) { return m[id], nil }

const solverPage = `# gs-quill

Quill Goal Solver. Writes prose answers from evidence.

## Context Unit plugin::gs-quill::unit-000
Role: Definition
Topic: gs-quill
Claim: gs-quill writes a fluent answer with one call to the quill-writer model role.
PhaseScopes: gs-plugin, mrp-plan-plugin

## Context Unit plugin::gs-quill::unit-001
Role: Evaluation
Topic: when to use gs-quill
Claim: Use gs-quill for questions that need a readable prose answer rather than a list of evidence.
PhaseScopes: mrp-plan-plugin
`

// A Context Unit scoped to the planner or a solver is guidance; when the
// question is about what it describes (it names the plugin), it is also
// evidence, though its page's summary, which does not hold its claim, is
// chosen too; so is one that is the question's best match. A question
// that neither names the plugin nor matches the unit best gets it as
// guidance alone.
func TestGuidanceTheQuestionIsAboutIsEvidence(t *testing.T) {
	st := memStore{kv: kvtest.New()}
	e := New(Balanced, st)
	all := kuMap{}
	add := func(src string, text []byte) {
		t.Helper()
		doc, err := kus.Parse(text, kus.SourceInfo{SourceID: src, SourceName: src, SourceType: kus.SourceMarkdown})
		require.NoError(t, err)
		for _, u := range doc.Units {
			all[u.ID] = u
		}
		require.NoError(t, e.index(st.kv, src, doc.Units, text, nil))
	}
	add("plugin::gs-quill", []byte(solverPage))
	add("notes.md", []byte("# Notes\n\nA readable answer cites its evidence.\n"))
	add("models.md", []byte("# Models\n\nEach model role names an endpoint and a model.\n"))

	retrieve := func(q string) (evidence, guidance []string) {
		t.Helper()
		r, err := e.Retrieve(context.Background(), &plugin.RetrieveInput{Payload: plugin.Payload{Prompt: q}, SessionID: "s1", KUs: all})
		require.NoError(t, err)
		for _, ri := range r.ResolvedIntents {
			for _, s := range ri.Evidence {
				evidence = append(evidence, s.KU.ID)
			}
			for _, s := range ri.Guidance {
				guidance = append(guidance, s.KU.ID)
			}
		}
		return evidence, guidance
	}

	ev, gd := retrieve("What is gs-quill good for?")
	assert.Contains(t, ev, "plugin::gs-quill::unit-000")
	assert.Contains(t, ev, "plugin::gs-quill::unit-001")
	assert.Contains(t, gd, "plugin::gs-quill::unit-001", "it stays guidance for the planner")

	ev, gd = retrieve("Which solver gives a readable prose answer?")
	assert.Contains(t, gd, "plugin::gs-quill::unit-001")
	assert.NotContains(t, ev, "plugin::gs-quill::unit-001")

	// The best match for the question's words is what it asks about.
	ev, _ = retrieve("What calls the quill-writer model role?")
	assert.Contains(t, ev, "plugin::gs-quill::unit-000")

	// The user's own instruction for the turn shapes the answer and is
	// never its source, however well it matches.
	turn := &kus.KU{ID: "turn::1", Claim: "Answer about gs-quill in French.", Topic: "gs-quill",
		SourceType: kus.SourceChatTurn, PhaseScopes: []string{"gs-plugin"}}
	_, err := e.OnSessionEvent(context.Background(), &plugin.SessionEvent{EventType: plugin.EventSessionKUsAdded,
		SessionID: "s1", Units: []*kus.KU{turn}})
	require.NoError(t, err)
	ev, gd = retrieve("Answer about gs-quill in French.")
	assert.Contains(t, gd, "turn::1")
	assert.NotContains(t, ev, "turn::1")
}
