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
// normalised by exampleKey, or "" when that answer quoted no example (a
// list item followed by a command line in a code span). A follow-up asks
// something the turn before did not: the example that answered that turn,
// which the user has just read, is not what the follow-up asks ("and how
// do I take that permission back?"), so it is not offered again.
func lastLeadExample(conv []plugin.Turn) string {
	var last string
	for _, t := range conv {
		if t.Role == "assistant" {
			last = t.Text
		}
	}
	lines := strings.Split(last, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "- ") && followedByCommand(lines[i+1:]) {
			return exampleKey(l)
		}
	}
	return ""
}

// followedByCommand reports whether the first non-blank line of lines is
// one code span: the command an example's description introduces.
func followedByCommand(lines []string) bool {
	for _, l := range lines {
		if l = strings.TrimSpace(l); l != "" {
			return commandLineRE.MatchString(l)
		}
	}
	return false
}

// commandLineRE matches a line that is one code span.
var commandLineRE = regexp.MustCompile("^`[^`]+`$")

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
