package valsymbolic

import "testing"

// TestLeadingNumberIsSaid: a number that opens a sentence ("429 replies
// are retried") is part of what the statement says; only an ordered list's
// marker ("1. ", "2) ") is markup left out.
func TestLeadingNumberIsSaid(t *testing.T) {
	said := [][2]string{ // an answer's line, and the text of its one statement
		{"429 and 5xx replies are retried with backoff. [1]", "429 and 5xx replies are retried with backoff."},
		{"1. Run the installer. [1]", "Run the installer."},
		{"2) Restart the server. [1]", "Restart the server."},
		{"- 3 retries at most. [1]", "3 retries at most."},
	}
	for _, pair := range said {
		if ss := statements(pair[0]); len(ss) != 1 || ss[0].text != pair[1] {
			t.Errorf("statements(%q) = %+v, want one saying %q", pair[0], ss, pair[1])
		}
	}
}
