package valsymbolic

import "testing"

// TestWhyLeavesOutTheAlternativeItIsContrastedWith: "Why X instead of
// Y?" and "Why X rather than Y?" ask the reason for X; Y is what the user
// expected, which the reason need not name. A circumstance clause before
// the contrast is left out with it.
func TestWhyLeavesOutTheAlternativeItIsContrastedWith(t *testing.T) {
	for _, pair := range [][2]string{
		{"does the chat show the answer a paragraph at a time instead of streaming it", "does the chat show the answer a paragraph at a time"},
		{"are pull requests merged with merge commits rather than squashed", "are pull requests merged with merge commits"},
		{"does it print a warning, instead of failing", "does it print a warning"},
		{"does the build stop when a test fails rather than going on", "does the build stop"},
	} {
		if asked := whyAsked(pair[0]); asked != pair[1] {
			t.Errorf("whyAsked(%q) = %q, want %q", pair[0], asked, pair[1])
		}
	}
}
