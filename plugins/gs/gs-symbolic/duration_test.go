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
