package valsymbolic

import (
	"regexp"
	"strings"

	"github.com/mrpvm/mrpvm/plugins/internal/symbolic"
	"github.com/mrpvm/mrpvm/retrieval/lexicon"
)

// measureRE finds the noun a question of amount asks the measure of:
// "space" of "how much space does a folder take", "files" of "how many
// files may be open".
var measureRE = regexp.MustCompile(`(?i)\bhow\s+(?:much|many)\s+([a-z][a-z-]*)`)

// measuredNoun returns the key term of the noun a question of amount
// measures, or "" when it asks none: the word after "how much" or "how
// many" is no noun ("how much slower"), or no content word ("how many of
// them").
func measuredNoun(target string) string {
	m := measureRE.FindStringSubmatch(target)
	if m == nil {
		return ""
	}
	terms := symbolic.ContentTerms(m[1])
	if len(terms) != 1 || filler[terms[0]] {
		return ""
	}
	if _, main := lexicon.PartsOfSpeech(terms[0]); main&lexicon.Noun == 0 {
		return ""
	}
	return terms[0]
}

// missesMeasure reports whether a question of amount is answered without
// the thing it measures: an answer that never names the space, the files
// or the words asked to be counted measures something else, however many
// of the question's other words its source shares.
func missesMeasure(target string, cover map[string]bool, rar symbolic.Rarity) (string, bool) {
	n := measuredNoun(strings.ToLower(target))
	if n == "" || covered(n, cover, rar) || synonymIn(n, cover) {
		return n, false
	}
	return n, true
}
