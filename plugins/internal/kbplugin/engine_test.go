package kbplugin

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/retrieval/bm25"
	"github.com/mrpvm/mrpvm/retrieval/kvtest"
)

// memStore is a plugin.Store over one in-memory namespace.
type memStore struct{ kv *kvtest.Mem }

func (s memStore) View(fn func(plugin.KV) error) error   { return fn(s.kv) }
func (s memStore) Update(fn func(plugin.KV) error) error { return fn(s.kv) }

// indexLeaf indexes through e into kv the page src of one leaf unit
// titled title whose text is body; raw is the page's source text (nil for
// none).
func indexLeaf(t *testing.T, e *Engine, kv plugin.KV, src, title, body string, raw []byte) {
	t.Helper()
	u := &kus.KU{ID: src + "::0", SourceID: src, Level: kus.LevelLeaf, Title: title, TextBody: body}
	require.NoError(t, e.index(kv, src, []*kus.KU{u}, raw, nil))
}

// searchSources searches e for query and returns the source IDs of the
// hits in rank order.
func searchSources(t *testing.T, e *Engine, query string, k int, bySource bool) []string {
	t.Helper()
	r, err := e.Search(context.Background(), plugin.SearchRequest{Query: query, K: k, BySource: bySource})
	require.NoError(t, err)
	ids := make([]string, len(r.Hits))
	for i, h := range r.Hits {
		ids[i] = h.SourceID
	}
	return ids
}

// The question says "capitals" and "processor"; the pages that answer it
// say "upper-case" and "CPUs". kb-balanced reaches them through the
// lexicon (capital -> uppercase -> upper-case) and the knowledge base's
// own spellings (cpu -> cpus); kb-fast, which searches the question's
// words alone, does not.
func TestBalancedReachesPagesInOtherWords(t *testing.T) {
	st := memStore{kv: kvtest.New()}
	pages := map[string]string{
		"tr.md":      "Translate a file to upper-case.",
		"nproc.md":   "Print the number of processing units (normally CPUs) available.",
		"tax.md":     "Compute the tax on the gains of a year.",
		"rename.md":  "Rename files, keeping their letters.",
		"printf.md":  "Format and print a file.",
		"lscpu.md":   "Display information about the CPU architecture and every CPU processor.",
		"city.md":    "Show the weather in a city.",
		"ls.md":      "List files in a folder.",
		"gzip.md":    "Compress a file.",
		"top.md":     "Show running processes.",
		"mount.md":   "Mount a file system.",
		"date.md":    "Print the current date.",
		"letters.md": "Send letters by post.",
	}
	// Pages on other subjects, as a knowledge base holds many.
	for i, w := range []string{"image", "audio", "video", "disk", "network", "printer", "mail", "calendar",
		"database", "archive", "package", "kernel", "service", "editor", "browser", "font"} {
		pages[w+".md"] = fmt.Sprintf("Manage the %s settings of tool %d.", w, i)
	}
	fast, balanced := New(Fast, st), New(Balanced, st)
	for src, body := range pages {
		indexLeaf(t, balanced, st.kv, src, src, body, nil)
	}
	first := func(e *Engine, q string) string {
		if hits := searchSources(t, e, q, 3, true); len(hits) > 0 {
			return hits[0]
		}
		return ""
	}
	for q, want := range map[string]string{
		"How do I convert a file to capitals?": "tr.md",
		"Which cpu units are there?":           "nproc.md",
	} {
		assert.Equal(t, want, first(balanced, q), "kb-balanced: %s", q)
		assert.NotEqual(t, want, first(fast, q), "kb-fast: %s", q)
	}
}

// The question breaks a file into pieces. The lexicon relates "break" to
// "pause", which the game pages use (with their falling "pieces") in
// another sense: the relative lifts the games among the best pages. The
// terms the games share ("game", "rotate", "drop") are not learnt from
// them, so the games do not climb above the pages that match the
// question's own words.
func TestFeedbackReadsThePagesOfTheQuestionsOwnWords(t *testing.T) {
	st := memStore{kv: kvtest.New()}
	// pages maps a page's title to its text; the page is the file of its
	// title.
	pages := map[string]string{
		"split":    "Split a file into pieces.",
		"break":    "Break out of a loop.",
		"unlock":   "Break a lock another process holds.",
		"debug":    "Break at a line of a program.",
		"bastet":   "Tetris game: pause the game, rotate and drop the pieces.",
		"yetris":   "Tetris game: pause the game, drop and rotate the pieces.",
		"blockout": "Tetris game in 3D: rotate the pieces, drop them, pause the game.",
		"cuyo":     "Tetris game: drop the pieces, rotate them, pause the game.",
	}
	for _, w := range []string{"compress", "print", "copy", "move", "delete", "sort", "encrypt", "sign", "edit", "hash"} {
		pages[w] = fmt.Sprintf("%s a file.", w)
	}
	// Pages on other subjects, as a knowledge base holds many.
	for i := range 120 {
		pages[fmt.Sprintf("tool%d", i)] = fmt.Sprintf("Manage the settings of tool %d.", i)
	}
	balanced := New(Balanced, st)
	for title, body := range pages {
		indexLeaf(t, balanced, st.kv, title+".md", title, body, nil)
	}
	ranked := searchSources(t, balanced, "How do I break a file into pieces?", 5, true)
	require.NotEmpty(t, ranked)
	assert.Equal(t, "split.md", ranked[0], ranked)
	assert.Equal(t, "break.md", ranked[1], "a page of the question's own words comes before the games: %v", ranked)
}

// tailReferrers is an engine of profile prof over a new store holding
// common/follow.md, a page on following a growing log file,
// common/tail.md, whose text is tail, and four pages whose examples run
// tail; put (re)indexes a page of one leaf unit.
func tailReferrers(t *testing.T, prof Profile, tail string) (e *Engine, st memStore, put func(src, text string)) {
	t.Helper()
	st = memStore{kv: kvtest.New()}
	e = New(prof, st)
	put = func(src, text string) {
		t.Helper()
		indexLeaf(t, e, st.kv, src, src, text, []byte(text))
	}
	put("common/follow.md", "Keep reading a growing log file.")
	put("common/tail.md", tail)
	for i := range 4 {
		put(fmt.Sprintf("common/tool%d.md", i), fmt.Sprintf("Tool %d prints its state: `tool%d state | tail -n 5`.", i, i))
	}
	return e, st, put
}

// Two pages match the question equally; the one other pages run in their
// examples ranks first, and loses that place when those pages stop
// referring to it (a re-ingest of the referring pages updates the counts).
func TestReferencedPageBreaksATie(t *testing.T) {
	e, st, put := tailReferrers(t, Fast, "Keep reading a growing log file.")
	first := func() string {
		hits := searchSources(t, e, "keep reading a growing log file", 2, true)
		require.Len(t, hits, 2)
		return hits[0]
	}
	n, err := bm25.Referrers(st.kv, "tail")
	require.NoError(t, err)
	assert.Equal(t, 4, n)
	assert.Equal(t, "common/tail.md", first())

	for i := range 4 {
		put(fmt.Sprintf("common/tool%d.md", i), fmt.Sprintf("Tool %d prints its state: `tool%d state | follow`.", i, i))
	}
	assert.Equal(t, "common/follow.md", first())

	// A removed page takes its references with it.
	for i := range 4 {
		require.NoError(t, e.index(st.kv, fmt.Sprintf("common/tool%d.md", i), nil, nil, nil))
	}
	n, err = bm25.Referrers(st.kv, "follow")
	require.NoError(t, err)
	assert.Zero(t, n)
}

// The prior saturates: a page every other page names gains at most
// referenceWeight, and an unreferenced page nothing.
func TestWeighReferencesSaturates(t *testing.T) {
	kv := kvtest.New()
	require.NoError(t, bm25.SetReferences(kv, "a.md", []string{"echo", "tail"}))
	for i := range 500 {
		require.NoError(t, bm25.SetReferences(kv, fmt.Sprint(i, ".md"), []string{"echo"}))
	}
	cands := []scored{{id: "x", source: "x.md", score: 1}, {id: "t", source: "common/tail.md", score: 1}, {id: "e", source: "echo.md", score: 1}}
	require.NoError(t, weighReferences(kv, cands))
	assert.Equal(t, []string{"e", "t", "x"}, []string{cands[0].id, cands[1].id, cands[2].id})
	assert.InDelta(t, 1+referenceWeight*501/504.0, cands[0].score, 1e-9)
	assert.InDelta(t, 1+referenceWeight*1/4.0, cands[1].score, 1e-9)
	assert.Equal(t, 1.0, cands[2].score)
}

// The reference prior weighs the whole candidate pool before it is cut to
// k: the page it lifts to the first place is first whether one hit or
// several are asked for, with every profile.
func TestFirstHitDoesNotDependOnK(t *testing.T) {
	for _, prof := range []Profile{Fast, Balanced, ThinkingDB} {
		e, _, _ := tailReferrers(t, prof, "Keep reading a growing log file as it is written.")
		for _, bySource := range []bool{true, false} {
			var firsts []string
			for _, k := range []int{1, 2, 5} {
				hits := searchSources(t, e, "keep reading a growing log file", k, bySource)
				require.NotEmpty(t, hits)
				firsts = append(firsts, hits[0])
			}
			assert.Equal(t, []string{"common/tail.md", "common/tail.md", "common/tail.md"}, firsts, "%s, by source %v", prof.ID, bySource)
		}
	}
}

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
	indexMarkdown(t, e, st.kv, all, "plugin::gs-quill", solverPage)
	indexMarkdown(t, e, st.kv, all, "notes.md", "# Notes\n\nA readable answer cites its evidence.\n")
	indexMarkdown(t, e, st.kv, all, "models.md", "# Models\n\nEach model role names an endpoint and a model.\n")

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

// indexMarkdown parses md as the Markdown source src, indexes its units
// through e into kv, and adds them to all.
func indexMarkdown(t *testing.T, e *Engine, kv plugin.KV, all kuMap, src, md string) {
	t.Helper()
	doc, err := kus.Parse([]byte(md), kus.SourceInfo{SourceID: src, SourceName: src, SourceType: kus.SourceMarkdown})
	require.NoError(t, err)
	for _, u := range doc.Units {
		all[u.ID] = u
	}
	require.NoError(t, e.index(kv, src, doc.Units, []byte(md), nil))
}

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
		indexMarkdown(t, e, st.kv, all, src, md)
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

// Retrieve gathers the listed subsection for a list question (act
// "identify") and not for a description, and the named section for a
// how-to (act "implement").
func TestRetrieveGathersSections(t *testing.T) {
	for _, tc := range []struct {
		name        string
		pages       map[string]string
		target, act string
		want        []string
		otherAct    string // an act that does not gather the section, the last of want
	}{
		{name: "listed subsection", pages: map[string]string{
			"router.md": listedMD,
			"notes.md":  "# Notes\n\nA handler answers one request.\n",
			"server.md": "# Server\n\nThe server listens on a port and logs each request.\n",
		}, target: "optional package of standard middlewares", act: "identify", want: []string{"Middlewares", "Core middlewares"}, otherAct: "describe"},
		{name: "named section", pages: map[string]string{
			"widget.md": namedMD,
			"notes.md":  "# Widget values\n\nA widget holds values; override widget values to change the values a widget holds.\n",
			"server.md": "# Server\n\nThe server loads its configuration file at start.\n",
		}, target: "override the values of a widget", act: "implement", want: []string{"Why widget?", "Setting Overrides"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			titles := retrievedTitles(t, tc.pages, tc.target)
			assert.Equal(t, tc.want, titles(tc.act))
			if tc.otherAct != "" {
				assert.NotContains(t, titles(tc.otherAct), tc.want[len(tc.want)-1])
			}
		})
	}
}
