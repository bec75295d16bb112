package valsymbolic

import (
	"regexp"

	"github.com/mrpvm/mrpvm/plugin/text"
	"github.com/mrpvm/mrpvm/plugins/internal/symbolic"
	"github.com/mrpvm/mrpvm/retrieval/lexicon"
)

// codeVerbRE matches a target that opens with a name written as code (an
// option "--quiet", a call "c.FullPath()", a dotted or underscored
// identifier) and the word after it.
var codeVerbRE = regexp.MustCompile(`^\s*(` + symbolic.CodeName + `)\s+([A-Za-z]+)\b`)

// lookLikeRE finds the verb of a likeness ("look like", "looks like").
var lookLikeRE = regexp.MustCompile(`(?i)\blook(?:s|ed)?\s+like\b`)

// codeVerbFree is a definition target without the verb right after the
// code name it opens with ("hide" of "--quiet hide", asked as "What does
// --quiet hide?"): the question asks what the option or call does, which
// its page says with a verb of its own ("drops the progress lines"). A
// word the general lexicon knows as no verb stays.
func codeVerbFree(target string) string {
	m := codeVerbRE.FindStringSubmatchIndex(target)
	if m == nil {
		return target
	}
	terms := text.Terms(target[m[4]:m[5]])
	if len(terms) != 1 {
		return target
	}
	if !lexicon.HasVerbSense(terms[0]) {
		return target
	}
	return target[:m[4]] + target[m[5]:]
}

// likenessFree is target without the verb of a likeness ("errors with
// --json" of "errors look like with --json"): what something looks like
// is shown by the form itself, which need not say "look".
func likenessFree(target string) string {
	return lookLikeRE.ReplaceAllString(target, " ")
}
