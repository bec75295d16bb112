package bm25

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Two pages say "processor" and "CPU" together; a third says only "CPU".
// Feedback from a search for "processor" learns "cpu" from the first two,
// and the search with it reaches the third page, which the query alone
// cannot.
func TestFeedbackReachesPagesWithOtherWords(t *testing.T) {
	x, kv := defaultKB(t, [][2]string{
		{"a.md", "Show the processor model and CPU flags."},
		{"b.md", "Set the processor frequency of each CPU core."},
		{"c.md", "Print the number of CPU units available."},
		{"d.md", "Convert images between formats."},
		{"e.md", "Format a disk partition."},
	})
	r, err := x.SearchQuery(kv, Query{Text: "processor", K: 10})
	require.NoError(t, err)
	require.Len(t, r.Hits, 2)
	extra, ws, err := x.Feedback(kv, r.Hits, r.Terms, FeedbackWeight)
	require.NoError(t, err)
	require.Contains(t, extra, "cpu")
	assert.NotContains(t, extra, "processor", "the query's own terms are not added")
	assert.NotContains(t, extra, "model", "a word of one page only is not added")
	for _, w := range ws {
		assert.Greater(t, w, 0.0)
		assert.LessOrEqual(t, w, FeedbackWeight)
	}
	r2, err := x.SearchQuery(kv, Query{Text: "processor", K: 10, Extra: extra, ExtraWeights: ws})
	require.NoError(t, err)
	srcs := sources(r2.Hits)
	assert.Contains(t, srcs, "c.md")
	assert.Equal(t, r.Terms, r2.Terms, "the reported terms are the query's own")
	assert.Len(t, r2.IDF, len(r2.Terms))
	assert.Less(t, slicesIndex(srcs, "c.md"), len(srcs))
	assert.Greater(t, slicesIndex(srcs, "c.md"), slicesIndex(srcs, "a.md"), "the added terms do not outweigh the query")
}

func slicesIndex(s []string, v string) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	return len(s)
}

// A query whose every term the best page holds is matched more confidently
// than one of whose terms the best page holds only one, and a query that
// matches nothing has confidence 0.
func TestConfidence(t *testing.T) {
	x, kv := defaultKB(t, [][2]string{
		{"a.md", "Follow a log file as it grows."},
		{"b.md", "Rotate log files daily."},
		{"c.md", "Convert images between formats."},
	})
	k1 := x.Params().K1
	strong, err := x.SearchQuery(kv, Query{Text: "follow log file grows", K: 3})
	require.NoError(t, err)
	weak, err := x.SearchQuery(kv, Query{Text: "rotate images follow", K: 3})
	require.NoError(t, err)
	none, err := x.SearchQuery(kv, Query{Text: "zebra", K: 3})
	require.NoError(t, err)
	cs, cw := strong.Confidence(k1), weak.Confidence(k1)
	assert.Greater(t, cs, cw)
	assert.Greater(t, cw, 0.0)
	assert.LessOrEqual(t, cs, 1.0)
	assert.Equal(t, 0.0, none.Confidence(k1))
}
