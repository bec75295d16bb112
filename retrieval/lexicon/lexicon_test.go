package lexicon

import (
	"bytes"
	"compress/gzip"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func has(rel []Relative, term string, kind Kind) bool {
	return slices.ContainsFunc(rel, func(r Relative) bool { return r.Term == term && r.Kind == kind })
}

// The embedded table reads, is keyed by analysed terms and holds the
// relations retrieval relies on.
func TestEmbeddedTable(t *testing.T) {
	require.NoError(t, Err())
	assert.True(t, has(Related("capit"), "uppercas", Synonym), "capital letter: uppercase")
	assert.True(t, has(Related("processor"), "cpu", Synonym), "processor: CPU (a sense not in the tagged corpus)")
	assert.True(t, has(Related("run"), "execut", Synonym), "run a program: execute (a late sense)")
	assert.True(t, has(Related("processor"), "process", Derived))
	assert.Nil(t, Related("nosuchtermanywhere"))
	for _, r := range Related("capit") {
		assert.NotEqual(t, "capit", r.Term, "a term is not its own relative")
	}
}

func TestReadTableRejectsDamage(t *testing.T) {
	gz := func(s string) []byte {
		var b bytes.Buffer
		w := gzip.NewWriter(&b)
		w.Write([]byte(s))
		w.Close()
		return b.Bytes()
	}
	tab, err := readTable(gz("capit\tS:uppercas majuscul\tH:charact\nzip\tS:compress\n"))
	require.NoError(t, err)
	assert.Equal(t, []Relative{{"uppercas", Synonym, 0}, {"majuscul", Synonym, 1}, {"charact", Broader, 0}}, tab.related("capit"))
	assert.Equal(t, []Relative{{"compress", Synonym, 0}}, tab.related("zip"))
	assert.Nil(t, tab.related("capi"))
	assert.Nil(t, tab.related("zzz"))
	for _, bad := range []string{"capit\n", "capit\t\n", "\tS:foo\n", "zip\tS:a\ncapit\tS:b\n", "a\tS:b\na\tS:c\n"} {
		_, err := readTable(gz(bad))
		assert.Error(t, err, "%q", bad)
	}
	_, err = readTable([]byte("not gzip"))
	assert.Error(t, err)
	for _, bad := range []string{"X:foo", "S", "S:"} {
		_, err := parseRow(bad)
		assert.Error(t, err, "%q", bad)
	}
}
