package gssymbolic

import (
	"strings"
	"testing"
)

const logrusMD = "# Logrus\n\n#### Example\n\nNote that it is completely api-compatible with the stdlib logger, so you can replace your `log` imports everywhere with `log \"github.com/sirupsen/logrus\"`. You can customize it all you want:\n\n```go\n" +
	"package main\n\nimport (\n  \"os\"\n  log \"github.com/sirupsen/logrus\"\n)\n\nfunc init() {\n" +
	"  // Log as JSON instead of the default ASCII formatter.\n  log.SetFormatter(&log.JSONFormatter{})\n\n" +
	"  // Output to stdout instead of the default stderr\n  // Can be any io.Writer, see below for File example\n  log.SetOutput(os.Stdout)\n\n" +
	"  // Only log the warning severity or above.\n  log.SetLevel(log.WarnLevel)\n}\n\n" +
	"func main() {\n  log.WithFields(log.Fields{\n    \"animal\": \"walrus\",\n  }).Info(\"A group of walrus emerges from the ocean\")\n}\n```\n\n" +
	"#### Level logging\n\nLogrus has seven logging levels: Trace, Debug, Info, Warning, Error, Fatal and Panic.\n\n" +
	"You can set the logging level on a `Logger`, then it will only log entries with that severity or anything above it:\n\n" +
	"```go\n// Will log anything that is info or above (warn, error, fatal, panic). Default.\nlogrus.SetLevel(logrus.InfoLevel)\n```\n"

const chiMD = "# chi\n\n### Router interface\n\nBuilt on top of the tree is the `Router` interface:\n\n```go\n" +
	"type Router interface {\n\thttp.Handler\n\n" +
	"\t// Use appends one or more middlewares onto the Router stack.\n\tUse(middlewares ...func(http.Handler) http.Handler)\n\n" +
	"\t// Group adds a new inline-Router along the current routing\n\t// path, with a fresh middleware stack for the inline-Router.\n\tGroup(fn func(r Router)) Router\n\n" +
	"\t// Route mounts a sub-Router along a `pattern` string.\n\tRoute(pattern string, fn func(r Router)) Router\n\n" +
	"\t// Mount attaches another http.Handler along ./pattern/*\n\tMount(pattern string, h http.Handler)\n\n" +
	"\t// Handle and HandleFunc adds routes for `pattern` that matches\n\t// all HTTP methods.\n\tHandle(pattern string, h http.Handler)\n\tHandleFunc(pattern string, h http.HandlerFunc)\n\n" +
	"\t// HTTP-method routing along `pattern`\n\tConnect(pattern string, h http.HandlerFunc)\n\tDelete(pattern string, h http.HandlerFunc)\n" +
	"\tGet(pattern string, h http.HandlerFunc)\n\tHead(pattern string, h http.HandlerFunc)\n\tPost(pattern string, h http.HandlerFunc)\n}\n```\n"

// TestCodeBlockExamples: what a task takes from a block of documentation
// code.
func TestCodeBlockExamples(t *testing.T) {
	checkPages(t, []pageCase{
		// A comment in documentation code says what the statement under it
		// does, as a reference page's description says what its command
		// does; the statement it describes answers a task the comment
		// states, without the rest of the program around it.
		{name: "a comment in code is an example", id: "logrus/README.md", md: logrusMD,
			act: "implement", prompt: "How do I make logrus log only warnings and more severe messages?", target: "make logrus log only warnings and more severe messages",
			leaves: []string{"Example", "Level logging"}, want: []string{"- Only log the warning severity or above:\n\n  ```go\n  log.SetLevel(log.WarnLevel)\n  ```\n"},
			not: []string{"func main", "walrus", "  }\n"}},
		// In a block too long to show whole, code that calls a function
		// named for the task's action ("Mount(" for "mount") is shown
		// beside the comment that uses the task's other words.
		{name: "a call named for the action", id: "chi/README.md", md: chiMD,
			act: "implement", prompt: "How do I mount a sub-router in chi?", target: "mount a sub-router in chi",
			leaves: []string{"Router interface"}, want: []string{"Mount(pattern string, h http.Handler)", "Route(pattern string, fn func(r Router)) Router"}, not: []string{"Use(", "Group("}},
	})
}

// TestExampleCodeKeepsItsClosingFence: the code of an example that ends
// its page keeps its closing fence (the unit's range may end before it).
func TestExampleCodeKeepsItsClosingFence(t *testing.T) {
	src := parseMD(t, "logrus/README.md", logrusMD)
	md := solveMD(t, "implement", "How do I set the logging level of a logger in logrus?", "set the logging level of a logger in logrus",
		[]mdSource{src}, src.leaf(t, "Level logging"))
	checkMD(t, md, []string{"logrus.SetLevel(logrus.InfoLevel)\n  ```\n"}, nil)
	if n := strings.Count(md, "```"); n%2 != 0 {
		t.Errorf("the answer opens a code block it does not close:\n%s", md)
	}
}
