package kus

import "testing"

// TestDestScanCost prices a destination scan as goldmark reads it: to the
// ')' closing what the destination opened, a space, '>' of <...>, or the
// end of the line, never past the limit.
func TestDestScanCost(t *testing.T) {
	for _, tc := range []struct {
		line  string
		limit int
		want  int
	}{
		{"](a.md) rest", 100, 5},
		{"](a(b)c) rest", 100, 6},
		{"](a(b(c) rest", 100, 7},
		{"](a(b(c(d(e", 100, 9},
		{"](a(b(c(d(e", 4, 4},
		{"](<a b>) x", 100, 5},
		{`](a\)b) x`, 100, 5},
	} {
		if got := destScanCost([]byte(tc.line), tc.limit); got != tc.want {
			t.Errorf("destScanCost(%q, %d) = %d, want %d", tc.line, tc.limit, got, tc.want)
		}
	}
}
