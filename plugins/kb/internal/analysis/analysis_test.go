package analysis

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/plugins/sdk/text"
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
