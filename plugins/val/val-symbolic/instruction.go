package valsymbolic

import (
	"regexp"

	"github.com/mrpvm/mrpvm/plugin/text"
	"github.com/mrpvm/mrpvm/retrieval/lexicon"
)

// pleaseRE finds a polite request and the word after it ("please use",
// "Please disclose").
var pleaseRE = regexp.MustCompile(`(?i)\bplease\s+([a-z]+)`)

// instructs reports whether s asks the reader to do something in prose:
// "please" followed by a verb ("To report a security issue, please use
// the Security Advisory tab", "Please disclose any vulnerabilities by
// sending an email to ..."). Documentation of a process rather than of
// an API gives its steps so, with no command or code: such an answer
// shows something to do as a command does.
func instructs(s string) bool {
	for _, m := range pleaseRE.FindAllStringSubmatch(s, -1) {
		terms := text.Terms(m[1])
		if len(terms) == 0 {
			continue
		}
		if lexicon.HasVerbSense(terms[0]) {
			return true
		}
	}
	return false
}
