package vm

import (
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugin/text"
	"github.com/mrpvm/mrpvm/retrieval/lexicon"
)

// TurnContext is what a later follow-up may draw on from one turn of a
// session: the question as it was searched, its topic and, for an
// answered turn, the sources its answer cited (first cited first).
type TurnContext struct {
	TurnID  string   `json:"turnId"`
	Query   string   `json:"query"`
	Topic   string   `json:"topic,omitempty"` // the words a follow-up carries
	Sources []string `json:"sources,omitempty"`
	Titles  []string `json:"titles,omitempty"`
	// Anchors are the cited sources the conversation is about as a whole
	// (the turn that set the topic named them, not only an action done to
	// them), and AnchorKUs the units of them that turn cited: a follow-up
	// prefers them over other sources that match its own words as well.
	Anchors   []string `json:"anchors,omitempty"`
	AnchorKUs []string `json:"anchorKus,omitempty"`
	// Action is the how-to's action when the topic keeps it because the
	// answering page is named after it ("stash" of git-stash): it is
	// carried only while that page holds the follow-up's own words.
	Action string `json:"action,omitempty"`
	// Family is the name the answering page shares with its siblings when
	// it is named after the action asked for ("docker-container" of
	// docker-container-run): a follow-up asking for another action wants
	// the sibling named after that one (docker-container-ls for "How do I
	// list them?"), when no other page leads with its words as well.
	Family string `json:"family,omitempty"`
	// Referents are the noun phrases the turn's question acted on
	// (objectPhrases), or those of the turn it continued: what a later
	// "it" or "them" stands for.
	Referents []string `json:"referents,omitempty"`
}

// maxTopicWords bounds the words a follow-up carries from an earlier turn.
const maxTopicWords = 12

// anaphors are words that point back at something named earlier.
var anaphors = map[string]bool{
	"it": true, "its": true, "it's": true, "them": true, "they": true, "their": true, "theirs": true,
	"this": true, "that": true, "these": true, "those": true, "one": true, "ones": true, "there": true,
	"he": true, "she": true, "him": true, "her": true, "same": true,
}

// ellipsisStarts open a question that continues the previous one.
var ellipsisStarts = []string{"and ", "also ", "but ", "or ", "what about ", "how about ", "then ", "so "}

// continuing opens a question that, in a session, adds to the previous
// one however much it names itself ("and delete files at the destination
// that no longer exist in the source?" after a turn on rsync): a question
// on its own does not start with a conjunction, unless it is a full
// question the conversation's pages do not hold (newQuestion).
const continuing = "and "

// lightWords carry no topic of their own in a follow-up ("how do I see
// them", "where are its settings").
var lightWords = map[string]bool{}

func init() {
	for _, t := range text.Terms("see show get make use find want need way ways thing things work do does") {
		lightWords[t] = true
	}
}

var wordRE = regexp.MustCompile(`[\p{L}\p{N}][\p{L}\p{N}'./_+-]*[\p{L}\p{N}]|[\p{L}\p{N}]`)

// howLeadRE finds the action word of a how-to question ("how do I *run* ...").
var howLeadRE = regexp.MustCompile(`(?i)\bhow\s+(?:do|can|could|should|would|to)\s+(?:i\s+|we\s+|you\s+)?`)

// contentTerms are the analysed terms of s that carry a topic: no stop
// words, no anaphors, no light verbs.
func contentTerms(s string) []string {
	var out []string
	for _, t := range text.Terms(s) {
		if !anaphors[t] && !lightWords[t] {
			out = append(out, t)
		}
	}
	return out
}

// maxFollowUpTerms is the most content words a follow-up names on its own
// ("How do I make it listen on another port number?"); a longer question
// that points back at something names it itself.
const maxFollowUpTerms = 5

// followUp reports whether q depends on an earlier turn: it points back
// ("them", "its") or continues ("and ...", "what about ...") and names too
// little on its own to be searched alone.
func followUp(q string) (bool, string) {
	low := strings.ToLower(strings.TrimSpace(q))
	content := contentTerms(q)
	for _, e := range ellipsisStarts {
		if strings.HasPrefix(low, e) && len(content) <= maxFollowUpTerms {
			return true, strings.TrimSpace(e)
		}
	}
	if len(content) > maxFollowUpTerms {
		return false, ""
	}
	if w := emptyLeadClause(low); w != "" {
		return true, w
	}
	locs := wordRE.FindAllStringIndex(low, -1)
	words := make([]string, len(locs))
	for i, loc := range locs {
		words[i] = low[loc[0]:loc[1]]
	}
	if n := len(words); n > 1 {
		// "Can I also see the sizes?"; "Does it work on Windows too?",
		// "instead?", "as well?" closing the question ("too long" is
		// not one).
		last := words[n-1]
		if slices.Contains(words[1:], "also") {
			return true, "also"
		}
		if last == "too" || last == "instead" || last == "well" && words[n-2] == "as" {
			return true, last
		}
	}
	for i, w := range words {
		if anaphors[w] && pointsBack(words, i) && !antecedentBefore(low, locs[i][0]) {
			return true, w
		}
	}
	return false, ""
}

// subordinators open a clause of time or condition.
var subordinators = []string{"once ", "when ", "after ", "if ", "now that ", "as soon as "}

// emptyLeadClause returns the subordinator of a clause of time or
// condition that opens low (a question in lower case) and names nothing
// ("once I'm in, how do I ...", "if so, ...", "when done, ..."): the state
// it speaks of is one the conversation set up. "" when there is none.
func emptyLeadClause(low string) string {
	comma := strings.Index(low, ",")
	if comma < 0 {
		return ""
	}
	for _, sub := range subordinators {
		if strings.HasPrefix(low, sub) && len(contentTerms(low[len(sub):comma])) == 0 {
			return strings.TrimSpace(sub)
		}
	}
	return ""
}

// pointsBack tells an anaphor from the same word used otherwise: the
// existential "is there", a relative or conjunctive "that" ("a command
// that counts words", "so that"), "any one", "one of" and a "which one"
// followed by its choices ("which one, scp or rsync?"), and the
// placeholder "it" of "is it possible".
func pointsBack(words []string, i int) bool {
	prev, next := "", ""
	if i > 0 {
		prev = words[i-1]
	}
	if i+1 < len(words) {
		next = words[i+1]
	}
	switch words[i] {
	case "there":
		return !beForms[prev] && !beForms[next] && next != "'s"
	case "that", "which":
		if words[i] == "that" && objectThat(next) {
			return true
		}
		if words[i] == "that" && demonstrative(words, i) {
			return true
		}
		return prev == "" || !(len(contentTerms(prev)) > 0 || prev == "so" || prev == "such") && !subjects[next]
	case "one", "ones":
		if prev == "which" || prev == "what" {
			// "Which one should I use?" chooses among what was named
			// before, unless the question names the choices itself.
			return !slices.ContainsFunc(words[i+1:], func(w string) bool { return choiceWords[w] })
		}
		return !choosers[prev] && next != "of"
	case "it", "it's":
		return !placeholderIt[next]
	}
	return true
}

// objectThat reports whether a "that" followed by next is a pronoun
// standing for a thing said before rather than a relative pronoun or a
// conjunction: it closes the question or a preposition follows it ("How
// do I save that to a file?", "How do I undo that?"), while a relative or
// conjunctive "that" opens a clause ("a command that counts words",
// "check that the file exists").
func objectThat(next string) bool {
	return next == "" || prepositions[next]
}

// demonstrative reports whether the "that" at words[i] points at a thing
// named before, as a determiner of the noun after it: that noun closes
// the question or a preposition or particle follows it ("open that file
// again", "delete that branch?"), where a relative "that" opens a clause
// ("a command that counts words").
func demonstrative(words []string, i int) bool {
	if i+1 >= len(words) || len(contentTerms(words[i+1])) == 0 {
		return false
	}
	return i+2 == len(words) || prepositions[words[i+2]]
}

// prepositions are the English prepositions and adverbial particles that
// may follow an object pronoun ("save that to a file", "turn it off").
var prepositions = map[string]bool{}

func init() {
	for _, w := range strings.Fields("to into onto in on from with without for by at as over under through across " +
		"instead again too back off out up down away inside outside before after") {
		prepositions[w] = true
	}
}

var (
	beForms       = map[string]bool{"is": true, "are": true, "was": true, "were": true, "be": true, "been": true, "isn't": true, "aren't": true}
	subjects      = map[string]bool{"i": true, "you": true, "we": true}
	choosers      = map[string]bool{"every": true, "any": true, "no": true, "only": true, "some": true}
	choiceWords   = map[string]bool{"or": true, "vs": true, "versus": true, "between": true}
	placeholderIt = map[string]bool{"possible": true, "impossible": true, "safe": true, "better": true, "worth": true, "necessary": true, "ok": true, "okay": true, "true": true}
)

// clauseBreakRE separates the clauses of one question.
var clauseBreakRE = regexp.MustCompile(`(?i)\s+(?:and|then|but|so|or|if|when|whenever|while|because|after|before|until|unless|once)\s+|[,;:]\s*`)

// howActionRE is a how-to lead with its action ("how do I use").
var howActionRE = regexp.MustCompile(`(?i)\bhow\s+(?:do|can|could|should|would|to)\s+(?:i\s+|we\s+|you\s+)?[\p{L}\p{N}'-]+`)

// antecedentBefore reports whether the anaphor at pos of q has something
// to refer to in an earlier clause of q itself: a content word that is
// not a how-to's action and can name a thing ("viper" in "What is viper
// and how do I use it?"). Such a question stands alone, in a session or
// not. A word the lexicon knows mostly as a verb, adjective or adverb
// names nothing a pronoun could stand for: "What happens when it rejects an
// answer?" points back.
func antecedentBefore(q string, pos int) bool {
	locs := clauseBreakRE.FindAllStringIndex(q[:pos], -1)
	if len(locs) == 0 {
		return false
	}
	earlier := howActionRE.ReplaceAllString(q[:locs[len(locs)-1][0]], " ")
	return slices.ContainsFunc(contentTerms(earlier), canName)
}

// canName reports whether an analysed term can name a thing: most of its
// senses are nouns, or the lexicon does not know it (a name: "viper",
// "gin"). "happen" has a noun sense ("happening") but is a verb.
func canName(term string) bool {
	all, main := lexicon.PartsOfSpeech(term)
	return all == 0 || main&lexicon.Noun != 0
}

// topicOf picks the words of a turn that a follow-up carries:
// the question's words that also name its first cited source (its path or
// title: "docker container" of "How do I run a docker container ...",
// answered from docker-container-run; "group" of groupadd), and the words
// that look like names (urfave/cli, kb-thinkingdb); when none do, every
// content word but the how-to's action. The action is kept only when the source is named after
// it and few sources hold it: "stash" of git-stash names a thing, "run"
// of docker-container-run is what one does to it.
func topicOf(query string, sourceID, title string, rare func(term string) bool) (topic, keptAction string) {
	action := howToAction(query)
	named := termSet(sourceName(sourceID) + " " + title)
	// A compound name holds the word it starts with ("group" of
	// groupadd): words of four letters or more at the start of a word of
	// the page's file name name it too.
	_, base := splitSourceID(sourceID)
	var compounds []string
	for _, w := range strings.FieldsFunc(strings.ToLower(strings.TrimSuffix(base, filepath.Ext(base))), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		compounds = append(compounds, w)
	}
	names := func(t string) bool {
		return named[t] || len(t) >= 4 && slices.ContainsFunc(compounds, func(w string) bool { return len(w) > len(t) && strings.HasPrefix(w, t) })
	}
	var picked, rest []string
	anyHit := false
	seen := map[string]bool{}
	// A page named after the action word alone ("find" of find.md, for
	// "How do I find files by name?") is the command the question asked
	// for, however common the word: the topic keeps it although it is a
	// light verb anywhere else.
	pageIsAction := action != "" && slices.Equal(text.Terms(action), text.Terms(strings.TrimSuffix(base, filepath.Ext(base))))
	for _, w := range wordRE.FindAllString(query, -1) {
		ts := contentTerms(w)
		isAction := action != "" && strings.EqualFold(w, action)
		if isAction && pageIsAction && len(ts) == 0 {
			ts = text.Terms(w)
		}
		if len(ts) == 0 || seen[strings.ToLower(w)] {
			continue
		}
		seen[strings.ToLower(w)] = true
		nameLike := strings.ContainsAny(w, "/-_.") || (len(w) > 1 && strings.ToUpper(w) == w && strings.ToLower(w) != w)
		hit := false
		for _, t := range ts {
			hit = hit || names(t)
		}
		switch {
		case isAction && !(hit && (pageIsAction || rare != nil && rare(ts[0]))):
		case isAction:
			keptAction = w
			anyHit = true
			picked = append(picked, w)
			rest = append(rest, w)
		case hit || nameLike:
			anyHit = anyHit || hit
			picked = append(picked, w)
			rest = append(rest, w)
		default:
			rest = append(rest, w)
		}
	}
	if !anyHit {
		// Nothing but the action names the page (or nothing at all): the
		// question's other words are what it was about.
		picked = rest
	}
	if anyHit {
		picked = append(picked, restOfName(title, picked, action)...)
	}
	if len(picked) > maxTopicWords {
		picked = picked[:maxTopicWords]
	}
	if !slices.Contains(picked, keptAction) {
		keptAction = ""
	}
	return strings.Join(picked, " "), keptAction
}

// restOfName is the word of a two-word page title ("gh run", "Core
// middlewares") that the picked topic words leave out when they hold the
// other: the conversation is about the thing the title names, of which
// the question said only part ("gh" of "How do I see the log of a job
// with gh?"), so that a later turn ("How do I start that one again?")
// searches within that thing, not the whole of what the part names. The
// question's action is not added ("run" of "docker run": what one does,
// see topicOf), nor anything when the title shares no word with the
// topic ("API Examples" of a question about gin).
func restOfName(title string, picked []string, action string) []string {
	words := strings.Fields(title)
	if len(words) != 2 {
		return nil
	}
	have := termSet(strings.Join(picked, " "))
	var missing []string
	for _, w := range words {
		ts := text.Terms(w)
		switch {
		case len(ts) != 1:
			return nil
		case !have[ts[0]]:
			missing = append(missing, w)
		}
	}
	if len(missing) != 1 || action != "" && strings.EqualFold(missing[0], action) {
		return nil
	}
	return missing
}

// lastTopicTurn is the session's last turn that has a topic, nil when
// none has.
func (r *run) lastTopicTurn() *TurnContext {
	for i := len(r.session.Context) - 1; i >= 0; i-- {
		if r.session.Context[i].Topic != "" {
			return &r.session.Context[i]
		}
	}
	return nil
}

// resolveFollowUp rewrites a follow-up question with the topic of the
// session's last turn that has one. It returns the question to search for,
// the turn it drew on (nil when q stands alone or nothing precedes it)
// and whether q is a follow-up at all.
func (r *run) resolveFollowUp(q string) (string, *TurnContext, bool) {
	prev := r.lastTopicTurn()
	is, _ := followUp(q)
	if !is && prev != nil && strings.HasPrefix(strings.ToLower(strings.TrimSpace(q)), continuing) {
		is = true
	}
	if !is && prev != nil && unnamedTopic(prev) {
		// The conversation is about a page its words cannot name (the at
		// command): a question whose own words that page mostly holds,
		// one of them rare in the knowledge base ("which jobs are
		// queued?"), is about it.
		if share, rare := r.heldShare(r.conversationTerms(prev), ownTerms(q, prev)); rare && share >= 0.5 {
			is = true
		}
	}
	if is && prev != nil && r.newQuestion(q, prev) {
		r.trace.note("follow-up: %q opens a question of its own, which the conversation's pages do not hold; it is searched alone", q)
		return q, nil, false
	}
	if !is && prev != nil && len(contentTerms(q)) > 0 {
		// Only an action ("How do I uninstall?") or one word that names
		// no page ("What is the default?"): it is about what the
		// conversation is about.
		if rest := contentTerms(howActionRE.ReplaceAllString(q, " ")); len(rest) == 0 || len(rest) == 1 && !r.namesSource(rest) {
			is = true
		}
	}
	if !is {
		return q, nil, false
	}
	if prev == nil {
		return q, nil, true
	}
	for _, src := range prev.Sources {
		if r.m.kb == nil {
			break
		}
		if rec, err := r.m.kb.Store().Source(src); err == nil && rec == nil {
			r.trace.fail(nil, CodeSessionSourceGone, "source %s, cited by an earlier turn of this session, is no longer in the knowledge base; only that turn's words are carried", src)
		}
	}
	topic := prev.Topic
	if prev.Action != "" && !r.anchorsHold(prev, q) {
		// The page named after the earlier action ("pull" of
		// docker-image-pull) says nothing of this question's own words:
		// the conversation is about the thing, not that action.
		topic = strings.Join(slices.DeleteFunc(strings.Fields(topic), func(w string) bool { return w == prev.Action }), " ")
		r.trace.note("follow-up: %q left out of the topic, its page does not hold this question's words", prev.Action)
	}
	if sub, tc, ok := r.substitute(q, prev, topic); ok {
		return sub, tc, true
	}
	if inv, ok := r.invert(q, prev); ok {
		return inv, prev, true
	}
	topic = withReferent(topic, q, prev)
	body := strings.TrimSpace(q)
	low := strings.ToLower(body)
	for _, e := range ellipsisStarts {
		if strings.HasPrefix(low, e) {
			body = strings.TrimSpace(body[len(e):])
			break
		}
	}
	body = strings.TrimRight(body, "?.! ")
	if body != "" {
		body = strings.ToUpper(body[:1]) + body[1:]
	}
	return fmt.Sprintf("%s (%s)?", body, topic), prev, true
}

// conversationPages are the pages a follow-up of prev is about: its
// anchors, or else its first cited source.
func conversationPages(prev *TurnContext) []string {
	if len(prev.Anchors) > 0 {
		return prev.Anchors
	}
	if len(prev.Sources) > 0 {
		return prev.Sources[:1]
	}
	return nil
}

// unnamedTopic reports whether the first page the conversation is about
// is named by a word that search drops ("at" of common/at.md is a stop
// word): the topic carried as words cannot name it, only the anchor can.
func unnamedTopic(prev *TurnContext) bool {
	pages := conversationPages(prev)
	if len(pages) == 0 || strings.Contains(pages[0], "::") {
		return false
	}
	_, base := splitSourceID(pages[0])
	name := strings.TrimSuffix(base, filepath.Ext(base))
	return name != "" && len(text.Terms(name)) == 0
}

// rareTerm reports whether an analysed term is held by few sources of
// the knowledge base (at most one, or fewer than one in fifty).
func (r *run) rareTerm(t string) bool {
	c := r.corp
	if c == nil || c.Documents() == 0 {
		return false
	}
	df := c.DocFreq(t)
	return df > 0 && (df <= 1 || float64(df) < 0.02*float64(c.Documents()))
}

// heldShare is the share of terms, each weighed by its rarity in the
// knowledge base, that held (conversationTerms: what the pages the
// conversation is about hold) holds, and whether it holds one of the rare
// ones (rareTerm); 0 without terms or statistics.
func (r *run) heldShare(held map[string]bool, terms []string) (share float64, rare bool) {
	if r.corp == nil || r.corp.Documents() == 0 || len(terms) == 0 {
		return 0, false
	}
	total, in := 0.0, 0.0
	for _, t := range terms {
		w := r.weight(t)
		total += w
		if held[t] {
			in += w
			rare = rare || r.rareTerm(t)
		}
	}
	if total == 0 {
		return 0, false
	}
	return in / total, rare
}

// conversationTerms are the analysed terms the pages the conversation is
// about (conversationPages) hold; empty without statistics.
func (r *run) conversationTerms(prev *TurnContext) map[string]bool {
	held := map[string]bool{}
	if r.corp == nil {
		return held
	}
	for _, src := range conversationPages(prev) {
		for t := range termSet(string(r.corp.SourceText(src))) {
			held[t] = true
		}
	}
	return held
}

// ownTerms are the content words of q besides its how-to action and the
// words of the earlier turn's topic.
func ownTerms(q string, prev *TurnContext) []string {
	topic := termSet(prev.Topic)
	return slices.DeleteFunc(contentTerms(howActionRE.ReplaceAllString(q, " ")), func(t string) bool { return topic[t] })
}

// questionLeads open a full question: a wh-word or an auxiliary.
var questionLeads = map[string]bool{
	"how": true, "what": true, "where": true, "which": true, "when": true, "why": true, "who": true,
	"can": true, "could": true, "do": true, "does": true, "is": true, "are": true, "should": true, "will": true, "would": true,
}

// newQuestion reports whether q, a turn that opens with "and" and is a
// follow-up only because of it, is a question of its own: what follows
// "and" is a full question (it opens with a wh-word or an auxiliary,
// unlike the fragment "and delete files at the target?"), leans on
// nothing said before (no pronoun, no "what about", no closing "too"),
// names something besides a how-to's action, and the pages the
// conversation is about (conversationPages) hold less than half of its
// own words, each weighed by its rarity in the knowledge base. "and how
// do I count the lines in a text file?" after a turn on at names a thing
// of its own, which the at page does not hold: completing it with that
// topic would search for something nobody asked.
func (r *run) newQuestion(q string, prev *TurnContext) bool {
	low := strings.ToLower(strings.TrimSpace(q))
	if !strings.HasPrefix(low, continuing) || r.corp == nil || r.corp.Documents() == 0 {
		return false
	}
	rest := strings.TrimSpace(low[len(continuing):])
	words := wordRE.FindAllString(rest, 2)
	if len(words) == 0 || !questionLeads[words[0]] || strings.HasPrefix(rest, "what about") || strings.HasPrefix(rest, "how about") {
		return false
	}
	if is, _ := followUp(rest); is {
		return false
	}
	if len(contentTerms(howActionRE.ReplaceAllString(rest, " "))) == 0 {
		// Only an action ("and how do I undo that?"): it is done to
		// what the conversation is about.
		return false
	}
	if len(conversationPages(prev)) == 0 {
		return false
	}
	topic := termSet(prev.Topic)
	own := slices.DeleteFunc(contentTerms(rest), func(t string) bool { return topic[t] })
	held := r.conversationTerms(prev)
	share, _ := r.heldShare(held, own)
	return len(own) > 0 && share < 0.5 && namesNewThing(held, own)
}

// namesNewThing reports whether one of a follow-up's own terms names a
// thing held (conversationTerms: what the pages the conversation is
// about hold) does not hold: a term the lexicon knows as no verb and mostly as a noun, or
// does not know at all (a name). "text" of "and how do I count the lines
// in a text file?" after a turn on at is such a thing; "stop", "go" and
// "back" of "And how do I stop and go back where I was?" only say what
// to do with what the conversation is about, and "permission" of "And
// how do I take that permission back?" is held by the page that granted
// it.
func namesNewThing(held map[string]bool, own []string) bool {
	return slices.ContainsFunc(own, func(t string) bool {
		if held[t] || lexicon.HasVerbSense(t) {
			return false
		}
		all, main := lexicon.PartsOfSpeech(t)
		return all == 0 || main&lexicon.Noun != 0
	})
}

// turnContext records a turn for later follow-ups: an answered one with
// its topic and cited sources, one the knowledge base had no answer for
// with its topic only; nil for a question that could not be searched
// (only common or unknown words, a follow-up with nothing to follow) or
// that failed: its words would mislead the next question.
func (r *run) turnContext(resp *Response, searched string, carried *TurnContext) *TurnContext {
	if resp.Status == StatusNoContext && r.searched {
		// The knowledge base did not answer, but the question was a real
		// one: its words (not the pages it was shown) are still what the
		// conversation is about (unansweredTopic).
		tc := &TurnContext{TurnID: r.turnID, Query: firstLine(searched, 1024)}
		if carried != nil {
			tc.Topic = carried.Topic
		} else if prev := r.lastTopicTurn(); r.stillOnPages(prev, searched) {
			// Unanswered, but about what the conversation's pages hold
			// ("how do I see which backups exist?" after a turn on
			// duplicity): the conversation is still about those pages.
			tc.Topic, tc.Anchors, tc.AnchorKUs = prev.Topic, prev.Anchors, prev.AnchorKUs
			r.trace.note("no answer, but the conversation's pages hold the question's words: the topic stays %q", prev.Topic)
		} else {
			tc.Topic = r.unansweredTopic(searched)
		}
		tc.Referents = referentsOf(r.asked, carried)
		return tc
	}
	if resp.Status != StatusAnswered {
		return nil
	}
	tc := &TurnContext{TurnID: r.turnID, Query: firstLine(searched, 1024)}
	for _, e := range resp.Evidence {
		if len(tc.Sources) == 5 {
			break
		}
		tc.Sources = append(tc.Sources, e.SourceID)
		tc.Titles = append(tc.Titles, e.Title)
	}
	rare := func(t string) bool {
		c := r.corp
		if c == nil || c.Documents() == 0 {
			return true
		}
		df := c.DocFreq(t)
		return df <= 1 || float64(df) < 0.02*float64(c.Documents())
	}
	switch {
	case carried != nil && len(carried.Sources) == 0 && len(tc.Sources) > 0:
		// The topic came from a turn nothing answered, so it is every word
		// that turn asked; now that a page answers, the words naming that
		// page are what the conversation is about.
		tc.Topic, tc.Action = topicOf(withNamed(carried.Topic, r.asked), tc.Sources[0], tc.Titles[0], rare)
		tc.Anchors, tc.AnchorKUs = anchorsOf(searched, tc.Topic, resp.Evidence, r.pageTitle)
		tc.Family = familyOf(searched, tc.Topic, tc.Sources[0])
	case carried != nil:
		tc.Topic, tc.Action = withNamed(carried.Topic, r.asked), carried.Action
		tc.Anchors, tc.AnchorKUs = carried.Anchors, carried.AnchorKUs
		tc.Family = carried.Family
	case len(tc.Sources) > 0:
		tc.Topic, tc.Action = topicOf(searched, tc.Sources[0], tc.Titles[0], rare)
		tc.Anchors, tc.AnchorKUs = anchorsOf(searched, tc.Topic, resp.Evidence, r.pageTitle)
		tc.Family = familyOf(searched, tc.Topic, tc.Sources[0])
		if tc.Family == "" && len(tc.Anchors) > 0 {
			tc.Topic = r.withPageName(tc.Topic, tc.Anchors[0], searched)
		}
	default:
		tc.Topic, _ = topicOf(searched, "", "", rare)
	}
	tc.Referents = referentsOf(r.asked, carried)
	return tc
}

// unansweredTopic is what a question the knowledge base could not answer
// (q) was about: the words of it that are a rare page's name (pageNames,
// rareOnly) when some are, else its words few sources hold (rareWords),
// else all its words. The user's own place ("on my CentOS box") is where
// they ask from, not what about, and is left out.
func (r *run) unansweredTopic(q string) string {
	asked := ownPlaceRE.ReplaceAllString(q, " ")
	if t := r.rareOnly(r.pageNames(asked)); t != "" {
		return t
	}
	t, _ := topicOf(asked, "", "", nil)
	return r.rareWords(t)
}

// ownPlaceRE matches the user's own place in a question: a preposition
// of place, a first-person possessive and a noun of one or two words ("on
// my CentOS box", "in our office").
var ownPlaceRE = regexp.MustCompile(`(?i)\b(?:on|in|at|from)\s+(?:my|our)\s+[\w.'’-]+(?:\s+[\w.'’-]+)?\b`)

// rareOnly is topic with only its words whose terms are all rare in the
// knowledge base (rareTerm), "" when none is: a page's name that most
// pages say ("https", in every page's link) does not tell what a
// question was about. Without a corpus to count in, topic is kept.
func (r *run) rareOnly(topic string) string {
	if r.corp == nil || r.corp.Documents() == 0 {
		return topic // no counts to judge by
	}
	var keep []string
	for _, w := range strings.Fields(topic) {
		ts := contentTerms(w)
		if len(ts) > 0 && !slices.ContainsFunc(ts, func(t string) bool { return !r.rareTerm(t) }) {
			keep = append(keep, w)
		}
	}
	return strings.Join(keep, " ")
}

// rareWords is topic with only its words whose terms are all rare in the
// knowledge base (rareTerm), or topic itself when none is.
func (r *run) rareWords(topic string) string {
	if rare := r.rareOnly(topic); rare != "" {
		return rare
	}
	return topic
}

// stillOnPages reports whether q, a question asked on its own that the
// knowledge base could not answer, is still about the pages an earlier
// answered turn (prev) was about: it names no page of its own, and those
// pages hold at least half of its content words, weighed by rarity, one
// of them rare in the knowledge base.
func (r *run) stillOnPages(prev *TurnContext, q string) bool {
	if prev == nil || len(prev.Sources) == 0 {
		return false
	}
	share, rare := r.heldShare(r.conversationTerms(prev), ownTerms(q, prev))
	return rare && share >= 0.5 && r.pageNames(q) == ""
}

// pageNames are the words of q that are, whole, the file name of a
// source of the knowledge base ("sftp" of common/sftp.md, for "How do I
// connect with sftp to a server on another port?"), in q's order: what
// a question the knowledge base could not answer was about, which its
// other words only qualify. "" when none is.
func (r *run) pageNames(q string) string {
	names := map[string]bool{}
	for _, st := range r.sourceStats() {
		_, base := splitSourceID(st.SourceID)
		names[strings.ToLower(strings.TrimSuffix(base, filepath.Ext(base)))] = true
	}
	var out []string
	for _, w := range wordRE.FindAllString(q, -1) {
		if low := strings.ToLower(w); names[low] && len(contentTerms(w)) > 0 && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return strings.Join(out, " ")
}

// maxPageNameWords bounds the words of a page's title a topic takes on.
const maxPageNameWords = 2

// withPageName is a topic with the words of the title of the page the
// conversation is about (its first anchor) added that the topic lacks,
// that are rare in the knowledge base (rareTerm) and that are not the
// how-to action of the question searched, when the topic already holds
// one word of that title: the question named the thing and the page
// named it in full ("git bisect" for "How do I hunt down the commit that
// introduced a bug in git?"), and that full name is what a follow-up
// pointing back at it means. A page whose title shares no word with the
// topic may answer something else than was asked; its name is not
// carried.
func (r *run) withPageName(topic, page, searched string) string {
	title := r.pageTitle(page)
	if !sharesTerm(title, topic) {
		return topic
	}
	have := termSet(topic)
	action := howToAction(searched)
	words := strings.Fields(topic)
	added := 0
	for _, w := range wordRE.FindAllString(title, -1) {
		ts := contentTerms(w)
		if len(ts) != 1 || have[ts[0]] || sharesTerm(w, action) || !r.rareTerm(ts[0]) || added == maxPageNameWords || len(words) >= maxTopicWords {
			continue
		}
		have[ts[0]] = true
		words = append(words, w)
		added++
	}
	return strings.Join(words, " ")
}

// howToAction is the action word of a how-to question ("run" of "How do
// I run a docker container?"), "" for another question.
func howToAction(q string) string {
	if loc := howLeadRE.FindStringIndex(q); loc != nil {
		if ws := wordRE.FindAllString(q[loc[1]:], 1); len(ws) > 0 {
			return ws[0]
		}
	}
	return ""
}

// anchorsOf picks the cited sources a conversation is about: all of them
// but a page named (by its path or page title, as pageTitle gives it)
// after the action a how-to question asked for, that action not being
// the topic itself. docker-container-run for "How do I run a docker
// container?" is about running, so a follow-up asking for another action
// wants another page; git-stash for "How do I stash my changes?" is the
// thing asked about ("stash" is its topic). A section's heading does not
// count: a page's "Installing" section is part of the page about what is
// installed.
func anchorsOf(query, topic string, cited []Evidence, pageTitle func(sourceID string) string) (sources, units []string) {
	action := ""
	if loc := howLeadRE.FindStringIndex(query); loc != nil {
		if ws := wordRE.FindAllString(query[loc[1]:], 1); len(ws) > 0 && !sharesTerm(ws[0], topic) {
			action = ws[0]
		}
	}
	for _, e := range cited {
		if len(units) == 5 {
			break
		}
		if action != "" && sharesTerm(action, sourceName(e.SourceID)+" "+pageTitle(e.SourceID)) {
			continue
		}
		units = append(units, e.KUID)
		if !slices.Contains(sources, e.SourceID) {
			sources = append(sources, e.SourceID)
		}
	}
	return sources, units
}

// splitSourceID splits a source id at its last "/" into the folder and
// the file name ("common/git-stash.md": "common", "git-stash.md").
func splitSourceID(id string) (dir, base string) {
	if i := strings.LastIndex(id, "/"); i >= 0 {
		return id[:i], id[i+1:]
	}
	return "", id
}

// familyOf is the name a page shares with its siblings when the page is
// named after the action a how-to question asked for, that action not
// being the topic: "docker-container" of docker-container-run for "How do
// I run a docker container?"; "" otherwise (git-stash for "How do I stash
// my changes?" is named after what is asked about).
func familyOf(query, topic, sourceID string) string {
	loc := howLeadRE.FindStringIndex(query)
	if loc == nil {
		return ""
	}
	ws := wordRE.FindAllString(query[loc[1]:], 1)
	if len(ws) == 0 || sharesTerm(ws[0], topic) || len(contentTerms(ws[0])) == 0 {
		return ""
	}
	_, base := splitSourceID(sourceID)
	base = strings.TrimSuffix(base, filepath.Ext(base))
	i := strings.LastIndex(base, "-")
	if i <= 0 || !sharesTerm(ws[0], base[i+1:]) {
		return ""
	}
	return base[:i]
}

// inFamily reports whether a source is the page a family is named by or
// one of its siblings ("docker-container", "docker-container-ls").
func inFamily(sourceID, family string) bool {
	_, base := splitSourceID(sourceID)
	base = strings.TrimSuffix(base, filepath.Ext(base))
	return base == family || strings.HasPrefix(base, family+"-")
}

// pageLead is what a page leads with: its title and its first paragraph
// (or quoted description) after the title, where a page says what it is
// for.
func pageLead(md []byte) string {
	var b strings.Builder
	inPara := false
	for _, line := range strings.Split(string(md), "\n") {
		t := strings.TrimSpace(line)
		switch {
		case t == "":
			if inPara {
				return b.String()
			}
		case strings.HasPrefix(t, "#") && !inPara:
			b.WriteString(strings.TrimLeft(t, "# ") + "\n")
		case strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~"):
			return b.String()
		default:
			inPara = true
			b.WriteString(strings.TrimLeft(t, "> ") + "\n")
		}
	}
	return b.String()
}

// leadCover weighs the follow-up's own words the lead of a source holds.
func (r *run) leadCover(sourceID string) float64 {
	if r.corp == nil {
		return 0
	}
	terms := termSet(pageLead(r.corp.SourceText(sourceID)))
	n := 0.0
	for _, t := range r.own {
		if terms[t] {
			n += r.weight(t)
		}
	}
	return n
}

// preferFamily puts first, in a follow-up's evidence, the sibling of the
// page the conversation came from (TurnContext.Family: that page was
// named after the action asked then) that leads with most of the
// follow-up's own words, unless a page of the evidence outside the family
// leads with more of them. "How do I list them?" after
// docker-container-run is answered from docker-container-ls ("List Docker
// containers."), not from docker-container, which lists them among other
// things, though the carried "docker container" matches that page best;
// "And how do I list images?" is not held in the family by
// docker-container-ls, since docker-image-ls leads with both its words.
func (r *run) preferFamily(ev []plugin.ScoredKU) []plugin.ScoredKU {
	c := r.carried
	if c == nil || c.Family == "" || len(r.own) == 0 || len(ev) == 0 || ev[0].KU == nil || r.m == nil || r.m.kb == nil || r.corp == nil {
		return ev
	}
	recs, err := r.m.kb.Store().Sources()
	if err != nil {
		return ev
	}
	best, bestCover := "", 0.0
	for _, rec := range recs {
		if !inFamily(rec.SourceID, c.Family) {
			continue
		}
		if cv := r.leadCover(rec.SourceID); cv > bestCover {
			best, bestCover = rec.SourceID, cv
		}
	}
	first := ev[0].KU.SourceID
	if best == "" || first == best || inFamily(first, c.Family) && r.leadCover(first) == bestCover {
		return ev
	}
	for _, e := range ev {
		if e.KU != nil && !inFamily(e.KU.SourceID, c.Family) && r.leadCover(e.KU.SourceID) > bestCover {
			// A page outside the family leads with more of the
			// follow-up's words: it asks about something else.
			return ev
		}
	}
	at := slices.IndexFunc(ev, func(e plugin.ScoredKU) bool { return e.KU != nil && e.KU.SourceID == best })
	var pick plugin.ScoredKU
	if at >= 0 {
		pick = ev[at]
	} else {
		units, err := r.m.kb.Store().SourceKUs(best)
		if err != nil {
			return ev
		}
		for _, k := range units {
			if k.Level == kus.LevelLeaf && (pick.KU == nil || r.cover(k) > r.cover(pick.KU)) {
				pick = plugin.ScoredKU{KU: k, Level: k.Level, Strategy: "session"}
			}
		}
		if pick.KU == nil {
			return ev
		}
	}
	if pick.Why == "" {
		pick.Why = "the page beside the earlier answer's that leads with this follow-up's words"
	}
	out := putFirst(ev, at, pick)
	r.trace.note("follow-up: %s, of the family %q of turn %s's page, put first", best, c.Family, c.TurnID)
	return out
}

// preferNamed puts first, in a follow-up's evidence, the page named
// after both what the conversation is about and what the follow-up asks
// for ("git push" for "push it to the remote" after "create a new git
// branch"), when the first page is not named after the follow-up's own
// words: the carried topic's words hold the first page of the
// conversation up, although another page is about what is asked now.
func (r *run) preferNamed(ev []plugin.ScoredKU) []plugin.ScoredKU {
	c := r.carried
	if c == nil || len(r.own) == 0 || len(ev) == 0 || ev[0].KU == nil || r.namedAfterOwn(ev[0].KU.SourceID) || r.anchorsSay() {
		return ev
	}
	topic := text.Terms(c.Topic)
	for i, e := range ev {
		if i == 0 || e.KU == nil || !r.namedAfterOwn(e.KU.SourceID) {
			continue
		}
		_, base := splitSourceID(e.KU.SourceID)
		names := termSet(sourceName(base) + " " + r.pageTitle(e.KU.SourceID))
		if !slices.ContainsFunc(topic, func(t string) bool { return names[t] }) {
			continue
		}
		out := putFirst(ev, i, e)
		r.trace.note("follow-up: %s, named after this question's own words and the conversation's topic, put first", e.KU.SourceID)
		return out
	}
	return ev
}

// putFirst returns evidence ev with pick first, its score raised to the
// best of ev so that it stays first, and the rest in their order without
// ev[at], the place pick came from (at < 0: pick came from elsewhere).
func putFirst(ev []plugin.ScoredKU, at int, pick plugin.ScoredKU) []plugin.ScoredKU {
	pick.Score = max(pick.Score, ev[0].Score)
	out := make([]plugin.ScoredKU, 0, len(ev)+1)
	out = append(out, pick)
	for i, e := range ev {
		if i != at {
			out = append(out, e)
		}
	}
	return out
}

// maxFolderFamily is the most sources a top-level folder may hold to
// stand for one subject (a library's documentation), not a collection
// (tldr's common/).
const maxFolderFamily = 64

// anchorFolders are the top-level folders ("chi/") of the pages the
// conversation is about that stand for one subject: they hold at most
// maxFolderFamily sources, and at most half of the workspace's files.
func (r *run) anchorFolders(anchors []string) []string {
	key := strings.Join(anchors, "\x00")
	if f, ok := r.folders[key]; ok {
		return f
	}
	f := r.findAnchorFolders(anchors)
	if r.folders == nil {
		r.folders = map[string][]string{}
	}
	r.folders[key] = f
	return f
}

func (r *run) findAnchorFolders(anchors []string) []string {
	var folders []string
	for _, a := range anchors {
		if f := topFolder(a); f != "" && !slices.Contains(folders, f+"/") {
			folders = append(folders, f+"/")
		}
	}
	if len(folders) == 0 || r.m == nil || r.m.kb == nil {
		return nil
	}
	recs, err := r.m.kb.Store().Sources()
	if err != nil {
		return nil
	}
	files := 0 // the workspace's own sources (not built-in ones such as plugin::<id>)
	for _, rec := range recs {
		if !strings.Contains(rec.SourceID, "::") {
			files++
		}
	}
	return slices.DeleteFunc(folders, func(f string) bool {
		n := 0
		for _, rec := range recs {
			if strings.HasPrefix(rec.SourceID, f) {
				n++
			}
		}
		return n > maxFolderFamily || 2*n > files
	})
}

// anchorsSay reports whether a page the conversation is about says, in
// its prose (code left out), every one of the follow-up's own words:
// git-branch's "Delete a local branch" answers "delete a local one"
// itself, while its "git push ... --delete" does not make it the page
// for "push it to the remote".
func (r *run) anchorsSay() bool {
	c := r.carried
	if c == nil || r.corp == nil || len(r.own) == 0 {
		return false
	}
	for _, src := range c.Anchors {
		terms := termSet(prose(string(r.corp.SourceText(src))))
		if !slices.ContainsFunc(r.own, func(t string) bool { return !terms[t] }) {
			return true
		}
	}
	return false
}

// codeRE matches Markdown code: fenced blocks and inline spans.
var codeRE = regexp.MustCompile("(?s)```.*?```|~~~.*?~~~|`[^`\n]*`")

// prose is Markdown without its code.
func prose(md string) string { return codeRE.ReplaceAllString(md, " ") }

// namedAfterOwn reports whether a source's file name or page title holds
// one of the follow-up's own words.
func (r *run) namedAfterOwn(sourceID string) bool {
	_, base := splitSourceID(sourceID)
	names := termSet(sourceName(base) + " " + r.pageTitle(sourceID))
	return slices.ContainsFunc(r.own, func(t string) bool { return names[t] })
}

// sourceName is a source id as words ("common/git-stash.md": "common git
// stash").
func sourceName(id string) string {
	return strings.NewReplacer("/", " ", "-", " ", "_", " ", ".md", " ", "::", " ").Replace(id)
}

func termSet(s string) map[string]bool {
	out := map[string]bool{}
	for _, t := range text.Terms(s) {
		out[t] = true
	}
	return out
}

// preferEarlier puts first, in a follow-up's evidence, the best unit of
// a source the conversation is about (TurnContext.Anchors) when it
// matches the follow-up's own words as well as the first unit does: of
// equally good matches, the page the user is reading about wins ("Where
// are its settings?" after an answer from the README's editor section),
// unless the first page is named after the follow-up's own words and no
// earlier page is. Without such a unit of the earlier page, a unit of
// another page in its top-level folder (the same library's
// documentation) is preferred the same way.
// A unit retrieval did not return is taken from the earlier answer's
// cited units. A source removed since is never brought back: its units
// are gone from the store.
func (r *run) preferEarlier(ev []plugin.ScoredKU) []plugin.ScoredKU {
	c := r.carried
	if c == nil || len(c.Anchors) == 0 || len(ev) == 0 || ev[0].KU == nil {
		return ev
	}
	if slices.Contains(c.Anchors, ev[0].KU.SourceID) {
		return r.ownSectionFirst(ev)
	}
	folders := r.anchorFolders(c.Anchors)
	inFolder := func(src string) bool {
		return slices.ContainsFunc(folders, func(f string) bool { return strings.HasPrefix(src, f) })
	}
	if inFolder(ev[0].KU.SourceID) {
		return ev
	}
	if r.namedAfterOwn(ev[0].KU.SourceID) && !slices.ContainsFunc(c.Anchors, r.namedAfterOwn) && !r.anchorsSay() {
		// The first page is named after what the follow-up asks for
		// ("git push" for "push it to the remote" after git-branch): it
		// is about that, the earlier page only mentions it.
		r.trace.note("follow-up: %s is named after this question's own words; the earlier answer's source is not put first", ev[0].KU.SourceID)
		return ev
	}
	cover := r.cover
	need := cover(ev[0].KU)
	if need == 0 && len(r.own) > 0 {
		need = math.SmallestNonzeroFloat64 // the unit must hold one of them
	}
	at := -1
	for i, e := range ev {
		if e.KU != nil && slices.Contains(c.Anchors, e.KU.SourceID) && cover(e.KU) >= need {
			at = i
			break
		}
	}
	var pick plugin.ScoredKU
	if at >= 0 {
		pick = ev[at]
	} else if r.m.kb != nil {
		for _, id := range c.AnchorKUs {
			k, err := r.m.kb.Store().KU(id)
			if err != nil || k == nil || !slices.Contains(c.Anchors, k.SourceID) || cover(k) < need {
				continue
			}
			pick = plugin.ScoredKU{KU: k, Level: k.Level, Strategy: "session"}
			break
		}
	}
	if pick.KU == nil {
		// Another page of the folder the earlier page is in ("chi/" of
		// chi/README.md: the library asked about) that holds the
		// follow-up's words as well as the first unit does.
		for i, e := range ev {
			if e.KU != nil && inFolder(e.KU.SourceID) && cover(e.KU) >= need {
				at, pick = i, e
				break
			}
		}
	}
	if pick.KU == nil {
		return ev
	}
	if pick.Why == "" {
		pick.Why = "the source of the earlier answer this follow-up continues"
	}
	out := putFirst(ev, at, pick)
	r.trace.note("follow-up: %s, the source of turn %s, put first", pick.KU.SourceID, c.TurnID)
	return out
}

// ownSectionFirst puts first, in a follow-up's evidence that opens with a
// unit of the page the conversation is on, the unit of that page that
// holds more of the follow-up's own words (cover) among those ranked
// nearly as high (sectionTie of the first's score, in the first few): the
// topic's words, which every section of the page shares, rank the page's
// sections; what the follow-up adds picks one ("Which method does that
// set type have to implement?" after viper's "Working with Flags": "Flag
// interfaces", not "What is Viper?").
func (r *run) ownSectionFirst(ev []plugin.ScoredKU) []plugin.ScoredKU {
	if len(r.own) == 0 {
		return ev
	}
	src := ev[0].KU.SourceID
	best, bestCover := 0, r.cover(ev[0].KU)
	for i := 1; i < min(len(ev), sectionTieRanks); i++ {
		e := ev[i]
		if e.KU == nil || e.KU.SourceID != src || e.Score < sectionTie*ev[0].Score {
			continue
		}
		if c := r.cover(e.KU); c > bestCover {
			best, bestCover = i, c
		}
	}
	if best == 0 {
		return ev
	}
	r.trace.note("follow-up: %s holds more of what the follow-up adds than %s; put first", ev[best].KU.ID, ev[0].KU.ID)
	pick := ev[best]
	pick.Score = ev[0].Score * (1 + sectionLead) // ahead of the unit it displaces, not tied with it
	return putFirst(ev, best, pick)
}

// sectionTie and sectionTieRanks bound the units ownSectionFirst weighs:
// those within sectionTieRanks of the top that score at least sectionTie
// of the first's score; the unit it puts first scores sectionLead more
// than the first did, so that the solver ranks it ahead, not level.
const (
	sectionTie      = 0.85
	sectionTieRanks = 4
	sectionLead     = 0.05
)

// unitText is what a unit itself says: its title and the Markdown it was
// read from up to its first subheading (a section unit's stored text is
// only its first paragraph; its subsections are units of their own), or
// its stored text when the source is not available.
func (r *run) unitText(k *kus.KU) string {
	if r.corp != nil && k.CharStart >= 0 && k.CharEnd > k.CharStart {
		if src := r.corp.SourceText(k.SourceID); k.CharEnd <= len(src) {
			return k.Title + "\n" + ownSection(string(src[k.CharStart:k.CharEnd]))
		}
	}
	return k.Title + "\n" + k.Text()
}

// ownSection cuts Markdown at its first heading after the first line,
// outside fenced code.
func ownSection(md string) string {
	var fences text.Fences
	off := 0
	for i, line := range strings.SplitAfter(md, "\n") {
		if !fences.Step(line) && i > 0 && strings.HasPrefix(line, "#") {
			return md[:off]
		}
		off += len(line)
	}
	return md
}

// focusedView is the evidence a follow-up is answered from first: the
// units of the sources the conversation is about and of their folder
// (when preferEarlier put one of them first), and of those the ones that hold one of the
// follow-up's own words. The carried topic found the right pages; the
// follow-up's own words ("middleware" of "How do I add middleware to
// it?") choose the passage, which the topic's words, matching every
// passage of the page, would otherwise outweigh. nil when the view would
// be all of ev.
func (r *run) focusedView(ev []plugin.ScoredKU) []plugin.ScoredKU {
	c := r.carried
	if c == nil || len(ev) == 0 || ev[0].KU == nil {
		return nil
	}
	view := ev
	if r.onConversationPages(ev[0].KU.SourceID) {
		view = nil
		for _, e := range ev {
			if e.KU != nil && r.onConversationPages(e.KU.SourceID) {
				view = append(view, e)
			}
		}
	}
	if len(r.own) > 0 {
		var focused []plugin.ScoredKU
		for _, e := range view {
			if e.KU != nil && r.cover(e.KU) > 0 {
				focused = append(focused, e)
			}
		}
		if len(focused) > 0 {
			view = focused
		}
	}
	if len(view) == len(ev) {
		return nil
	}
	return view
}

// onConversationPages reports whether a source is one of the pages the
// conversation is about (TurnContext.Anchors) or of their folder.
func (r *run) onConversationPages(sourceID string) bool {
	c := r.carried
	if c == nil || len(c.Anchors) == 0 {
		return false
	}
	if slices.Contains(c.Anchors, sourceID) {
		return true
	}
	return slices.ContainsFunc(r.anchorFolders(c.Anchors), func(f string) bool { return strings.HasPrefix(sourceID, f) })
}

// cover weighs the follow-up's own words a unit holds, each by how rare
// it is in the knowledge base ("middleware" counts more than "add").
func (r *run) cover(k *kus.KU) float64 {
	terms := termSet(r.unitText(k))
	n := 0.0
	for _, t := range r.own {
		if terms[t] {
			n += r.weight(t)
		}
	}
	return n
}

// weight is a term's inverse document frequency, 1 without statistics.
func (r *run) weight(t string) float64 {
	if r.corp == nil {
		return 1
	}
	docs := r.corp.Documents()
	if docs == 0 {
		return 1
	}
	return math.Log(1 + float64(docs)/float64(1+r.corp.DocFreq(t)))
}

// namesSource reports whether one of terms is a word of the name or title
// of a source of the knowledge base: the question names what it is about
// even though it also points back at something.
func (r *run) namesSource(terms []string) bool {
	if len(terms) == 0 || r.m.kb == nil {
		return false
	}
	want := map[string]bool{}
	for _, t := range terms {
		want[t] = true
	}
	recs, err := r.m.kb.Store().Sources()
	if err != nil {
		return false
	}
	for _, rec := range recs {
		for _, t := range text.Terms(sourceName(rec.SourceID) + " " + rec.Title) {
			if want[t] {
				return true
			}
		}
	}
	return false
}

// unknownWords lists the words of a question none of whose terms occurs
// in the knowledge base, as searched (after any spelling correction);
// nil when one of them does or there are no statistics to tell.
func (r *run) unknownWords() []string {
	q := r.question
	if r.trace.SearchedFor != "" {
		q = r.trace.SearchedFor
	}
	return r.unknownIn(q)
}

// unknownIn lists the words of q none of whose terms occurs in the
// knowledge base; nil when one of them does or without statistics.
func (r *run) unknownIn(q string) []string {
	if r.corp == nil || r.corp.Documents() == 0 {
		return nil
	}
	var words []string
	for _, w := range wordRE.FindAllString(q, -1) {
		ts := contentTerms(w)
		if len(ts) == 0 {
			continue
		}
		for _, t := range ts {
			if r.corp.DocFreq(t) > 0 {
				return nil
			}
		}
		if !slices.Contains(words, w) {
			words = append(words, w)
		}
	}
	if !r.corp.reliable() {
		return nil // an unreadable index says nothing about the words
	}
	return words
}

// pageTitle is the title of a source as ingested, "" when unknown.
func (r *run) pageTitle(sourceID string) string {
	if r.m.kb == nil {
		return ""
	}
	rec, err := r.m.kb.Store().Source(sourceID)
	if err != nil || rec == nil {
		return ""
	}
	return rec.Title
}

// sharesTerm reports whether a and b have a term in common.
func sharesTerm(a, b string) bool {
	in := termSet(b)
	for _, t := range text.Terms(a) {
		if in[t] {
			return true
		}
	}
	return false
}

// anchorsHold reports whether a page the conversation is about holds one
// of q's own words (those not in the earlier turn's topic).
func (r *run) anchorsHold(prev *TurnContext, q string) bool {
	if r.corp == nil {
		return true
	}
	topic := termSet(prev.Topic)
	var own []string
	for _, t := range contentTerms(q) {
		if !topic[t] {
			own = append(own, t)
		}
	}
	if len(own) == 0 {
		return true
	}
	for _, src := range prev.Anchors {
		terms := termSet(string(r.corp.SourceText(src)))
		for _, t := range own {
			if terms[t] {
				return true
			}
		}
	}
	return false
}

// substituteStarts open a follow-up that asks the earlier question again
// of something else ("What about bzip2?" after "How do I compress a file
// with gzip?").
var substituteStarts = []string{"what about ", "how about ", "and what about ", "and how about ", "and with ", "and for ", "and in ", "and ", "or "}

// substitute reads a follow-up that only names something else ("What
// about bzip2?", "and in gin?") as the earlier question asked of it: the
// words of the earlier topic that name the earlier page and not the pages
// the new words name ("gzip", which no page named bzip2 shares) are
// replaced by the new words in the earlier question as searched ("How do
// I compress a file with bzip2?"), so that the question keeps its action
// and its kind. It applies when the follow-up's one or two words each
// name pages by their file names (or library folders) and are not
// already in the earlier question, and some topic word is replaced. The
// turn it returns carries the new topic and no anchors: the conversation
// has moved to another page.
func (r *run) substitute(q string, prev *TurnContext, topic string) (string, *TurnContext, bool) {
	low := strings.ToLower(strings.TrimSpace(q))
	body := ""
	for _, st := range substituteStarts {
		if strings.HasPrefix(low, st) {
			body = strings.TrimRight(strings.TrimSpace(strings.TrimSpace(q)[len(st):]), "?.! ")
			break
		}
	}
	// "What about in chi?", "how about with bzip2?": the preposition
	// says how the new thing stands in the earlier question, which keeps
	// its own.
	for _, lead := range []string{"in ", "for ", "with ", "on ", "using ", "the ", "a ", "an "} {
		if len(body) > len(lead) && strings.EqualFold(body[:len(lead)], lead) {
			body = strings.TrimSpace(body[len(lead):])
		}
	}
	words := wordRE.FindAllString(strings.ToLower(body), -1)
	if body == "" || len(words) > 3 || slices.ContainsFunc(words, func(w string) bool { return anaphors[w] }) {
		return "", nil, false
	}
	terms := contentTerms(body)
	if len(terms) == 0 || len(words) > 2 || prev.Query == "" {
		return "", nil, false
	}
	// A word is compared whole: "kb-thinkingdb" is not "kb-fast",
	// although both hold "kb".
	inPrev := termSet(prev.Query)
	var fulls []string
	for _, w := range words {
		full := wholeTerm(w)
		// Every word names pages ("and only between two dates?" narrows
		// the earlier question, it does not ask it of "date"), and none
		// is in the earlier question already.
		if full == "" || inPrev[full] {
			return "", nil, false
		}
		fulls = append(fulls, full)
	}
	co, named := r.fileNamesWith(fulls)
	if len(fulls) == 0 || slices.ContainsFunc(fulls, func(t string) bool { return !named[t] }) {
		return "", nil, false
	}
	// The earlier topic's words that the new pages' names do not share
	// are what the new words stand in for.
	// Only a topic word that names pages itself stands for the earlier
	// thing ("gin" of "static files gin" for "What about in chi?"); the
	// rest says what is asked of either.
	var topicFulls []string
	for _, w := range strings.Fields(topic) {
		if full := wholeTerm(w); full != "" {
			topicFulls = append(topicFulls, full)
		}
	}
	_, topicNamed := r.fileNamesWith(topicFulls)
	var replaced, kept []string
	for _, w := range strings.Fields(topic) {
		if full := wholeTerm(w); full != "" && !co[full] && topicNamed[full] {
			replaced = append(replaced, w)
		} else {
			kept = append(kept, w)
		}
	}
	if len(replaced) == 0 {
		return "", nil, false
	}
	out, done := prev.Query, false
	for _, w := range replaced {
		by := ""
		if !done {
			by = body
		}
		if next := replaceWordFold(out, w, by); next != out {
			out, done = next, done || by != ""
		}
	}
	if !done {
		return "", nil, false
	}
	out = strings.Join(strings.Fields(out), " ")
	tc := &TurnContext{TurnID: prev.TurnID, Query: out, Topic: strings.TrimSpace(body + " " + strings.Join(kept, " "))}
	r.trace.note("follow-up: %q asks the earlier question of %q instead of %q", q, body, strings.Join(replaced, " "))
	return out, tc, true
}

// fileNamesWith returns the analysed words of the file names of the
// knowledge base's sources whose file name, or library folder
// (libraryNames), holds one of terms ("bzip2" of common/bzip2.md, "gin"
// of gin/docs/doc.md), and which of terms some source is named by. The
// source ids come from the stat bucket, without decoding a source record.
func (r *run) fileNamesWith(terms []string) (co, named map[string]bool) {
	co, named = map[string]bool{}, map[string]bool{}
	libs := r.libraryNames()
	for _, st := range r.sourceStats() {
		id := st.SourceID
		_, base := splitSourceID(id)
		names := append(text.Terms(strings.TrimSuffix(base, filepath.Ext(base))), text.Terms(sourceName(base))...)
		// A library's folder names each of its pages ("gin" of
		// gin/docs/doc.md).
		if folder := text.Terms(topFolder(id)); slices.ContainsFunc(folder, func(t string) bool { return libs[t] }) {
			names = append(names, folder...)
		}
		hit := false
		for _, t := range terms {
			if slices.Contains(names, t) {
				named[t], hit = true, true
			}
		}
		if !hit {
			continue
		}
		for _, t := range names {
			co[t] = true
		}
	}
	return co, named
}

// wholeTerm is the analysed form of a word as a whole ("kb-fast", not
// its parts "kb" and "fast"), "" for a word with no content.
func wholeTerm(w string) string {
	if len(contentTerms(w)) == 0 {
		return ""
	}
	return text.Terms(w)[0]
}

// replaceWordFold replaces by by the first word of s that is w or
// another form of it (the same whole term: "images" for "image").
func replaceWordFold(s, w, by string) string {
	want := wholeTerm(w)
	for _, loc := range wordRE.FindAllStringIndex(s, -1) {
		if strings.EqualFold(s[loc[0]:loc[1]], w) || want != "" && wholeTerm(s[loc[0]:loc[1]]) == want {
			return s[:loc[0]] + by + s[loc[1]:]
		}
	}
	return s
}

// reversals are the words that ask to undo what was done ("reverse"
// also asks for the reverse order: "sort -r" for "How do I reverse it?").
var reversals = termSet("undo revert")

// negativePrefixes make a word's opposite ("possible", "impossible";
// "mount", "unmount"); enPrefixes are replaced by them ("enable", "disable";
// "encrypt", "decrypt").
var (
	negativePrefixes = []string{"un", "dis", "de", "non", "im", "in", "ir", "il"}
	enPrefixes       = []string{"en", "em"}
)

// minOppositeBase is the fewest letters a word keeps without its
// negative prefix: "in" of "info" makes no opposite of "fo".
const minOppositeBase = 4

// opposites are the words a negative prefix, added, taken away or put in
// place of "en-", makes of w (lower case).
func opposites(w string) []string {
	w = strings.ToLower(w)
	var out []string
	for _, p := range negativePrefixes {
		if strings.HasPrefix(w, p) && len(w)-len(p) >= minOppositeBase {
			out = append(out, w[len(p):])
		}
	}
	for _, p := range enPrefixes {
		if strings.HasPrefix(w, p) && len(w)-len(p) >= minOppositeBase {
			out = append(out, "dis"+w[len(p):], "de"+w[len(p):])
		}
	}
	if len(w) >= minOppositeBase && !mainlyNoun(w) {
		// A thing has no opposite made with a prefix ("line", not
		// "inline"); a state or an action has ("locked", "mount").
		for _, p := range negativePrefixes {
			out = append(out, p+w)
		}
	}
	return out
}

// mainlyNoun reports whether WordNet knows word mainly as a noun.
func mainlyNoun(word string) bool {
	t := wholeTerm(word)
	if t == "" {
		return false
	}
	_, main := lexicon.PartsOfSpeech(t)
	return main == lexicon.Noun
}

// invert reads a follow-up that only asks to undo what the earlier turn
// did ("and how do I undo that?") as the earlier question with its word
// reversed: the first word of its main clause (up to its first
// subordinate clause) whose opposite, formed with a negative prefix
// (opposites), is a word of a page the earlier answer came from, or else
// its how-to action, when the opposite names a page of the knowledge
// base. "How do I make an entry locked so that nobody can edit it?" is
// undone by "How do I make an entry unlocked?", which the page that
// locked it says; "How do I enable a service?" by "How do I disable a
// service?", the page beside it. The word "undo" itself the answer need
// not hold. The conversation's topic stays the earlier one.
func (r *run) invert(q string, prev *TurnContext) (string, bool) {
	own := contentTerms(q)
	if len(own) != 1 || !reversals[own[0]] || prev.Query == "" || r.corp == nil {
		return "", false
	}
	pages := prev.Anchors
	if len(pages) == 0 && len(prev.Sources) > 0 {
		pages = prev.Sources[:1]
	}
	said := map[string]bool{}
	for _, src := range pages {
		for _, w := range wordRE.FindAllString(prose(string(r.corp.SourceText(src))), -1) {
			said[strings.ToLower(w)] = true
		}
	}
	main := strings.TrimRight(prev.Query, "?.! ")
	// The main clause starts at the how-to's lead when there is one: a
	// clause before it ("From the command line, how do I ...") sets the
	// scene and holds nothing to reverse.
	start := 0
	if lead := howLeadRE.FindStringIndex(main); lead != nil {
		start = lead[0]
	}
	if loc := clauseBreakRE.FindStringIndex(main[start:]); loc != nil {
		main = main[:start+loc[0]]
	}
	reverse := func(loc []int, o string) (string, bool) {
		out := main[:loc[0]] + o + main[loc[1]:] + "?"
		r.trace.note("follow-up: %q asks to undo the earlier question: %q", q, out)
		r.undone = true
		return out, true
	}
	for _, loc := range wordRE.FindAllStringIndex(main, -1) {
		w := main[loc[0]:loc[1]]
		if loc[0] < start || len(contentTerms(w)) == 0 {
			continue
		}
		for _, o := range opposites(w) {
			if said[o] {
				return reverse(loc, o)
			}
		}
	}
	// The page did one thing and its sibling does the opposite
	// (systemctl-enable, systemctl-disable): the how-to's action is
	// reversed when the opposite names a page.
	if lead := howLeadRE.FindStringIndex(main); lead != nil {
		if loc := wordRE.FindStringIndex(main[lead[1]:]); loc != nil {
			loc = []int{lead[1] + loc[0], lead[1] + loc[1]}
			for _, o := range opposites(main[loc[0]:loc[1]]) {
				if t := wholeTerm(o); t != "" {
					if _, named := r.fileNamesWith([]string{t}); named[t] {
						return reverse(loc, o)
					}
				}
			}
		}
	}
	return "", false
}

// modals are the auxiliaries of a question ("Can a workspace ..."), which
// name nothing although some are nouns as well.
var modals = map[string]bool{"can": true, "could": true, "may": true, "might": true, "must": true, "shall": true, "should": true, "will": true, "would": true}

// withNamed is a topic with the things a follow-up named itself added
// (its words that only name things, namesOnly; not its how-to action):
// "Can a workspace override them?" makes the conversation about the
// workspace too, which the next turn's "it" may stand for.
func withNamed(topic, followUp string) string {
	have := termSet(topic)
	words := strings.Fields(topic)
	for _, w := range wordRE.FindAllString(howActionRE.ReplaceAllString(followUp, " "), -1) {
		ts := contentTerms(w)
		if len(ts) != 1 || have[ts[0]] || modals[strings.ToLower(w)] || !namesOnly(ts[0]) || len(words) >= maxTopicWords {
			continue
		}
		have[ts[0]] = true
		words = append(words, w)
	}
	return strings.Join(words, " ")
}

// namesOnly reports whether an analysed term names a thing and nothing
// else: the lexicon does not know it (a name) or knows it as a noun only.
// A term with a verb sense may be what a follow-up does ("and delete
// files ..."; "delete" and "deletion" share a term), one with an
// adjective sense how ("different" and "differ").
func namesOnly(term string) bool {
	all, _ := lexicon.PartsOfSpeech(term)
	return all == 0 || all == lexicon.Noun
}
