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

func TestParseRejectsDamage(t *testing.T) {
	gz := func(s string) []byte {
		var b bytes.Buffer
		w := gzip.NewWriter(&b)
		w.Write([]byte(s))
		w.Close()
		return b.Bytes()
	}
	rows, err := parse(gz("capit\tS:uppercas majuscul\tH:charact\n"))
	require.NoError(t, err)
	assert.Equal(t, []Relative{{"uppercas", Synonym, 0}, {"majuscul", Synonym, 1}, {"charact", Broader, 0}}, rows["capit"])
	for _, bad := range []string{"capit\n", "capit\tX:foo\n", "capit\tS\n", "\tS:foo\n"} {
		_, err := parse(gz(bad))
		assert.Error(t, err, "%q", bad)
	}
	_, err = parse([]byte("not gzip"))
	assert.Error(t, err)
}
