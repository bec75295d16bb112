package valsymbolic

import (
	"regexp"
	"strings"

	"github.com/mrpvm/mrpvm/plugin"
)

// exampleLineRE matches a quoted example's description ("- Grant direnv
// permission to load the .envrc:"), group 1 its text; an example is one
// whose next non-blank line is a command in a code span.
var (
	exampleLineRE = regexp.MustCompile(`^\s*- (\S.*:)\s*$`)
	commandLineRE = regexp.MustCompile("^\\s*`[^`]+`\\s*$")
)

// examplesOf are the descriptions of the examples answer quotes, in order.
func examplesOf(answer string) []string {
	lines := strings.Split(answer, "\n")
	var out []string
	for i, l := range lines {
		m := exampleLineRE.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		j := i + 1
		for j < len(lines) && strings.TrimSpace(lines[j]) == "" {
			j++
		}
		if j < len(lines) && commandLineRE.MatchString(lines[j]) {
			out = append(out, m[1])
		}
	}
	return out
}

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
