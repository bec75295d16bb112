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

// toolRowRE matches a table row whose key cell is a name written as code
// or as a link ("| [GetHead] | Automatically route ... |", "| `Logger` |
// ... |").
var toolRowRE = regexp.MustCompile("(?m)^\\|\\s*(?:\\[[A-Za-z][\\w.]*\\]|`[A-Za-z][\\w.()]*`)\\s*\\|")

// namesToolInRow reports whether s quotes a row of a reference table that
// names what to use (toolRowRE): in a library's documentation such a row
// ("the Compress middleware: gzip compression for clients that accept
// it") is what a how-to is answered with, as a command is.
func namesToolInRow(s string) bool { return toolRowRE.MatchString(s) }
