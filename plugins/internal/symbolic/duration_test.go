package symbolic

import "testing"

func TestAsksDuration(t *testing.T) {
	for q, want := range map[string]bool{
		"how long may a call take?":            true,
		"How soon should they get back to me?": true,
		"how often does the example check?":    true,
		"how many files does it read?":         false,
	} {
		if got := AsksDuration(q); got != want {
			t.Errorf("%q: %v, want %v", q, got, want)
		}
	}
}

func TestGivesDuration(t *testing.T) {
	for s, want := range map[string]bool{
		"Each call is bounded by the role's timeoutMs.":   true,
		"They answer within 48 hours.":                    true,
		"Saves in a burst reload once (150 ms debounce).": true,
		"Failures keep a stable code in the trace.":       false,
		"It reads 5 files.":                               false,
		"The call failed with wrapper_timeout.":           false,
		"Wait with --timeout 10.":                         true,
	} {
		if got := GivesDuration(s); got != want {
			t.Errorf("%q: %v, want %v", s, got, want)
		}
	}
}

func TestWithoutDurationAdverb(t *testing.T) {
	if got := WithoutDurationAdverb("How soon should they get back to me?"); got != "How should they get back to me?" {
		t.Errorf("got %q", got)
	}
}
