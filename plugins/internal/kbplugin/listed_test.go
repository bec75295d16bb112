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

const listedMD = `# router

## Middlewares

The router comes with an optional package of standard middlewares.

### Core middlewares

| handler | description |
| --- | --- |
| Logger | logs each request |
| Recoverer | absorbs panics |
| Throttle | caps concurrent requests |

### Writing your own

A middleware is a function that wraps a handler.
`

func parseUnits(t *testing.T, id, md string) kuMap {
	t.Helper()
	doc, err := kus.Parse([]byte(md), kus.SourceInfo{SourceID: id})
	require.NoError(t, err)
	m := kuMap{}
	for _, u := range doc.Units {
		m[u.ID] = u
	}
	return m
}

func unitTitled(t *testing.T, m kuMap, level, title string) *kus.KU {
	t.Helper()
	for _, u := range m {
		if levelOf(u) == level && u.Title == title {
			return u
		}
	}
	t.Fatalf("no %s unit %q", level, title)
	return nil
}

// A list question best matched by a section's opening paragraph also gets
// the subsection that tables what the section offers.
func TestListedSubsectionJoinsOpeningParagraph(t *testing.T) {
	m := parseUnits(t, "router.md", listedMD)
	lead := unitTitled(t, m, kus.LevelLeaf, "Middlewares")
	ev := withListedSubsections([]plugin.ScoredKU{{KU: lead, Score: 1}}, 5, m)
	require.Len(t, ev, 2)
	assert.Equal(t, "Core middlewares", ev[1].KU.Title)
	assert.Less(t, ev[1].Score, ev[0].Score)
}

// A paragraph that does not open its section, or a section with no table
// or list under it, gathers nothing.
func TestListedSubsectionNeedsOpeningParagraphAndList(t *testing.T) {
	m := parseUnits(t, "router.md", listedMD)
	own := unitTitled(t, m, kus.LevelLeaf, "Writing your own")
	ev := withListedSubsections([]plugin.ScoredKU{{KU: own, Score: 1}}, 5, m)
	assert.Len(t, ev, 1)
	assert.False(t, holdsList("A middleware is a function that wraps a handler."))
	assert.True(t, holdsList("- one\n- two\n- three"))
}

// Retrieve gathers the listed subsection for a list question (act
// "identify") and not for a description.
func TestRetrieveGathersListedSubsectionForListQuestion(t *testing.T) {
	titles := retrievedTitles(t, map[string]string{
		"router.md": listedMD,
		"notes.md":  "# Notes\n\nA handler answers one request.\n",
		"server.md": "# Server\n\nThe server listens on a port and logs each request.\n",
	}, "optional package of standard middlewares")
	assert.Equal(t, []string{"Middlewares", "Core middlewares"}, titles("identify"))
	assert.NotContains(t, titles("describe"), "Core middlewares")
}

// retrievedTitles indexes pages (source ID to Markdown) into a new
// kb-fast engine and returns a function that retrieves, for an intent of
// the given act and target, at most two units and lists their titles in
// evidence order.
func retrievedTitles(t *testing.T, pages map[string]string, target string) func(act string) []string {
	t.Helper()
	st := memStore{kv: kvtest.New()}
	e := New(Fast, st)
	all := kuMap{}
	for src, md := range pages {
		doc, err := kus.Parse([]byte(md), kus.SourceInfo{SourceID: src, SourceName: src, SourceType: kus.SourceMarkdown})
		require.NoError(t, err)
		for _, u := range doc.Units {
			all[u.ID] = u
		}
		require.NoError(t, e.index(st.kv, src, doc.Units, []byte(md), nil))
	}
	return func(act string) []string {
		t.Helper()
		r, err := e.Retrieve(context.Background(), &plugin.RetrieveInput{
			Intents: []plugin.Intent{{ID: "i1", Act: act, Target: target}}, KUs: all, MaxResults: 2})
		require.NoError(t, err)
		var out []string
		for _, ri := range r.ResolvedIntents {
			for _, s := range ri.Evidence {
				out = append(out, s.KU.Title)
			}
		}
		return out
	}
}
