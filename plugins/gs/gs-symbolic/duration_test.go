package gssymbolic

import "testing"

const budgetMD = "# Models\n\n## Budget, timeouts and retries\n\n" +
	"Every call to the model service counts against the request's budget (`maxCalls`, 5 by default). " +
	"A plugin whose declared calls to the model service exceed what is left is not called. " +
	"Each call is bounded by the role's `timeoutMs`. " +
	"Failures of a model service call keep a stable code in the trace: `llm_auth`, `llm_rate_limited`, `llm_budget`.\n"

// TestDurationQuestionShowsTheSpan: "how long may a call take" is
// answered by the statement that gives a span of time (a timeout
// setting), not only by those that share the question's other words.
func TestDurationQuestionShowsTheSpan(t *testing.T) {
	src := parseMD(t, "README.md", budgetMD)
	md := solveMD(t, "describe", "How long may one of those model service calls take before it gives up?",
		"How long may one of those model service calls take before it gives up", []mdSource{src},
		src.leaf(t, "Budget, timeouts and retries"))
	checkMD(t, md, []string{"timeoutMs"}, nil)
}

// TestDurationAsked: how long, how soon and how often ask for a span of
// time; how many does not.
func TestDurationAsked(t *testing.T) {
	for q, want := range map[string]bool{
		"how long may a call take?":            true,
		"How soon should they get back to me?": true,
		"how often does the example check?":    true,
		"how many files does it read?":         false,
	} {
		if got := cueOf("describe", q, q).duration; got != want {
			t.Errorf("%q: duration %v, want %v", q, got, want)
		}
	}
	for s, want := range map[string]bool{
		"Each call is bounded by the role's timeoutMs.":   true,
		"They answer within 48 hours.":                    true,
		"Saves in a burst reload once (150 ms debounce).": true,
		"Failures keep a stable code in the trace.":       false,
		"It reads 5 files.":                               false,
	} {
		if got := durationRE.MatchString(s); got != want {
			t.Errorf("%q: duration %v, want %v", s, got, want)
		}
	}
}
