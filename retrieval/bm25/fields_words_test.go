package bm25

import (
	"strings"
	"testing"
)

// TestHasWords: hasWords counts words as strings.Fields splits them.
func TestHasWords(t *testing.T) {
	for _, s := range []string{"", "  ", "one", "a b c d e", "a b c d e f", " a\tb\nc  d e f g ", "ünï cödé wörds  in\u00a0text here and more", strings.Repeat("w ", 50)} {
		for n := 1; n <= 8; n++ {
			if got, want := hasWords(s, n), len(strings.Fields(s)) >= n; got != want {
				t.Errorf("hasWords(%q, %d) = %v, want %v", s, n, got, want)
			}
		}
	}
}
