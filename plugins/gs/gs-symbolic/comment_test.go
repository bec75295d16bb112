package gssymbolic

import (
	"strings"
	"testing"
)

// TestCodeBlockExamples: what a task takes from a block of documentation
// code.
func TestCodeBlockExamples(t *testing.T) {
	checkPages(t, []pageCase{
		// A comment in documentation code says what the statement under it
		// does, as a reference page's description says what its command
		// does; the statement it describes answers a task the comment
		// states, without the rest of the program around it.
		{name: "a comment in code is an example", id: "logrus/README.md", md: testdataMD(t, "logrus-example.md"),
			act: "implement", prompt: "How do I make logrus log only warnings and more severe messages?", target: "make logrus log only warnings and more severe messages",
			leaves: []string{"Example", "Level logging"}, want: []string{"- Only log the warning severity or above:\n\n  ```go\n  log.SetLevel(log.WarnLevel)\n  ```\n"},
			not: []string{"func main", "walrus", "  }\n"}},
		// In a block too long to show whole, code that calls a function
		// named for the task's action ("Mount(" for "mount") is shown
		// beside the comment that uses the task's other words.
		{name: "a call named for the action", id: "chi/README.md", md: testdataMD(t, "chi-router.md"),
			act: "implement", prompt: "How do I mount a sub-router in chi?", target: "mount a sub-router in chi",
			leaves: []string{"Router interface"}, want: []string{"Mount(pattern string, h http.Handler)", "Route(pattern string, fn func(r Router)) Router"}, not: []string{"Use(", "Group("}},
	})
}

// TestExampleCodeKeepsItsClosingFence: the code of an example that ends
// its page keeps its closing fence (the unit's range may end before it).
func TestExampleCodeKeepsItsClosingFence(t *testing.T) {
	src := parseMD(t, "logrus/README.md", testdataMD(t, "logrus-example.md"))
	md := solveMD(t, "implement", "How do I set the logging level of a logger in logrus?", "set the logging level of a logger in logrus",
		[]mdSource{src}, src.leaf(t, "Level logging"))
	checkMD(t, md, []string{"logrus.SetLevel(logrus.InfoLevel)\n  ```\n"}, nil)
	if n := strings.Count(md, "```"); n%2 != 0 {
		t.Errorf("the answer opens a code block it does not close:\n%s", md)
	}
}
