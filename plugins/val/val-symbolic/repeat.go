package valsymbolic

import (
	"regexp"
	"strings"

	"github.com/mrpvm/mrpvm/plugin"
)

// examplesOf are the descriptions of the examples answer quotes, in
// order, without their list marker: those of eachExample whose command is
// one code span (a command line, not a fenced block of code).
func examplesOf(answer string) []string {
	var out []string
	eachExample(answer, func(line, command string) {
		if commandSpanRE.MatchString(command) {
			out = append(out, strings.TrimSpace(strings.TrimPrefix(line, "- ")))
		}
	})
	return out
}

// commandSpanRE matches a line that is one code span.
var commandSpanRE = regexp.MustCompile("^`[^`]+`$")

// repeatsLastLead reports whether every example answer quotes is the one
// the conversation's last answer led with, and returns it. A follow-up
// asks something the turn before did not: the example that answered that
// turn, which the user has just read, is not what the follow-up asks
// ("and how do I take that permission back?" after the example that
// grants it).
func repeatsLastLead(answer string, rc plugin.RunContext) (string, bool) {
	var last string
	for _, t := range rc.Conversation {
		if t.Role == "assistant" {
			last = t.Text
		}
	}
	earlier := examplesOf(last)
	if len(earlier) == 0 {
		return "", false
	}
	own := examplesOf(answer)
	if len(own) == 0 {
		return "", false
	}
	for _, e := range own {
		if e != earlier[0] {
			return "", false
		}
	}
	return earlier[0], true
}
