package valsymbolic

import (
	"strings"
	"unicode"

	"github.com/mrpvm/mrpvm/plugin/text"
)

// initialisms are the initials of each run of two or three content words
// of s that follow one another, with no common word or punctuation between
// them ("Submit a pull request": "pr"), as terms. Writers name a thing by
// the initialism of the words their sources spell out ("pr", "cli"), so a
// source that spells the words out covers the initialism.
func initialisms(s string) map[string]bool {
	out := map[string]bool{}
	for _, clause := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsSpace(r) }) {
		var initials []rune // of the current run of content words
		for _, w := range strings.Fields(clause) {
			if len(text.Terms(w)) != 1 {
				initials = initials[:0]
				continue
			}
			initials = append(initials, unicode.ToLower([]rune(w)[0]))
			for n := 2; n <= 3 && n <= len(initials); n++ {
				for _, t := range text.Terms(string(initials[len(initials)-n:])) {
					out[t] = true
				}
			}
		}
	}
	return out
}
