package valsymbolic

import (
	"regexp"
	"strings"

	"github.com/mrpvm/mrpvm/plugins/internal/symbolic"
)

// quantityRE opens a question that asks for an amount ("How many CPU cores
// are available?", "how much memory is free").
var quantityRE = regexp.MustCompile(`(?i)^\s*how\s+(?:many|much)\b`)

// shownAction is the display action target asks for (displayActions:
// "print" of "Is there a way to print a file's permissions"), "count" for
// a question that asks for an amount, which is shown by counting or by
// displaying it, or "" when target asks to show nothing.
func shownAction(target string) string {
	if quantityRE.MatchString(target) {
		return "count"
	}
	if action, _ := symbolic.Action(target); symbolic.DisplayAction(action) {
		return action
	}
	return ""
}

// shows reports whether one of an answer's examples (lines: each
// description and its command) does what a display action asks
// (symbolic.Shows).
func shows(action string, lines []string) bool {
	for _, l := range lines {
		if !strings.HasPrefix(l, "`") && symbolic.Shows(action, l) {
			return true
		}
	}
	return false
}
