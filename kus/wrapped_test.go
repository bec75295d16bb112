package kus

import "testing"

// TestWrappedLines counts the lines that continue a paragraph, leaving
// code blocks, blank lines and paragraph starts out.
func TestWrappedLines(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want int
	}{
		{"", 0},
		{"one line\n", 0},
		{"a\nb\nc\n", 2},
		{"a\n\nb\n\nc\n", 0},
		{"```\na\nb\nc\n```\n", 0},
		{"~~~\na\nb\n~~~\nx\ny\n", 1},
		{"    code\n    more\n\ttab\n", 0},
		{"para\n  still para\n", 1},
	} {
		if got := wrappedLines([]byte(tc.src)); got != tc.want {
			t.Errorf("wrappedLines(%q) = %d, want %d", tc.src, got, tc.want)
		}
	}
}
