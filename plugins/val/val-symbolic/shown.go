package valsymbolic

import (
	"regexp"
	"strings"

	"github.com/mrpvm/mrpvm/plugin/text"
	"github.com/mrpvm/mrpvm/plugins/internal/symbolic"
)

// displayActions are the light actions (symbolic.LightAction) that ask to
// show something ("see my cron jobs", "print a file's permissions"), not
// to make it.
var displayActions = map[string]bool{}

func init() {
	for _, w := range text.Terms("see view look show display print list") {
		displayActions[w] = true
	}
}

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
	if action, _ := symbolic.Action(target); displayActions[action] {
		return action
	}
	return ""
}

// shows reports whether one of an answer's examples (lines: each
// description and its command) does what a display action asks: its
// description opens with a light action (symbolic.LightAction), with the
// action itself or a relative of it, or with a close relative of any
// display action ("Scan", "Monitor", "Inspect"). An example that opens
// with another verb ("Clone a remote repository", "Set the mask") does
// something rather than showing it.
func shows(action string, lines []string) bool {
	for _, l := range lines {
		if strings.HasPrefix(l, "`") {
			continue
		}
		f := strings.Fields(strings.TrimLeft(l, "-* "))
		if len(f) == 0 {
			continue
		}
		verb := text.Terms(strings.NewReplacer("[", "", "]", "").Replace(f[0]))
		if len(verb) != 1 {
			continue
		}
		if symbolic.LightAction(verb[0]) || symbolic.ActionMatch(action, map[string]bool{verb[0]: true}, true) > 0 {
			return true
		}
		for d := range displayActions {
			if symbolic.ActionMatch(d, map[string]bool{verb[0]: true}, true) >= symbolic.RelativeMatch {
				return true // "Scan", "Monitor", "Inspect": ways of showing
			}
		}
	}
	return false
}
