package vm

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/ingest"
	"github.com/mrpvm/mrpvm/internal/testtree"
	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
)

// TestObjectPhrases: the noun phrases a question's action acts on, split
// at "of", closing on a word that can name a thing; none when the object
// is a pronoun or the question asks to act on nothing.
func TestObjectPhrases(t *testing.T) {
	cases := []struct {
		q    string
		want []string
	}{
		{"How do I install an application with flatpak?", []string{"application"}},
		{"How do I edit my personal list of cron jobs?", []string{"personal list", "cron jobs"}},
		{"How do I run a docker container in the background?", []string{"docker container"}},
		{"Can I send a file to another computer?", []string{"file"}},
		{"What resources does mrpvm mcp expose to an agent?", []string{"resources"}},
		{"How do I update it later on?", nil},
		{"What about sine or the natural logarithm?", nil},
		{"What is viper?", nil},
	}
	for _, tc := range cases {
		t.Run(tc.q, func(t *testing.T) {
			assert.Equal(t, tc.want, objectPhrases(tc.q))
		})
	}
}

// TestPointedPronoun: a pronoun standing for what a question acts on
// points back; a subject pronoun, or one whose antecedent the question
// names itself, does not.
func TestPointedPronoun(t *testing.T) {
	cases := map[string]string{
		"and how do I update it later on?":                     "it",
		"and how do I wipe all of them?":                       "them",
		"And how does the person on the other end receive it?": "it",
		"Can an agent read a file through the second one?":     "one",
		"can it run a script from a file?":                     "",
		"and how does it find out which status code was sent?": "",
		"What is viper and how do I use it?":                   "",
		"How do I list the files of a folder?":                 "",
	}
	for q, want := range cases {
		assert.Equalf(t, want, pointedPronoun(q), "pointedPronoun(%q)", q)
	}
}

// TestReferentFor: "them" stands for the first plural phrase, "one" for
// the head of the latest object, "it" for the first singular phrase.
func TestReferentFor(t *testing.T) {
	refs := []string{"line", "personal list", "cron jobs"}
	assert.Equal(t, "cron jobs", referentFor("them", refs))
	assert.Equal(t, "line", referentFor("it", refs))
	assert.Equal(t, "resources", referentFor("one", []string{"resources"}))
	assert.Equal(t, "group", referentFor("one", []string{"new group", "users"}))
	assert.Equal(t, "", referentFor("them", []string{"application"}))
}

// TestReferentsOfCarriesEarlierOnes: a turn that acts on a pronoun
// passes on what it stood for; one that names things puts them first.
func TestReferentsOfCarriesEarlierOnes(t *testing.T) {
	earlier := &TurnContext{Referents: []string{"cron jobs"}}
	assert.Equal(t, []string{"cron jobs"}, referentsOf("How do I update it?", earlier))
	assert.Equal(t, []string{"line", "cron jobs"}, referentsOf("What line would I put in it?", earlier))
	assert.Nil(t, referentsOf("How do I update it?", nil))
}

// toolSession is a machine over a page about a tool that installs and
// updates applications, whose goal solver answers from the first unit.
func toolSession(t *testing.T) *Machine {
	t.Helper()
	kb := &testKB{Base: descriptor(t, "kb-t", plugin.TypeKB, ""), units: []*kus.KU{
		{ID: "tool.md::0::0", Title: "tool", Claim: "Install an application with tool.", TextBody: "Install an application with tool.", SourceID: "tool.md", Level: kus.LevelLeaf},
		{ID: "tool.md::1::0", Title: "tool", Claim: "Update all applications with tool.", TextBody: "Update all applications with tool.", SourceID: "tool.md", Level: kus.LevelLeaf},
	}}
	gs := &testGS{Base: descriptor(t, "gs-t", plugin.TypeGS, ""), solve: answer("Use tool [1].")}
	m, _ := setup(t, nil, kb, gs)
	return m
}

// TestFollowUpPronounTakesItsReferent: the follow-up is completed with
// what its pronoun stands for (the earlier question's object) as well as
// the topic naming the page, and a later pronoun finds it again.
func TestFollowUpPronounTakesItsReferent(t *testing.T) {
	m := toolSession(t)
	ctx := context.Background()
	r1, err := m.Ask(ctx, Request{Question: "How do I install an application with tool?"})
	require.NoError(t, err)
	require.Equal(t, StatusAnswered, r1.Status)
	r2, err := m.Ask(ctx, Request{Question: "and how do I update it later on?", SessionID: r1.SessionID})
	require.NoError(t, err)
	assert.Equal(t, "How do I update it later on (tool application)?", r2.SearchedFor)
	r3, err := m.Ask(ctx, Request{Question: "how do I get rid of it again?", SessionID: r1.SessionID})
	require.NoError(t, err)
	assert.Equal(t, "How do I get rid of it again (tool application)?", r3.SearchedFor, "the follow-up before acted on a pronoun: its referent is carried")
}

// TestPointingBackQuestionContinuesTheTopic: a question searched alone,
// for it names enough itself, whose pronoun points back ("put in it")
// passes on the conversation's topic rather than its own words.
func TestPointingBackQuestionContinuesTheTopic(t *testing.T) {
	m := toolSession(t)
	ctx := context.Background()
	r1, err := m.Ask(ctx, Request{Question: "How do I install an application with tool?"})
	require.NoError(t, err)
	require.Equal(t, StatusAnswered, r1.Status)
	r2, err := m.Ask(ctx, Request{Question: "What line would I put in it to update every application each night?", SessionID: r1.SessionID})
	require.NoError(t, err)
	require.Empty(t, r2.SearchedFor, "searched alone")
	s, err := m.Session(r1.SessionID)
	require.NoError(t, err)
	require.Len(t, s.Context, 2)
	assert.Equal(t, "tool", s.Context[1].Topic)
	assert.Equal(t, []string{"line", "application"}, s.Context[1].Referents)
}

// TestUnansweredTurnTopicIsThePageItNames: a question nothing answered
// passes on, as the conversation's topic, its words that are the file
// name of a page ("sftp"), not everything it asked.
func TestUnansweredTurnTopicIsThePageItNames(t *testing.T) {
	kb := &testKB{Base: descriptor(t, "kb-t", plugin.TypeKB, "")}
	gs := &testGS{Base: descriptor(t, "gs-t", plugin.TypeGS, ""), solve: answer("x")}
	m, store := setup(t, nil, kb, gs)
	testtree.WriteFiles(t, store.Workspace(), map[string]string{"common/sftp.md": "# sftp\n\n> Secure File Transfer Program.\n"})
	ctx := context.Background()
	_, err := store.Ingest(ctx, ingest.RunOptions{})
	require.NoError(t, err)
	r1, err := m.Ask(ctx, Request{Question: "How do I connect with sftp to a server that listens on another port?"})
	require.NoError(t, err)
	require.Equal(t, StatusNoContext, r1.Status)
	r2, err := m.Ask(ctx, Request{Question: "How do I upload them?", SessionID: r1.SessionID})
	require.NoError(t, err)
	assert.Equal(t, "How do I upload them (sftp)?", r2.SearchedFor)
}
