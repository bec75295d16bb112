package vm

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
)

// ingestedRun is a run of a machine over a workspace holding files
// (slash paths to text), ingested.
func ingestedRun(t *testing.T, files map[string]string) *run {
	t.Helper()
	m, _ := setupIngested(t, files)
	return &run{m: m, trace: &Trace{}}
}

// TestPreferLibrary: a question that names one of the workspace's
// libraries gets that library's best unit first when another library's
// unit came first; without a named library, or with the first unit from
// the named one, the order stays.
func TestPreferLibrary(t *testing.T) {
	r := ingestedRun(t, map[string]string{
		"gin/README.md":  "# Gin\n\nServing static files.\n",
		"gin/docs.md":    "# Docs\n\nRoutes.\n",
		"mux/README.md":  "# Mux\n\nStatic files.\n",
		"mux/example.md": "# Example\n\nA router.\n",
		"notes.md":       "# Notes\n\nNotes.\n",
		"todo.md":        "# Todo\n\nTodo.\n",
		"faq.md":         "# FAQ\n\nQuestions.\n",
	})
	unit := func(source string, score float64) plugin.ScoredKU {
		return plugin.ScoredKU{KU: &kus.KU{ID: source + "::0", SourceID: source}, Score: score}
	}
	ev := []plugin.ScoredKU{unit("mux/README.md", 1), unit("notes.md", 0.8), unit("gin/README.md", 0.6)}
	sources := func(ev []plugin.ScoredKU) []string {
		var out []string
		for _, e := range ev {
			out = append(out, e.KU.SourceID)
		}
		return out
	}

	got := r.preferLibrary("How do I serve static files with gin?", ev)
	assert.Equal(t, []string{"gin/README.md", "mux/README.md", "notes.md"}, sources(got))
	assert.Equal(t, 1.0, got[0].Score, "the unit put first scores as the one it displaced")

	assert.Equal(t, sources(ev), sources(r.preferLibrary("How do I serve static files?", ev)), "no library named")
	assert.Equal(t, sources(ev), sources(r.preferLibrary("How do I serve static files with gin or mux?", ev)), "the first unit's library is named too")
	notLib := []plugin.ScoredKU{unit("notes.md", 1), unit("gin/README.md", 0.6)}
	assert.Equal(t, sources(notLib), sources(r.preferLibrary("gin notes", notLib)), "the first unit is of no library")

	fresh := &run{m: r.m, trace: &Trace{}}
	fresh.preferLibrary("How do I serve static files?", ev)
	assert.Nil(t, fresh.libs, "no unit after the first lies in a folder the question names: the library names are not read")
}

// substituted asks followUp after the turn prev, on prev's topic, and
// requires r.substitute to take it for prev's question asked of other
// pages; it returns the question and turn context substitute gives.
func substituted(t *testing.T, r *run, followUp string, prev *TurnContext) (string, *TurnContext) {
	t.Helper()
	q, tc, ok := r.substitute(followUp, prev, prev.Topic)
	require.True(t, ok, followUp)
	return q, tc
}

// TestSubstitute: a follow-up naming only other pages ("What about
// bzip2?") asks the earlier question of them; one that narrows the
// earlier question, points back or names no page is left to the usual
// completion.
func TestSubstitute(t *testing.T) {
	r := ingestedRun(t, map[string]string{
		"common/gzip.md":          "# gzip\n\n> Compress files.\n",
		"common/bzip2.md":         "# bzip2\n\n> Compress files.\n",
		"common/date.md":          "# date\n\n> Show the date.\n",
		"common/docker-image.md":  "# docker image\n\n> Manage images.\n",
		"common/docker-volume.md": "# docker volume\n\n> Manage volumes.\n",
		"kb/kb-fast.md":           "# kb-fast\n\nFast.\n",
		"kb/kb-balanced.md":       "# kb-balanced\n\nBalanced.\n",
		"kb/kb-thinkingdb.md":     "# kb-thinkingdb\n\nFacts.\n",
	})
	gzip := &TurnContext{TurnID: "t1", Query: "How do I compress a file with gzip?", Topic: "gzip", Anchors: []string{"common/gzip.md"}}

	q, tc := substituted(t, r, "What about the bzip2?", gzip)
	assert.Equal(t, "How do I compress a file with bzip2?", q)
	assert.Equal(t, "bzip2", tc.Topic)
	assert.Empty(t, tc.Anchors, "the conversation moved to another page")

	volume := &TurnContext{TurnID: "t2", Query: "How do I list docker images?", Topic: "docker image"}
	q, _ = substituted(t, r, "and volumes?", volume)
	assert.Equal(t, "How do I list docker volumes?", q, "the word the new pages share stays")

	fast := &TurnContext{TurnID: "t3", Query: "How does it differ from kb-balanced (kb-fast)?", Topic: "kb-fast"}
	q, _ = substituted(t, r, "what about kb-thinkingdb?", fast)
	assert.Equal(t, "How does it differ from kb-balanced (kb-thinkingdb)?", q, "words are compared whole, not by their parts")

	for _, f := range []string{"and only between two dates?", "What about it?", "What about the weather?", "and gzip?", "and the other one?"} {
		_, _, ok := r.substitute(f, gzip, gzip.Topic)
		assert.False(t, ok, f)
	}
}

// TestSubstituteKeepsWhatIsAskedOfEither: "what about in mux?" replaces
// the library of the earlier question, past the preposition, and keeps
// the topic's words that name no page ("static files").
func TestSubstituteKeepsWhatIsAskedOfEither(t *testing.T) {
	r := ingestedRun(t, map[string]string{
		"gin/docs/doc.md": "# Gin\n\nServe static files with gin.\n",
		"gin/README.md":   "# Gin\n\nA web framework.\n",
		"mux/README.md":   "# mux\n\nServe static files with mux.\n",
		"chi/README.md":   "# chi\n\nA router.\n",
	})
	prev := &TurnContext{TurnID: "t1", Query: "How do I serve static files with gin?", Topic: "static files gin", Anchors: []string{"gin/docs/doc.md"}}
	q, tc := substituted(t, r, "what about in mux?", prev)
	assert.Equal(t, "How do I serve static files with mux?", q)
	assert.Equal(t, "mux static files", tc.Topic)
}
