package symbolic

import (
	"regexp"
	"strings"

	"github.com/mrpvm/mrpvm/plugin"
)

// AnswerExampleRE finds an example's description in an answer: a list
// item ending in a colon, what it shows following.
var AnswerExampleRE = regexp.MustCompile(`(?m)^- \S[^\n]*:\s*$`)

// EachAnswerExample calls each with every example of an answer's body
// that shows code: its description line (AnswerExampleRE) and the first
// non-blank line after it when that line opens with a code span.
func EachAnswerExample(body string, each func(line, command string)) {
	lines := strings.Split(body, "\n")
	for i, line := range lines {
		if !AnswerExampleRE.MatchString(line) {
			continue
		}
		for _, l := range lines[i+1:] {
			if l = strings.TrimSpace(l); l != "" {
				if strings.HasPrefix(l, "`") {
					each(line, l)
				}
				break
			}
		}
	}
}

// commandSpanRE matches a line that is one code span.
var commandSpanRE = regexp.MustCompile("^`[^`]+`$")

// CommandExamples are the descriptions of the examples an answer quotes
// with a command line (one code span, not a fenced block of code), in
// order, without their list marker.
func CommandExamples(answer string) []string {
	var out []string
	EachAnswerExample(answer, func(line, command string) {
		if commandSpanRE.MatchString(command) {
			out = append(out, strings.TrimSpace(strings.TrimPrefix(line, "- ")))
		}
	})
	return out
}

// LastAnswer is the text of the conversation's last assistant turn, ""
// when it has none.
func LastAnswer(conv []plugin.Turn) string {
	var last string
	for _, t := range conv {
		if t.Role == "assistant" {
			last = t.Text
		}
	}
	return last
}
