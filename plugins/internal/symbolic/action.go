package symbolic

import (
	"strings"

	"github.com/mrpvm/mrpvm/plugin/text"
	"github.com/mrpvm/mrpvm/retrieval"
)

// howOpenings open a how-to question before its action ("how do I
// extract ...", "is there a way to extract ..."), longest first.
var howOpenings = []string{
	"is there a way to ", "is there any way to ", "is it possible to ", "what is the way to ", "what's the way to ",
	"what is the command to ", "what's the command to ", "what command do i use to ", "what can i run to ", "what do i run to ",
	"how would i ", "how could i ", "how should i ", "how can i ", "how do i ",
	"how would you ", "how can you ", "how do you ", "how can we ", "how do we ", "how does one ",
	"i want to ", "i need to ", "i'd like to ", "how to ",
}

// leadWords come before a how-to's action without being it ("and how do
// I ...", "how do I quickly ...").
var leadWords = map[string]bool{"and": true, "so": true, "ok": true, "okay": true, "then": true, "also": true, "now": true,
	"quickly": true, "easily": true, "just": true, "actually": true, "safely": true, "properly": true, "automatically": true}

// weakActions are verbs that name no action of their own ("use X",
// "make it executable", "get the file name", "give a command a short
// name"): their object says what to do.
var weakActions = map[string]bool{}

func init() {
	for _, w := range text.Terms("use make get do have go let try put give take keep") {
		weakActions[w] = true
	}
}

// WeakAction is the weak verb a how-to task opens with ("put" of "put
// two lists side by side", see weakActions), or "": it names no action of
// its own.
func WeakAction(task string) string {
	words := actionWords(task)
	if len(words) == 0 {
		return ""
	}
	if verb := text.Terms(strings.Trim(words[0], ",.;:?!")); len(verb) == 1 && weakActions[verb[0]] {
		return verb[0]
	}
	return ""
}

// Action is the analysed verb a how-to task asks to carry out ("follow"
// for "How do I follow a log file as it grows?", "find" for "find where
// the executable lives"), with the content terms of its object up to the
// first preposition ("log", "file"). task may be the question or its
// target (the question without "how do I"). action is "" when the task
// names no action of its own: it opens with no verb the general lexicon
// knows (a typing mistake, a name) or with a verb that only says "do"
// ("use", "make", "get").
func Action(task string) (action string, object []string) {
	words := actionWords(task)
	if len(words) == 0 {
		return "", nil
	}
	verb := text.Terms(strings.Trim(words[0], ",.;:?!"))
	if len(verb) != 1 || weakActions[verb[0]] {
		return "", nil
	}
	if c, b := retrieval.Relatives(verb[0]); len(c)+len(b) == 0 {
		return "", nil // not an English word the lexicon knows
	}
	rest := words[1:]
	if len(rest) > 0 && particles[rest[0]] {
		rest = rest[1:]
	}
	for _, w := range rest {
		if objectEnds[strings.Trim(w, ",.;:?!")] {
			break
		}
		object = append(object, TaskTerms(w)...)
		if strings.ContainsAny(w, ",;:?!") {
			break // the clause ends
		}
	}
	return verb[0], object
}

// particles complete a phrasal verb ("shut down", "look up", "back up").
var particles = map[string]bool{"down": true, "up": true, "off": true, "out": true, "back": true, "over": true, "on": true}

// ActionCompound is the one-word form of a how-to task's phrasal verb
// ("shutdown" for "shut down a server", "backup" for "back up a
// database"), analysed, or "" when its action is no phrasal verb. Pages
// name such actions in either form.
func ActionCompound(task string) string {
	words := actionWords(task)
	if len(words) < 2 || !particles[strings.Trim(words[1], ",.;:?!")] {
		return ""
	}
	t := text.Terms(words[0] + strings.Trim(words[1], ",.;:?!"))
	if len(t) != 1 {
		return ""
	}
	return t[0]
}

// afterOpening is the lower-cased task after its lead words and its
// how-to opening (howOpenings), with a space at its end, and whether it
// had such an opening; without one it is the task after its lead words.
func afterOpening(task string) (rest string, opened bool) {
	words := strings.Fields(strings.ToLower(task))
	for len(words) > 0 && leadWords[strings.Trim(words[0], ",.;:")] {
		words = words[1:]
	}
	low := strings.Join(words, " ") + " "
	for _, o := range howOpenings {
		if rest, ok := strings.CutPrefix(low, o); ok {
			return rest, true
		}
	}
	return low, false
}

// actionWords are the lower-cased words of a how-to task from its action
// on: without its opening ("how do I") and the words before the verb.
func actionWords(task string) []string {
	rest, _ := afterOpening(task)
	words := strings.Fields(rest)
	for len(words) > 0 && leadWords[strings.Trim(words[0], ",.;:")] {
		words = words[1:]
	}
	return words
}

// IdentTerms are the analysed words of the identifiers s holds in camel
// or Pascal case ("set" and "default" for "viper.SetDefault"): code names
// a call after what it does.
func IdentTerms(s string) map[string]bool {
	out := map[string]bool{}
	for _, id := range identRE.FindAllString(s, -1) {
		for _, w := range camelWords(id) {
			for _, t := range text.Terms(w) {
				out[t] = true
			}
		}
	}
	return out
}

// objectEnds end the object of an action: prepositions and the words that
// open a clause.
var objectEnds = map[string]bool{}

func init() {
	for _, w := range strings.Fields("in on into onto from to with without for by as at if when while so that which where who using via over under through across after before until than") {
		objectEnds[w] = true
	}
}

// ActionMatch is how closely terms carry action: 1 when they hold it,
// relativeMatch when they hold a synonym or derived form of it (or it is
// one of theirs: "halt" and "stop"), broaderMatch when they hold one of
// its first broader terms ("remove" for "delete"), 0 otherwise. reverse
// also counts a term whose own synonyms hold action, or whose broader
// terms do (a kind of the action: "delete" for "remove"), as a relative;
// it costs a lexicon look-up per term. A relative counts for much less
// than the word itself: the lexicon's relatives span every sense of a
// word ("get" is a synonym of "find").
func ActionMatch(action string, terms map[string]bool, reverse bool) float64 {
	if action == "" {
		return 0
	}
	if terms[action] {
		return 1
	}
	close, broader := retrieval.Relatives(action)
	for _, r := range close {
		if terms[r] {
			return relativeMatch
		}
	}
	if reverse {
		for t := range terms {
			c, b := retrieval.Relatives(t)
			for _, r := range c {
				if r == action {
					return relativeMatch
				}
			}
			for _, r := range b {
				if r == action {
					return relativeMatch // a kind of the action ("delete" for "remove")
				}
			}
		}
	}
	for i, r := range broader {
		if i == maxBroader {
			break
		}
		if terms[r] {
			return broaderMatch
		}
	}
	return 0
}

// What a relative of an action counts for in ActionMatch.
const (
	relativeMatch = 0.35
	broaderMatch  = 0.15
)

// maxBroader is how many broader terms of an action count: the first,
// from its most frequent senses ("remove" for "delete"); further ones are
// from rare senses as often as not ("change" for "bring").
const maxBroader = 3

// RelativeMatch is the least ActionMatch of terms that carry an action
// itself or a close relative of it (not only a broader term).
const RelativeMatch = relativeMatch

// lightActions are verbs that ask to show or to make something ("see the
// list", "print the time", "create a key"): pages say so with any of many
// verbs ("display", "generate") the general lexicon does not relate, and
// what is shown or made says more than the verb.
var lightActions = map[string]bool{}

func init() {
	for _, w := range text.Terms("see view look show display print list create check") {
		lightActions[w] = true
	}
}

// LightAction reports whether action only asks to show or make something
// (see lightActions): a passage is not judged on carrying it.
func LightAction(action string) bool { return lightActions[action] }

// displayActions are the light actions that ask to show something ("see
// my cron jobs", "print a file's permissions"), not to make it.
var displayActions = map[string]bool{}

func init() {
	for _, w := range text.Terms("see view look show display print list") {
		displayActions[w] = true
	}
}

// DisplayAction reports whether action asks to show something (see
// displayActions).
func DisplayAction(action string) bool { return displayActions[action] }

// Shows reports whether an example's description does what the display
// action asks: it opens with a light action (LightAction), with the action
// itself or a relative of it, or with a close relative of any display
// action ("Scan", "Monitor", "Inspect"). A description that opens with
// another verb ("Clone a remote repository", "Add an IP address") does
// something rather than showing it. Brackets marking a mnemonic letter
// ("Lis[t]") are read through.
func Shows(action, desc string) bool {
	f := strings.Fields(strings.TrimLeft(desc, "-* "))
	if len(f) == 0 {
		return false
	}
	verb := text.Terms(strings.NewReplacer("[", "", "]", "").Replace(f[0]))
	if len(verb) != 1 {
		return false
	}
	if LightAction(verb[0]) || ActionMatch(action, map[string]bool{verb[0]: true}, true) > 0 {
		return true
	}
	for d := range displayActions {
		if ActionMatch(d, map[string]bool{verb[0]: true}, true) >= RelativeMatch {
			return true // "Scan", "Monitor", "Inspect": ways of showing
		}
	}
	return false
}
