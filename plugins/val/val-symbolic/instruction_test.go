package valsymbolic

import (
	"testing"

	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins/internal/plugintest"
)

// TestProseInstructionAnswersHowTo: a how-to answered from a page on a
// process, whose step is a polite request in prose ("please use ..."),
// shows something to do although another unit of the evidence has code;
// prose that asks nothing of the reader does not.
func TestProseInstructionAnswersHowTo(t *testing.T) {
	withCode := plugintest.Text("ku-code", "Handlers", "web/README.md", 40,
		"Register a handler:\n\n```go\nr.HandleFunc(\"/\", home)\n```\n")
	// asking answers the how-to by citing a process page that says body,
	// with the unit holding code among the evidence as well.
	asking := func(body string) plugin.ValidateInput {
		prose := plugintest.Text("ku-prose", "Reporting a Vulnerability", "web/SECURITY.md", 3, body)
		in := askCiting(prose, "How do I report a vulnerability in web?", "implement", "report a vulnerability in web")
		in.Evidence = append(in.Evidence, plugin.ScoredKU{KU: withCode, Score: 0.5})
		return in
	}
	ins := []inputCase{
		{"a purpose clause and a request", asking("To report a vulnerability, please use the Security Advisory tab of the web repository."), plugin.StatusAccepted},
		{"a request that opens the sentence", asking("Please disclose a vulnerability in web by sending an email to the web security team."), plugin.StatusAccepted},
		{"thanks and no request", asking("The web maintainers appreciate every vulnerability report and acknowledge each reporter."), plugin.StatusRejected},
	}
	expectInputs(t, nil, "shows no command, code or steps", ins)
}

// TestReferenceRowAnswersHowTo: a how-to answered with a row of a
// library's reference table whose key cell names what to use ("[Compress]",
// "`Logger`") shows something to do although another unit of the evidence
// has code; a row whose key cell is a plain word does not.
func TestReferenceRowAnswersHowTo(t *testing.T) {
	withCode := plugintest.Text("ku-code", "Request handlers", "web/README.md", 40,
		"Handlers are plain functions:\n\n```go\nfunc h(w http.ResponseWriter, r *http.Request) {}\n```\n")
	asking := func(key string) plugin.ValidateInput {
		table := plugintest.Text("ku-table", "Core middlewares", "web/README.md", 80,
			"| middleware | description |\n| --- | --- |\n| "+key+" | Gzip compression for clients that accept compressed responses |\n")
		in := askCiting(table, "How do I gzip responses for clients that accept compression?", "implement", "gzip responses for clients that accept compression")
		in.Evidence = append(in.Evidence, plugin.ScoredKU{KU: withCode, Score: 0.5})
		return in
	}
	ins := []inputCase{
		{"a linked name", asking("[Compress]"), plugin.StatusAccepted},
		{"a name in code", asking("`Compress`"), plugin.StatusAccepted},
		{"a plain word", asking("compression"), plugin.StatusRejected},
	}
	expectInputs(t, nil, "shows no command, code or steps", ins)
}
