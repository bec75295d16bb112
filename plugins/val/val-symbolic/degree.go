package valsymbolic

import (
	"regexp"
	"slices"
	"strings"

	"github.com/mrpvm/mrpvm/plugin/text"
	"github.com/mrpvm/mrpvm/retrieval/lexicon"
)

var (
	// equativeRE finds an equative construction, "as" + a word + "as"
	// ("as soon as", "as long as", "as far as"), the word in group 1.
	equativeRE = regexp.MustCompile(`(?i)\bas\s+([a-z]+)\s+as\b`)
	// asWellRE finds "as well" (optionally "as well as") that does not
	// start a compound ("as well-formed"), the space or punctuation
	// after it in group 1.
	asWellRE = regexp.MustCompile(`(?i)\bas\s+well(?:\s+as)?(\s|$|[,.;:?!)])`)
)

// degreeFree is target without its equative constructions: "as soon as
// the output changes" says when, "as well" says "too", and "as long as"
// sets a condition; each works as one conjunction or adverb of English
// grammar, and its adjective or adverb names neither the action nor its
// object, which is what a page that answers names. A word the general
// lexicon knows mainly as a noun or a verb ("as root as") stays, as does a
// target that would keep no word.
func degreeFree(target string) string {
	asked := equativeRE.ReplaceAllStringFunc(target, func(m string) string {
		word := equativeRE.FindStringSubmatch(m)[1]
		if !degreeWord(word) {
			return m
		}
		return " "
	})
	asked = asWellRE.ReplaceAllString(asked, " $1")
	asked = strings.Join(strings.Fields(asked), " ")
	if asked == "" {
		return target
	}
	return asked
}

// degreeWord reports whether word is one the general lexicon knows
// mainly as an adjective or an adverb, by each of its terms.
func degreeWord(word string) bool {
	terms := text.Terms(word)
	if len(terms) == 0 {
		return false
	}
	for _, t := range terms {
		_, main := lexicon.PartsOfSpeech(t)
		if main == 0 || main&(lexicon.Noun|lexicon.Verb) != 0 {
			return false
		}
	}
	return true
}

// likeExampleRE finds examples a question gives with the preposition
// "like": after a comma (", like a live view") or after a word ending in
// "s" (group 1: "codes like deu and eng"), a phrase of at most four words
// that closes its clause: the end, a comma, a parenthesis or a question
// mark (group 2), so a clause that goes on after the examples ("tools
// like nginx restart when ...") keeps its verb.
var likeExampleRE = regexp.MustCompile(`(?i)(?:\s*,|\b([a-z]+s))\s+like\s+(?:[^\s,()?]+\s+){0,3}[^\s,()?]+\s*($|[,()?])`)

// notPlural are words ending in "s" that are no plural noun: before
// "like" they make a likeness or a verb's object ("it is like", "this
// like").
var notPlural = wordSet(strings.Fields("is was has does its this thus us yes his hers ours yours theirs"))

// prepositions are the English prepositions that open a phrase of place,
// means or purpose: after examples given with "like", such a phrase
// belongs to the question's verb ("combine options like -som in
// urfave/cli"), not to the examples.
var prepositions = wordSet(strings.Fields("in on at from with for to into onto by via over under through"))

// likeExamplesFree is target without the examples it gives with "like"
// (likeExampleRE) after a comma or a plural noun: as with "such as", the
// user names instances of what they ask about, which a page that answers
// names in general ("language codes") or with its own instances. A "like"
// of a verb ("I'd like", "would like") follows neither and stays, as do
// examples followed by a phrase of a preposition (prepositions).
func likeExamplesFree(target string) string {
	return strings.TrimSpace(likeExampleRE.ReplaceAllStringFunc(target, func(m string) string {
		sub := likeExampleRE.FindStringSubmatch(m)
		noun, end := sub[1], sub[2]
		if slices.ContainsFunc(strings.Fields(m), func(w string) bool { return prepositions[strings.ToLower(w)] }) {
			return m
		}
		if noun == "" {
			return " " + end
		}
		if low := strings.ToLower(noun); notPlural[low] || strings.HasSuffix(low, "ss") {
			return m
		}
		return noun + " " + end
	}))
}

// extraposedRE finds an adjective (group 1) in an extraposed clause: "it"
// and a form of "be", in either order, before the adjective and "to"
// ("is it fine to switch off locking", "it's safe to delete").
var extraposedRE = regexp.MustCompile(`(?i)\b(?:it\s+is|is\s+it|it['’]s|it\s+was|was\s+it|(?:would|will)\s+it\s+be|it\s+(?:would|will)\s+be)\s+([a-z]+)\s+to\b`)

// evaluationFree is target without the adjective of an extraposed clause
// (extraposedRE): "is it fine to switch off locking" asks about switching
// off locking, which the adjective only judges, as "possible" of "is it
// possible to" does; a page that answers says when or how the action is
// done, seldom that it is fine or safe. A word the general lexicon knows
// mainly as a noun or a verb stays, as does a participle ("-ed", "-en":
// "it is written to" is a passive, whose participle is the action).
func evaluationFree(target string) string {
	return extraposedRE.ReplaceAllStringFunc(target, func(m string) string {
		sub := extraposedRE.FindStringSubmatchIndex(m)
		word := strings.ToLower(m[sub[2]:sub[3]])
		if strings.HasSuffix(word, "ed") || strings.HasSuffix(word, "en") || !degreeWord(word) {
			return m
		}
		return m[:sub[2]] + m[sub[3]:]
	})
}
