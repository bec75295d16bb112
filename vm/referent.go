package vm

import (
	"regexp"
	"slices"
	"strings"

	"github.com/mrpvm/mrpvm/plugin/text"
	"github.com/mrpvm/mrpvm/retrieval/lexicon"
)

// standIns are the pronouns that stand for a thing named before;
// pluralPronouns those of them that stand for several ("them"), oneOf
// those that stand for another of a kind ("the second one"), the others
// for one thing ("it").
var (
	standIns       = map[string]bool{"it": true, "them": true, "they": true, "these": true, "those": true, "one": true, "ones": true}
	pluralPronouns = map[string]bool{"them": true, "they": true, "these": true, "those": true}
	oneOf          = map[string]bool{"one": true, "ones": true}
)

// determiners open a noun phrase without naming anything.
var determiners = map[string]bool{
	"a": true, "an": true, "the": true,
	"my": true, "your": true, "his": true, "her": true, "its": true, "our": true, "their": true,
	"this": true, "these": true, "those": true,
	"each": true, "every": true, "any": true, "some": true, "all": true, "no": true, "another": true, "other": true,
}

// actionLeadRE finds the lead of a question that asks to act on
// something: a how-to's ("how do I") or a request's ("can I", "should
// I"), up to the action word.
var actionLeadRE = regexp.MustCompile(`(?i)(?:\bhow\s+(?:do|can|could|should|would|to)|\b(?:can|could|should|may)|^(?:do|would))\s+(?:i|we|you)\s+|\bhow\s+to\s+`)

// maxReferents bounds the noun phrases a turn records as its objects.
const maxReferents = 3

// objectPhrases are the noun phrases the action of question q acts on:
// the words after its action word, determiners left out, up to the first
// preposition or clause break, split at "of" ("personal list" and "cron
// jobs" of "How do I edit my personal list of cron jobs?"; "application"
// of "How do I install an application with flatpak?"), each closing on a
// word that can name a thing (nameWord: "routes" of "put all my routes
// together"). Nil when the object is itself a pronoun ("How do I update
// it?") or the question asks to do nothing.
func objectPhrases(q string) []string {
	lead := actionLeadRE.FindStringIndex(q)
	if lead == nil {
		return askedThings(q)
	}
	words := wordRE.FindAllString(q[lead[1]:], -1)
	if len(words) < 2 {
		return nil
	}
	var phrases []string
	var group []string
	closeGroup := func() {
		for len(group) > 0 && !nameWord(group[len(group)-1]) {
			group = group[:len(group)-1]
		}
		if len(group) > 0 && len(phrases) < maxReferents {
			phrases = append(phrases, strings.Join(group, " "))
		}
		group = nil
	}
	for _, w := range words[1:] {
		low := strings.ToLower(w)
		switch {
		case standIns[low] && len(group) == 0 && len(phrases) == 0:
			return nil
		case low == "of":
			closeGroup()
		case determiners[low]:
			if len(group) > 0 {
				closeGroup()
			}
		case prepositions[low] || clauseWords[low] || anaphors[low]:
			closeGroup()
			return phrases
		default:
			group = append(group, w)
		}
	}
	closeGroup()
	return phrases
}

// whichRE finds a question asking which of some things ("what
// resources", "which flags"), up to the noun phrase.
var whichRE = regexp.MustCompile(`(?i)\b(?:what|which)\s+`)

// askedThings is the noun phrase a question asking which things there
// are names ("resources" of "What resources does mrpvm mcp expose?"): the
// words after "what" or "which" up to its auxiliary (questionLeads or
// modals); nil when the question asks no such thing ("What is viper?",
// "What about sine?").
func askedThings(q string) []string {
	lead := whichRE.FindStringIndex(q)
	if lead == nil {
		return nil
	}
	var group []string
	for _, w := range wordRE.FindAllString(q[lead[1]:], -1) {
		low := strings.ToLower(w)
		if questionLeads[low] || modals[low] {
			break
		}
		if prepositions[low] || clauseWords[low] || anaphors[low] || low == "about" {
			// "What about sine?", "which of them": no noun phrase
			// that an auxiliary follows.
			return nil
		}
		if !determiners[low] {
			group = append(group, w)
		}
	}
	for len(group) > 0 && !nameWord(group[len(group)-1]) {
		group = group[:len(group)-1]
	}
	if len(group) == 0 {
		return nil
	}
	return []string{strings.Join(group, " ")}
}

// clauseWords end the object of a question's action: conjunctions and
// the words that open another clause.
var clauseWords = map[string]bool{
	"and": true, "or": true, "but": true, "so": true, "then": true,
	"if": true, "when": true, "whenever": true, "while": true, "because": true, "until": true, "unless": true, "once": true,
	"that": true, "which": true, "who": true, "where": true, "how": true, "why": true, "what": true,
}

// nameWord reports whether a word of a question can close a noun phrase:
// one of its content terms has a sense as a noun, or the lexicon does not
// know it (a name). "together" of "put my routes together" does not.
func nameWord(w string) bool {
	return slices.ContainsFunc(contentTerms(w), func(t string) bool {
		all, _ := lexicon.PartsOfSpeech(t)
		return all == 0 || all&lexicon.Noun != 0
	})
}

// plural reports whether the noun phrase's last word is a plural: it
// ends in "s" (not "ss") and analysis reduces it ("jobs" to "job").
func plural(phrase string) bool {
	f := strings.Fields(phrase)
	if len(f) == 0 {
		return false
	}
	last := strings.ToLower(f[len(f)-1])
	ts := text.Terms(last)
	return strings.HasSuffix(last, "s") && !strings.HasSuffix(last, "ss") && len(ts) == 1 && ts[0] != last
}

// pointedPronoun returns the pronoun of q that points back at something
// said before as what q acts on, not as its subject (subjectAt): "it" of
// "How do I update it later on?"; "" when there is none or q names what
// it stands for itself.
func pointedPronoun(q string) string {
	low := strings.ToLower(q)
	locs := wordRE.FindAllStringIndex(low, -1)
	words := make([]string, len(locs))
	for i, loc := range locs {
		words[i] = low[loc[0]:loc[1]]
	}
	for i, w := range words {
		if standIns[w] && !subjectAt(words, i) && pointsBack(words, i) && !antecedentBefore(low, locs[i][0]) {
			return w
		}
	}
	return ""
}

// subjectAt reports whether the pronoun words[i] is the subject of its
// clause: it opens the question or follows an auxiliary ("how does it
// find out", "can it run"). A subject stands for what the conversation
// is about, which its topic carries already, not for what an earlier
// question acted on.
func subjectAt(words []string, i int) bool {
	if i == 0 {
		return true
	}
	prev := words[i-1]
	return modals[prev] || questionLeads[prev] && !whWords[prev]
}

// whWords open a question without being its auxiliary.
var whWords = map[string]bool{"how": true, "what": true, "where": true, "which": true, "when": true, "why": true, "who": true}

// referentFor is the noun phrase of referents (a turn's objectPhrases)
// that a pronoun stands for: the head noun of the first (the latest
// object) for "one", another of its kind ("delete one" after "create a
// new group of users" deletes a group, not a new one); the last plural
// phrase (the earliest recorded) for "them"; the first other one for
// "it". "" when none agrees.
func referentFor(pronoun string, referents []string) string {
	if oneOf[pronoun] {
		if len(referents) == 0 {
			return ""
		}
		f := strings.Fields(referents[0])
		return f[len(f)-1]
	}
	if pluralPronouns[pronoun] {
		for i := len(referents) - 1; i >= 0; i-- {
			if plural(referents[i]) {
				return referents[i]
			}
		}
		return ""
	}
	for _, p := range referents {
		if !plural(p) {
			return p
		}
	}
	return ""
}

// withReferent is a follow-up's topic with the words of what its pronoun
// stands for added (referentFor of the earlier turn's Referents) that the
// topic lacks: "How do I update it later on?" after "How do I install an
// application with flatpak?" asks about the application as well as
// flatpak, which the topic (the words naming the page) alone leaves out.
func withReferent(topic, q string, prev *TurnContext) string {
	pronoun := pointedPronoun(q)
	if pronoun == "" {
		return topic
	}
	ref := referentFor(pronoun, prev.Referents)
	if ref == "" {
		return topic
	}
	have := termSet(topic)
	words := strings.Fields(topic)
	for _, w := range strings.Fields(ref) {
		ts := contentTerms(w)
		if len(ts) == 0 || slices.ContainsFunc(ts, func(t string) bool { return have[t] }) || len(words) >= maxTopicWords {
			continue
		}
		for _, t := range ts {
			have[t] = true
		}
		words = append(words, w)
	}
	return strings.Join(words, " ")
}

// maxCarriedReferents bounds the noun phrases a conversation keeps for
// its pronouns.
const maxCarriedReferents = 4

// referentsOf are the noun phrases a turn's pronouns may stand for next:
// those its question asked about (objectPhrases of the question as the
// user wrote it), then those of the turn it continued (carried), the
// latest first. "them" of "and how do I wipe all of them?" stands for the
// cron jobs of two turns before, when the turn between named only a line.
func referentsOf(asked string, carried *TurnContext) []string {
	out := objectPhrases(asked)
	if carried != nil {
		for _, p := range carried.Referents {
			if !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	if len(out) > maxCarriedReferents {
		out = out[:maxCarriedReferents]
	}
	return out
}
