package analysis

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/plugin/text"
)

func TestAnalyseMatchesTheAnalyzer(t *testing.T) {
	a := text.English()
	for _, s := range []string{
		"The kb-fast plugin uses x86-64 and IL-6 with --directory flags.",
		"Plain words only, running quickly.",
		"TNF-α and NF-κB; snake_case_name",
		"",
	} {
		t.Run(s, func(t *testing.T) {
			got := Analyse(a, s)
			assert.Equal(t, a.Append(nil, s), append([]string(nil), got.All...))
			var main []string
			var ids []uint32
			a.Each(s, func(tok text.Token) {
				if !tok.Part {
					main = append(main, tok.Term)
				}
				ids = append(ids, tok.ID)
			})
			assert.Equal(t, main, append([]string(nil), got.Main...))
			assert.Equal(t, ids, append([]uint32(nil), got.IDs...))
			hit, ok := Lookup(a, s)
			require.True(t, ok)
			assert.Same(t, got, hit)
		})
	}
}

func TestLookupIsBoundedAndPerAnalyzer(t *testing.T) {
	a, b := text.English(), text.New(text.Options{})
	Analyse(a, "first text")
	_, ok := Lookup(b, "first text")
	assert.False(t, ok, "another analyzer's terms are not shared")
	for i := range Recent {
		Analyse(a, fmt.Sprintf("filler %d", i))
	}
	_, ok = Lookup(a, "first text")
	assert.False(t, ok, "evicted after Recent newer texts")
	_, ok = Lookup(a, fmt.Sprintf("filler %d", Recent-1))
	assert.True(t, ok)
	recent.mu.Lock()
	assert.LessOrEqual(t, len(recent.m), Recent)
	recent.mu.Unlock()
}

// TestLookupTellsApartTextsWithOneKey fills the ring with texts that share
// their length and the bytes the ring's key samples, and checks that each
// one is found, evicted in turn, and never confused with another.
func TestLookupTellsApartTextsWithOneKey(t *testing.T) {
	a := text.English()
	pad := "some words around the differing middle part of a text"
	mk := func(i int) string { return pad + fmt.Sprintf(" w%03d x ", i%1000) + pad + pad + "." }
	// The texts differ only where the key samples no byte; check it, so
	// that the test keeps testing chains.
	require.Equal(t, keyOf(a, mk(1)), keyOf(a, mk(2)))
	n := Recent + Recent/2
	got := make([]*Text, n)
	for i := range n {
		got[i] = Analyse(a, mk(i))
	}
	for i := range n {
		hit, ok := Lookup(a, mk(i))
		if i < n-Recent {
			assert.False(t, ok, "text %d evicted", i)
			continue
		}
		require.True(t, ok, "text %d kept", i)
		assert.Same(t, got[i], hit, "text %d", i)
	}
	recent.mu.Lock()
	assert.LessOrEqual(t, len(recent.m), Recent)
	assert.LessOrEqual(t, len(recent.slots), Recent)
	recent.mu.Unlock()
}
