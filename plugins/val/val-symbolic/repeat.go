package valsymbolic

import (
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins/internal/symbolic"
)

// repeatsLastLead reports whether every example answer quotes is the one
// the conversation's last answer led with, and returns it. A follow-up
// asks something the turn before did not: the example that answered that
// turn, which the user has just read, is not what the follow-up asks
// ("and how do I take that permission back?" after the example that
// grants it).
func repeatsLastLead(answer string, rc plugin.RunContext) (string, bool) {
	earlier := symbolic.CommandExamples(symbolic.LastAnswer(rc.Conversation))
	if len(earlier) == 0 {
		return "", false
	}
	own := symbolic.CommandExamples(answer)
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
