package valsymbolic

import (
	"maps"
	"regexp"
	"strings"

	"github.com/mrpvm/mrpvm/plugins/internal/symbolic"
	"github.com/mrpvm/mrpvm/retrieval/lexicon"
)

// sceneOpenerRE matches a sentence that opens with a determiner and so has
// a thing for its subject ("An XML file is ...", "My script prints ..."):
// it describes the user's situation, where a request opens with a verb or
// a question word.
var sceneOpenerRE = regexp.MustCompile(`(?i)^(?:a|an|the|my|our|this|that|these|those|some)\s+\S`)

// auxiliaries are the finite forms of "be", "have" and "do" and the modal
// verbs: one of them makes a string a clause rather than a noun phrase.
var auxiliaries = map[string]bool{
	"is": true, "are": true, "was": true, "were": true, "isn't": true, "aren't": true, "wasn't": true, "weren't": true,
	"has": true, "have": true, "had": true, "does": true, "do": true, "did": true, "doesn't": true, "don't": true, "didn't": true,
	"can": true, "can't": true, "cannot": true, "will": true, "won't": true, "would": true, "should": true, "must": true, "may": true, "might": true,
}

// statesScene reports whether target, asked as prompt, only states the
// scene of a question: a clause (finiteClause) that opens with a
// determiner (sceneOpenerRE) and that the user ended without a question
// mark, as a part split off a question asked in the next sentence ("An XML
// file is all on one line. How do I re-indent it?"). Such a part asks
// nothing; an answer to it is about the situation, not about what the
// user wants done.
func statesScene(target, prompt string) bool {
	t := strings.TrimSpace(target)
	if !sceneOpenerRE.MatchString(t) || strings.Contains(prompt, "?") || !finiteClause(t) || tellsEvent(t) {
		return false
	}
	return strings.EqualFold(strings.TrimRight(t, ".;: "), strings.TrimRight(strings.TrimSpace(prompt), ".;: "))
}

// tellsEvent reports whether clause s tells what happened: a word of it
// past its subject's determiner ends in "-ed" and has a verb sense in the
// general lexicon ("it stopped being allowed"). A "Why?" after such a
// sentence asks about the event, so the sentence is the question.
func tellsEvent(s string) bool {
	words := strings.Fields(strings.ToLower(strings.Trim(s, ".;: ")))
	for _, w := range words[1:] {
		w = strings.Trim(w, ",;:()")
		if !strings.HasSuffix(w, "ed") {
			continue
		}
		for _, k := range symbolic.TaskTerms(w) {
			if lexicon.HasVerbSense(k) {
				return true
			}
		}
	}
	return false
}

// finiteClause reports whether s has a finite verb: an auxiliary, or a
// word of the third person present ("points") that a verb sense in the
// general lexicon allows and that more words follow, as the rest of a
// clause does ("points somewhere"); a noun phrase ("the config files")
// ends with its head.
func finiteClause(s string) bool {
	words := strings.Fields(strings.ToLower(strings.Trim(s, ".;: ")))
	for i, w := range words {
		if auxiliaries[w] {
			return true
		}
		if i == 0 || i == len(words)-1 || !strings.HasSuffix(w, "s") || strings.HasSuffix(w, "ss") {
			continue
		}
		for _, k := range symbolic.ContentTerms(w) {
			if lexicon.HasVerbSense(k) {
				return true
			}
		}
	}
	return false
}

// unsaidAction is the action a follow-up task asks for ("clear" of "and
// clear them between checks") when the answer (its terms and those of its
// sources, cover) carries neither it nor a lexicon relative of it, else
// "". A follow-up names little besides its verb and a pronoun for the
// earlier topic, so an answer about that topic that shares one of its
// other words ("checks") does something else. Light actions ("see",
// "get") are not judged; a relative counts only as the lexicon relates it
// to the action, not the reverse, which would let any kind of a broad verb
// stand in.
func unsaidAction(asked string, cover map[string]bool) string {
	a := verbAction(asked)
	if a == "" || symbolic.LightAction(a) || filler[a] {
		return ""
	}
	if cover[a] || symbolic.ActionMatch(a, cover, false) > 0 {
		return ""
	}
	return a
}

// saidTerms are the terms an answer says, its code's called names
// included, without the note of what was searched for.
func saidTerms(answer string) map[string]bool {
	answer = symbolic.SearchedForRE.ReplaceAllString(answer, " ")
	terms := symbolic.TermSet(answer)
	maps.Copy(terms, callTerms(answer))
	return terms
}
