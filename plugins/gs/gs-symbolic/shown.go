package gssymbolic

import (
	"regexp"
	"slices"
	"strings"

	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins/internal/symbolic"
)

// lastLeadExample is the description of the example the conversation's
// last answer led with ("Grant direnv permission to load the .envrc"),
// normalised by exampleKey, or "" when that answer quoted no example with
// a command line (symbolic.CommandExamples). A follow-up asks something
// the turn before did not: the example that answered that turn, which the
// user has just read, is not what the follow-up asks ("and how do I take
// that permission back?"), so it is not offered again.
func lastLeadExample(conv []plugin.Turn) string {
	if examples := symbolic.CommandExamples(symbolic.LastAnswer(conv)); len(examples) > 0 {
		return exampleKey(examples[0])
	}
	return ""
}

// citeMarkRE matches the citation marks an answer puts after a statement.
var citeMarkRE = regexp.MustCompile(`\s*\[\d+\]`)

// exampleKey is an example's description as compared between an answer
// and a page: its plain text without list marker, citation marks, the
// colon that introduces the command, case or spacing differences.
func exampleKey(line string) string {
	t := strings.TrimSpace(line)
	t = strings.TrimSpace(t[markerLen(t):])
	t = plainMD(citeMarkRE.ReplaceAllString(t, ""))
	t = strings.TrimSuffix(strings.TrimSpace(t), ":")
	return strings.ToLower(strings.Join(strings.Fields(t), " "))
}

// withoutShown is examples without the one a follow-up's turn before led
// with (shown, see lastLeadExample), unless that example says the
// follow-up's own action (action): "How do I save that to a file?" after
// an example that traces a program "saving the output to a file" asks for
// that very example. All of examples when shown is "".
func withoutShown(examples []example, shown, action string) []example {
	if shown == "" {
		return examples
	}
	return slices.DeleteFunc(slices.Clone(examples), func(e example) bool {
		return exampleKey(e.desc) == shown && (action == "" || !symbolic.TermSet(e.desc)[action])
	})
}
