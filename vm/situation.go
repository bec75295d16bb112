package vm

import (
	"strings"

	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugin/text"
	"github.com/mrpvm/mrpvm/retrieval/lexicon"
)

// A question may open with what the user did or has before it asks: "I
// resized the volume. How do I grow the filesystem on it?" The
// opening sentence is no task of its own: it says what the question's
// pointer ("it") stands for. Seed detection reads it as a task like any
// other sentence; it is folded into the question after it as the words
// that question borrows, as a part of a multi-part question borrows its
// sibling's, and is not searched, answered or validated on its own.

// situationSubjects open a sentence in which users say what they did or
// have: a first-person subject.
var situationSubjects = map[string]bool{"i": true, "we": true, "i'm": true, "i've": true, "i'd": true,
	"we're": true, "we've": true, "we'd": true}

// auxiliaries come before the verb of a sentence ("I have already
// started", "I was running").
var auxiliaries = map[string]bool{"have": true, "has": true, "had": true, "am": true, "are": true, "was": true,
	"were": true, "do": true, "did": true, "been": true, "be": true}

// desireVerbs make a first-person sentence a request ("I want to compress
// a folder", "I'm trying to ..."), as modals do ("I should ..."): the
// sentence holds the task itself.
var desireVerbs = map[string]bool{"want": true, "wanted": true, "need": true, "needed": true, "like": true, "wish": true,
	"try": true, "trying": true, "tried": true, "hope": true, "hoping": true, "plan": true, "planning": true,
	"looking": true, "wonder": true, "wondering": true, "would": true, "could": true, "can": true, "should": true}

// situationContext returns what a first-person statement says the user
// did something to or has ("the partition" of "I enlarged the
// partition", "a long job in my shell" of "I already started a long job
// in my shell"): the sentence without its subject, the adverbs and
// auxiliaries before its verb, and the verb, which says what was done,
// not what the next question is about. ok is false for a sentence that
// is not such a statement: another subject, a request ("I want to ..."),
// or nothing left to name.
func situationContext(statement string) (ctx string, ok bool) {
	locs := wordRE.FindAllStringIndex(statement, -1)
	words := make([]string, len(locs))
	for i, l := range locs {
		words[i] = strings.ToLower(statement[l[0]:l[1]])
	}
	if len(words) >= 3 && ownerWords[words[0]] {
		return ownedContext(statement, locs)
	}
	// "One of my containers hogs RAM": a part of the user's own things is
	// their own thing too.
	if n := partOfOwn(words); n > 0 && len(words) >= n+2 {
		return lentFrom(statement, locs[n][0])
	}
	if len(words) < 3 || !situationSubjects[words[0]] {
		return "", false
	}
	i := 1
	for i < len(words)-1 && (adverb(words[i]) || auxiliaries[words[i]] && !verbless(words[i+1:])) {
		i++
	}
	if desireVerbs[words[i]] || i+1 >= len(words) {
		return "", false
	}
	from := locs[i+1][0]
	if ongoing(words[:i+1]) {
		from = locs[i][0]
	}
	return lentFrom(statement, from)
}

// lentFrom is the context statement lends from byte from on, without its
// closing punctuation; ok is false when that names nothing.
func lentFrom(statement string, from int) (ctx string, ok bool) {
	ctx = strings.TrimRight(strings.TrimSpace(statement[from:]), ".,;:!? ")
	if len(contentTerms(ctx)) == 0 {
		return "", false
	}
	return ctx, true
}

// ongoing reports whether a first-person statement's words up to its
// verb put that verb in the present progressive ("I'm copying", "we are
// moving"): the verb says what the user is doing as they ask, the task
// the question after it is a step of, so it is lent with its object.
// A verb in the past says what was done before and is not lent.
func ongoing(words []string) bool {
	verb := words[len(words)-1]
	if !strings.HasSuffix(verb, "ing") || len(verb) < 5 {
		return false
	}
	for _, w := range words[:len(words)-1] {
		switch w {
		case "i'm", "we're", "am", "are":
			return true
		}
	}
	return false
}

// ownerWords open a sentence whose subject is the user's own thing ("my
// gin app", "our build server").
var ownerWords = map[string]bool{"my": true, "our": true}

// ownedContext is the context a statement about the user's own thing
// lends ("My disk is busy all the time"): the statement without the
// possessive. Unlike a statement of what the user did, its verb says what
// state the thing is in ("sits behind a proxy", "has no extension"),
// which is what the question after it is asked in.
func ownedContext(statement string, locs [][]int) (string, bool) {
	return lentFrom(statement, locs[1][0])
}

// partOfOwn is the number of words that open a subject naming some of
// the user's own things ("one of my", "some of our", "a few of my"), 0
// when words do not open so.
func partOfOwn(words []string) int {
	for n := 2; n <= 3 && n < len(words); n++ {
		if words[n-1] == "of" && ownerWords[words[n]] && quantifiers[strings.Join(words[:n-1], " ")] {
			return n + 1
		}
	}
	return 0
}

// quantifiers name how many of a group ("one", "some", "a few").
var quantifiers = map[string]bool{"one": true, "some": true, "all": true, "most": true, "many": true, "several": true,
	"both": true, "a few": true, "each": true, "any": true, "none": true}

// adverb reports whether a word is only ever an adverb ("already",
// "never", "accidentally" of the lexicon's senses).
func adverb(w string) bool {
	ts := text.Terms(w)
	if len(ts) != 1 {
		return false
	}
	all, _ := lexicon.PartsOfSpeech(ts[0])
	return all == lexicon.Adverb || strings.HasSuffix(w, "ly") && all&lexicon.Adverb != 0
}

// verbless reports whether the words after an auxiliary hold no verb for
// it to help: past its adverbs, the next word is a stop word ("I have a
// file"), so the auxiliary is the verb itself.
func verbless(rest []string) bool {
	for _, w := range rest {
		if adverb(w) {
			continue
		}
		return len(text.Terms(w)) == 0
	}
	return true
}

// foldSituations folds each intent that is a first-person statement
// closed by a full stop in the question ("I resized the volume.")
// into every intent after it that is not one: their targets are
// completed with what the statements before them name, in parentheses,
// the form of the words a part borrows from its siblings. Statements in a
// row ("I'm moving to viper 1.20. My code imports mapstructure.") all set
// the scene of what is asked after them, each part of a question after
// them included ("What do I change for the import, and how do I keep HCL
// working?"). The statements' intents are dropped.
// The completed target is written into intents itself, whose backing
// array the result shares: callers use the result in place of intents.
func (r *run) foldSituations(intents []plugin.Intent) []plugin.Intent {
	if len(intents) < 2 {
		return intents
	}
	low := strings.ToLower(r.question)
	var out []plugin.Intent
	var lent []string // what the statements so far name
	for i := 0; i < len(intents); i++ {
		in := intents[i]
		if i+1 < len(intents) {
			if ctx, ok := situationContext(in.Target); ok && closedStatement(low, strings.ToLower(in.Target)) {
				lent = append(lent, ctx)
				continue
			}
		}
		if len(lent) > 0 {
			asked := in.Target
			in.Target = strings.TrimRight(strings.TrimSpace(asked), "?.! ") + " (" + strings.Join(lent, "; ") + ")"
			intents[i] = in
			r.trace.note("the statements before %q say what it is about; it is searched as %q", asked, in.Target)
		}
		out = append(out, in)
	}
	return out
}

// closedStatement reports whether part occurs in the question as a
// sentence of its own, closed by a full stop, an exclamation mark or a
// semicolon, not a question mark. The part may hold its closing mark
// itself, as seed detection keeps it ("I created a swap file;").
func closedStatement(question, part string) bool {
	part = strings.TrimRight(strings.TrimSpace(part), ".!;")
	at := strings.Index(question, part)
	if at < 0 || part == "" {
		return false
	}
	after := strings.TrimLeft(question[at+len(part):], " \t")
	return strings.HasPrefix(after, ".") || strings.HasPrefix(after, "!") || strings.HasPrefix(after, ";")
}
