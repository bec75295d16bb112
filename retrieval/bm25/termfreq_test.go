package bm25

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/retrieval/kvtest"
)

// TestTermFreq: TermFreq counts the indexed sources holding a term (a
// source with the term in several units counts once), in step with
// changes.
func TestTermFreq(t *testing.T) {
	kv := kvtest.New()
	x := New(DefaultParams())
	h, n, err := x.TermFreq(kv, "tide")
	require.NoError(t, err)
	require.Equal(t, 0, h)
	require.Zero(t, n)

	unit := func(id, body string) *kus.KU { return &kus.KU{ID: id, SourceID: "s", TextBody: body} }
	a := []*kus.KU{unit("a::0", "Tides rise twice a day."), unit("a::1", "The moon pulls the tides."), unit("a::2", "Waves break.")}
	require.NoError(t, x.IndexSource(kv, "a", a, nil))
	term := x.p.Analyzer.Append(nil, "tides")[0]
	c := []*kus.KU{{ID: "c::0", SourceID: "c", TextBody: "Tides again."}, {ID: "c::1", SourceID: "c", TextBody: "Sand."}}
	require.NoError(t, x.IndexSource(kv, "c", c, nil))
	h, n, err = x.TermFreq(kv, term)
	require.NoError(t, err)
	require.Equal(t, 2, h, "a and c hold it, a in two units")
	require.Equal(t, 2, n)
	h, _, err = x.TermFreq(kv, "zzz-unknown")
	require.NoError(t, err)
	require.Zero(t, h)

	b := []*kus.KU{unit("a::0", "Waves only.")}
	require.NoError(t, x.IndexSource(kv, "a", b, []string{"a::0", "a::1", "a::2"}))
	h, n, err = x.TermFreq(kv, term)
	require.NoError(t, err)
	require.Equal(t, 1, h, "only c holds it now")
	require.Equal(t, 2, n)
}
