package valsymbolic

import "testing"

// TestLeadingNumberIsSaid: a number that opens a sentence ("429 replies
// are retried") is part of what the statement says; only an ordered list's
// marker ("1. ", "2) ") is markup left out.
func TestLeadingNumberIsSaid(t *testing.T) {
	cases := []struct {
		line, text string
	}{
		{"429 and 5xx replies are retried with backoff. [1]", "429 and 5xx replies are retried with backoff."},
		{"1. Run the installer. [1]", "Run the installer."},
		{"2) Restart the server. [1]", "Restart the server."},
		{"- 3 retries at most. [1]", "3 retries at most."},
	}
	for _, tc := range cases {
		t.Run(tc.line, func(t *testing.T) {
			ss := statements(tc.line)
			if len(ss) != 1 || ss[0].text != tc.text {
				t.Fatalf("statements %+v, want one with text %q", ss, tc.text)
			}
		})
	}
}
