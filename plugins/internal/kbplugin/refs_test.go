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
		u := &kus.KU{ID: src + "::0", SourceID: src, Level: kus.LevelLeaf, Title: src, TextBody: text}
		require.NoError(t, e.index(st.kv, src, []*kus.KU{u}, []byte(text), nil))
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
		r, err := e.Search(context.Background(), plugin.SearchRequest{Query: "keep reading a growing log file", K: 2, BySource: true})
		require.NoError(t, err)
		require.Len(t, r.Hits, 2)
		return r.Hits[0].SourceID
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
				r, err := e.Search(context.Background(), plugin.SearchRequest{Query: "keep reading a growing log file", K: k, BySource: bySource})
				require.NoError(t, err)
				require.NotEmpty(t, r.Hits)
				firsts = append(firsts, r.Hits[0].SourceID)
			}
			assert.Equal(t, []string{"common/tail.md", "common/tail.md", "common/tail.md"}, firsts, "%s, by source %v", prof.ID, bySource)
		}
	}
}
