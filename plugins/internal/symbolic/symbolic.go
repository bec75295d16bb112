package symbolic

import (
	"math"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mrpvm/mrpvm/plugin/text"
	"github.com/mrpvm/mrpvm/retrieval/lexicon"
)

// Phase scopes of instruction KUs.
const (
	ScopeGS    = "gs-plugin"
	ScopePlan  = "mrp-plan-plugin"
	ScopeFrame = "frame"
	ScopeVal   = "val-plugin"
	ScopeKB    = "kb-plugin"
)

// Piece is one sentence of a user's turn: a task (a question or request),
// an instruction scoped to a phase, or a stated fact.
type Piece struct {
	Text  string
	Task  bool
	Scope string // for instructions and facts
}

// instructionCues map phrases to the phase they instruct.
var instructionCues = []struct {
	scope string
	cues  []string
}{
	{ScopeGS, []string{"single word", "one word", "one-word", "yes or no", "yes/no", "use bullets", "bullet points", "as a list", "be brief", "briefly", "in one sentence", "short answer", "answer in", "answer with", "as a table", "in a table"}},
	{ScopeFrame, []string{"step by step", "break it down", "break down", "one part at a time", "trace every intermediate step"}},
	{ScopeVal, []string{"cite sources", "cite your sources", "must mention", "with citations", "cite the"}},
	{ScopePlan, []string{"think deeply", "use thinkingdb", "use the thinkingdb", "multi-hop", "be thorough", "quickly"}},
}

// sentenceRE splits on sentence ends followed by space.
var sentenceRE = regexp.MustCompile(`([.?!;])\s+`)

// Sentences splits text into sentences, keeping their end punctuation.
func Sentences(s string) []string {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil
	}
	var out []string
	last := 0
	for _, m := range sentenceRE.FindAllStringSubmatchIndex(s, -1) {
		end := m[3]
		if isAbbrevEnd(s[last:end]) {
			continue
		}
		if p := strings.TrimSpace(s[last:end]); p != "" {
			out = append(out, p)
		}
		last = m[1]
	}
	if p := strings.TrimSpace(s[last:]); p != "" {
		out = append(out, p)
	}
	return out
}

func isAbbrevEnd(s string) bool {
	s = strings.TrimSpace(s)
	i := strings.LastIndexAny(s, " (")
	w := strings.ToLower(s[i+1:])
	switch w {
	case "e.g.", "i.e.", "etc.", "vs.", "dr.", "mr.", "mrs.", "ms.", "cf.", "fig.", "no.", "st.":
		return true
	}
	return false
}

// Split classifies each sentence of a user's turn. A bare question
// (bareQuestion: "Why?", "Why is that?") asks about the statement before it
// and is one task with it (askedOf).
func Split(turn string) []Piece {
	var out []Piece
	for _, line := range strings.Split(turn, "\n") {
		line = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line), "-*0123456789.) "))
		for _, s := range Sentences(line) {
			if n := len(out); n > 0 && (toolQuestion(s) || bareHow(s) || bareAfterWish(s, out[n-1].Text)) && out[n-1].Task && !strings.HasSuffix(out[n-1].Text, "?") {
				// "What command do I use?" or "How?" after what the user
				// wants done asks how to do it: the statement is the
				// task, asked as a how-to when it states a wish ("I
				// need to pick 3 lines at random"). A bare "how" after
				// any other statement asks how of it (askedOf).
				if w := wishedTask(out[n-1].Text, s); w != "" {
					out[n-1] = classify(w)
					continue
				}
				if toolQuestion(s) {
					continue
				}
			}
			if n := len(out); n > 0 && bareQuestion(s) && !strings.HasSuffix(out[n-1].Text, "?") {
				out[n-1] = classify(askedOf(s, out[n-1].Text))
				continue
			}
			for _, part := range Parts(s) {
				out = append(out, classify(part))
			}
		}
	}
	return out
}

// bareQuestion reports whether sentence s is a question of question words
// and stop words alone ("Why?", "Why is that?"): it names nothing
// of its own, so it asks about what the user said before it.
func bareQuestion(s string) bool {
	low := strings.ToLower(strings.TrimSpace(s))
	return strings.HasSuffix(low, "?") && startsWithAny(low, questionStarts) && len(ContentTerms(low)) == 0
}

// toolQuestion reports whether sentence s asks only which tool, command
// or program to use ("What command do I use?", "Which tool should I
// use for that?", "What can I use?", "Which encoder do I use and how?"):
// it names no thing of its own, so it asks how to do what the user said
// before it.
func toolQuestion(s string) bool {
	low := strings.ToLower(strings.TrimSpace(s))
	if !strings.HasSuffix(low, "?") || !startsWithAny(low, questionStarts) {
		return false
	}
	// The thing to use may be named by its kind, right after the
	// question word ("Which encoder do I use and how?").
	agents := map[string]bool{}
	if words := strings.FieldsFunc(low, func(r rune) bool { return !unicode.IsLetter(r) }); len(words) > 1 && (words[0] == "which" || words[0] == "what") && agentNoun(words[1]) {
		for _, t := range ContentTerms(words[1]) {
			agents[t] = true
		}
	}
	terms := ContentTerms(low)
	for _, t := range terms {
		if !toolTerms[t] && !agents[t] {
			return false
		}
	}
	return len(terms) > 0
}

// agentNoun reports whether w names what does an action, as a tool's name
// often does: a noun of the action's verb and "-er" or "-or" ("encoder",
// "converter", "editor", "compressor"), which the general lexicon knows
// as mainly a verb without the suffix.
func agentNoun(w string) bool {
	w = strings.TrimSuffix(w, "s")
	var stems []string
	switch {
	case strings.HasSuffix(w, "er"):
		stems = []string{w[:len(w)-2], w[:len(w)-1]} // "convert", "encode"
	case strings.HasSuffix(w, "or"):
		stems = []string{w[:len(w)-2], w[:len(w)-2] + "e"} // "edit", "compress"
	default:
		return false
	}
	for _, v := range stems {
		if len(v) < 4 {
			continue
		}
		if t := text.Terms(v); len(t) == 1 {
			if _, main := lexicon.PartsOfSpeech(t[0]); main&lexicon.Verb != 0 {
				return true
			}
		}
	}
	return false
}

// bareHow reports whether s asks only how, of what was said before it
// ("How?", "How do I do that?", "How can I do it?").
func bareHow(s string) bool {
	return bareQuestion(s) && strings.HasPrefix(strings.ToLower(strings.TrimSpace(s)), "how")
}

// bareAfterWish reports whether s, a question of question words and stop
// words alone that asks what to do or whether there is a way ("What are
// the steps?", "What do I do?", "Is there a way?"), follows a statement
// of a wish: it asks how to do what is wished. A question of time, place,
// person or reason ("When?", "Where?", "Why?") or a yes/no question
// ("Should I?") asks something else of the wish.
func bareAfterWish(s, statement string) bool {
	low := strings.ToLower(strings.TrimSpace(s))
	asksWhat := wayQuestionRE.MatchString(low) || bareQuestion(s) && startsWithAny(low, []string{"what", "which"})
	return asksWhat && wishedTask(statement, s) != ""
}

// wayQuestionRE matches a question that asks only for a way, of some
// manner ("Is there a quick way?", "What's the easiest way?", "Any
// simpler way to do that?").
var wayQuestionRE = regexp.MustCompile(`^(?:is\s+there|are\s+there|what(?:'s|’s|\s+is|\s+are)|any)\s+(?:a|an|the|some|any)?\s*(?:\w+\s+){0,2}ways?(?:\s+to\s+do\s+(?:it|that|this))?\s*\?$`)

// wishRE finds a wish in a statement and what is wished done ("For a
// prize draw I need to pick 3 lines at random": "pick 3 lines at
// random"; "I'm on Fedora and want to move to the next release": "move
// to the next release"). The subject may be left out after "and" when
// the clause before it is the user's own (firstPerson), and an adverb may
// stand before the verb ("I just want to").
var wishRE = regexp.MustCompile(`(?i)\b(i|we|and)` + wishAdverb + `(?:\s+(?:want|need|have|would\s+like)|` + wouldLike + `)\s+to\s+(\w.*)`)

// wishAdverb is an adverb that may stand between a wish's subject and its
// verb ("I just want"), and wouldLike the contracted "'d like".
const (
	wishAdverb = `(?:\s+(?:just|really|only|also|still|now|simply))?`
	wouldLike  = `\s*['’]d\s+like`
)

// wishedThingRE finds a wish for a thing rather than an act ("Before the
// upgrade I'd like a read-only snapshot of it": "a read-only snapshot of
// it"): what is wished is a noun phrase that a determiner opens. "have"
// is no wish for a thing ("I have a file" says what the user has).
var wishedThingRE = regexp.MustCompile(`(?i)\b(?:i|we)` + wishAdverb + `(?:\s+(?:want|need|would\s+like)|` + wouldLike + `)\s+((?:a|an|the|some|my|our)\s+\w.*)`)

// wishedTask is the how-to a statement that states a wish asks ("How do I
// pick 3 lines at random from a file?"), or "" when it states none. A
// wish for a thing is asked with the verb of the question after it ("I
// need a certificate for localhost. How do I make one?": "How do I make a
// certificate for localhost?"), or with "get". The clause before a wish
// whose subject "and" left out says the user's situation ("I'm on Fedora
// 40 and want to move to the next release": "How do I move to the next
// release (I'm on Fedora 40)?"), which the task keeps in parentheses, as
// a follow-up keeps its topic.
func wishedTask(statement, question string) string {
	st := strings.TrimSpace(statement)
	for _, m := range wishRE.FindAllStringSubmatchIndex(st, -1) {
		task := "How do I " + strings.TrimRight(st[m[4]:m[5]], ".!;: ")
		if strings.EqualFold(st[m[2]:m[3]], "and") {
			before := strings.TrimRight(strings.TrimSpace(st[:m[2]]), ",;")
			if !firstPerson(before) {
				continue // "The backups pile up and need to be pruned": not the user's wish
			}
			task += " (" + before + ")"
		}
		return task + "?"
	}
	if m := wishedThingRE.FindStringSubmatch(st); m != nil {
		verb := "get"
		if q := askedVerbRE.FindStringSubmatch(strings.TrimSpace(question)); q != nil && !proVerbs[strings.ToLower(q[1])] {
			verb = strings.ToLower(q[1])
		}
		return "How do I " + verb + " " + strings.TrimRight(m[1], ".!;: ") + "?"
	}
	return ""
}

// firstPerson reports whether clause opens with the user as its subject
// ("I'm on Fedora 40", "we run a cluster").
func firstPerson(clause string) bool {
	f := strings.Fields(strings.ToLower(clause))
	if len(f) == 0 {
		return false
	}
	switch strings.ReplaceAll(f[0], "’", "'") {
	case "i", "we", "i'm", "we're", "i've", "we've", "i'd", "we'd":
		return true
	}
	return false
}

// proVerbs stand for any action ("How do I do that?"): they name none
// the wished thing could be asked with.
var proVerbs = map[string]bool{"do": true, "achieve": true, "manage": true, "accomplish": true}

// askedVerbRE finds the verb of a question that asks how to act on what
// was said before it ("How do I make one?": "make").
var askedVerbRE = regexp.MustCompile(`(?i)^how\s+(?:do|can|could|should|would)\s+(?:i|we)\s+(\w+)\s+(?:one|it|that|them|this|those|these)\s*\?$`)

// toolTerms are the analysed words a question about which tool to use is
// made of, beside question and stop words.
var toolTerms = func() map[string]bool {
	m := map[string]bool{}
	for _, t := range ContentTerms("tool tools command commands program programs utility utilities app application software use using run way can") {
		m[t] = true
	}
	return m
}()

// askedOf is the question a bare question asks of the statement before
// it: the question's words, then the statement ("Why?" after "The build
// fails." asks "Why The build fails?").
func askedOf(question, statement string) string {
	q := strings.TrimRightFunc(question, func(r rune) bool { return r == '?' || unicode.IsSpace(r) })
	st := strings.TrimRightFunc(statement, func(r rune) bool { return r == '.' || r == '!' || unicode.IsSpace(r) })
	return q + " " + st + "?"
}

// partRE finds where a sentence asks a second question: ", and how ...",
// "; and where ...", " and also what ...", or, after a comma, a yes/no
// question on a subject of its own (", and are its keys case sensitive",
// ", and can I ..."); group 1 is where that question starts. Without the
// comma an auxiliary after "and" is more often a verb of the first
// question's own ("how do I list and are ...") than a second question.
var partRE = regexp.MustCompile(`(?i)(?:(?:,|;)?\s+(?:and|then|and then|and also|also)\s+((?:how|what|why|where|which|when|who)\b)|(?:,|;)\s+(?:and|but|and also|also)\s+((?:is|are|does|do|did|can|could|should|will|would|was|were|has|have)\s+(?:it|its|they|their|there|the|this|that|these|those|i|my|we|our|you|your|a|an)\b))`)

// scopeRE is a sentence's leading scope ("In gin, ", "With viper, ")
// that the later parts of the sentence share.
var scopeRE = regexp.MustCompile(`(?i)^(?:in|with|using|for)\s+[^,]{1,40},\s+`)

// Parts splits a sentence that asks several questions ("how do I group
// routes, and how do I run the server?") into one question per part; a
// leading scope ("In gin, ") is kept on every part. A sentence with one
// question is returned as is.
func Parts(s string) []string {
	locs := partRE.FindAllStringSubmatchIndex(s, -1)
	if len(locs) == 0 {
		return []string{s}
	}
	scope := scopeRE.FindString(s)
	var out []string
	start := 0
	for _, l := range locs {
		// The part starts at its question word (group 1 or 2).
		q := l[2]
		if q < 0 {
			q = l[4]
		}
		if head := strings.TrimSpace(s[start:l[0]]); len(ContentTerms(head)) > 0 {
			out = append(out, head)
		} else {
			return []string{s}
		}
		start = q
	}
	tail := strings.TrimSpace(s[start:])
	if len(ContentTerms(tail)) == 0 {
		return []string{s}
	}
	out = append(out, tail)
	end := ""
	if strings.HasSuffix(tail, "?") {
		end = "?"
	}
	for i := range out {
		if i > 0 && scope != "" {
			out[i] = scope + strings.ToLower(out[i][:1]) + out[i][1:]
		}
		if i < len(out)-1 && end != "" && !strings.HasSuffix(out[i], end) {
			out[i] += end
		}
	}
	return out
}

func classify(s string) Piece {
	low := strings.ToLower(s)
	isQuestion := strings.HasSuffix(s, "?") || startsWithAny(low, questionStarts)
	for _, ic := range instructionCues {
		for _, c := range ic.cues {
			if strings.Contains(low, c) && (!isQuestion || len(strings.Fields(s)) <= 8 || strings.HasPrefix(low, "answer")) {
				return Piece{Text: s, Scope: ic.scope}
			}
		}
	}
	if isQuestion || startsWithAny(low, requestStarts) {
		return Piece{Text: s, Task: true}
	}
	if _, ok := ExtractFact(s); ok {
		return Piece{Text: s, Scope: ScopeKB}
	}
	// Anything else in a turn is still something the user wants handled.
	return Piece{Text: s, Task: true}
}

var questionStarts = []string{"what", "why", "how", "which", "who", "whom", "whose", "when", "where", "is ", "are ", "does ", "do ", "did ", "can ", "could ", "should ", "would ", "will ", "was ", "were ", "has ", "have "}

var requestStarts = []string{"explain", "describe", "compare", "define", "list", "show", "tell", "give", "find", "summarize", "summarise", "analyze", "analyse", "trace", "recommend", "identify", "evaluate", "diagnose", "verify", "help", "please"}

func startsWithAny(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// actCues pick an act from cue phrases, most specific first.
var actCues = []struct {
	act  string
	cues []string
}{
	{"compare", []string{" vs ", " vs. "}}, // and compareAnywhere
	{"implement", []string{"how do i", "how can i", "how to", "how should i", "steps to", "install", "configure", "set up", "setup"}},
	{"diagnose", []string{"fix", "error", "fails", "failing", "broken", "troubleshoot", "debug", "why does it not", "doesn't work", "not working"}},
	{"recommend", []string{"should i", "which is best", "which should", "recommend", "suits", "suit ", "best for", "which one"}},
	{"define", []string{"what is", "what are", "what's", "define", "definition", "meaning of", "what does", "stand for"}},
	{"explain", []string{"why", "explain", "how does", "how do ", "how is", "cause", "reason", "trace", "analyze", "analyse"}},
	{"verify", []string{"is it true", "verify", "check whether", "confirm", "would ", "did ", "was ", "were ", "is ", "are ", "does ", "can "}},
	{"identify", []string{"which", "who", "list", "name the", "find", "where", "when"}},
	{"evaluate", []string{"evaluate", "assess", "how good", "how well", "pros and cons"}},
	{"describe", []string{"describe", "tell me about", "summarize", "summarise", "overview"}},
}

// compareAnywhere are the comparison cues that decide the act wherever
// they stand; " vs " is not one of them, as it is also part of names ("VS
// Code"). "different" alone is no cue ("a different one", "two different
// structs" name other things, not a comparison): only "different from" or
// "different than" compares.
var compareAnywhere = regexp.MustCompile(`\b(?:compar(?:e|es|ed|ing)|versus|contrast(?:s|ed|ing)?|differ(?:s|ed|ing|ently|ences?)?|different\s+(?:from|than|to)|better\s+than)\b`)

// relativeDifferRE is "differ" in a relative clause, after the noun it
// qualifies ("the files that differ", "the byte where two files differ"):
// it says which things the question is about, it does not ask how things
// differ. An opening "which" asks ("Which settings differ?").
var relativeDifferRE = regexp.MustCompile(`[\w'-]\s+(?:that|which|where|whose)\s+(?:[\w'-]+\s+){0,3}differs?$`)

// clauseLead is the pattern of what may stand before a question's
// opening in its clause: a conjunction ("and what's the way to ...") or a
// leading scope ("In gin, what's the way to ...").
const clauseLead = `^\s*(?:(?:and|so|but|then|also|and\s+also)\s+|(?:in|with|using|for)\s+[^,]{1,40},\s+)*`

// howToOpenRE opens a question asking for the way to do a task ("what's
// the way to", "what is the best way to"): a how-to, not a question of
// what something is, whatever the task's verb.
var howToOpenRE = regexp.MustCompile(`(?i)` + clauseLead + `(?:what(?:'s|\s+is)\s+the\s+(?:\w+\s+)?way\s+to\b)`)

// choiceRE opens a question with the alternatives it chooses between,
// before a colon ("tar or zip: which one ...", "alpha or beta: when is
// beta worth it?").
var choiceRE = regexp.MustCompile(`(?i)^\s*[^\s:]+(?:\s+[^\s:]+)?\s+or\s+[^\s:]+(?:\s+[^\s:]+)?\s*:\s*\S`)

// ActOf picks the act of a task sentence; describe when nothing matches.
// A question asking for the way to do a task is a how-to ("What's the
// way to keep the file's owner?"); otherwise a comparison cue anywhere makes
// it a comparison ("What is the difference between X and Y?", "X or Y:
// how do they differ?"), alternatives before a colon a choice between
// them ("X or Y: when is X worth it?"), and a task that opens as a how-to
// does (asksHow) asks how to do it; otherwise the earliest cue decides.
func ActOf(s string) string { return actOf(s, true) }

// ActBeside is the act of a sentence of a turn that asks a question
// beside it: a wish there ("I want to contribute a plugin. Which files do
// I change?") says what the question is for, not how to do it, and its
// act is that of its cues.
func ActBeside(s string) string { return actOf(s, !wishes(s)) }

func actOf(s string, how bool) string {
	low := " " + strings.ToLower(s) + " "
	if howToOpenRE.MatchString(s) {
		return "implement"
	}
	for _, m := range compareAnywhere.FindAllStringIndex(low, -1) {
		if relativeDifferRE.MatchString(low[:m[1]]) {
			continue
		}
		return "compare"
	}
	if choiceRE.MatchString(s) {
		return "recommend"
	}
	if how && asksHow(s) {
		return "implement"
	}
	best, at := "describe", len(low)+1
	for _, ac := range actCues {
		for _, c := range ac.cues {
			if i := cueIndex(low, c); i >= 0 && i < at {
				best, at = ac.act, i
			}
		}
	}
	if best == "verify" && (strings.HasSuffix(low[:at], " what ") || quantityRE.MatchString(low[:at])) {
		// An auxiliary right after "what" is the question's verb, not
		// the opening of a yes/no question: "what can a route match on?"
		// asks for the things that can be, a list. So is one after "how
		// many" or "how much" and its noun: "how many words are in a
		// file?" asks for a number, not a verdict.
		return "identify"
	}
	return best
}

// cueIndex is where cue c first stands in low at the start of a word, or
// -1: "where" in "somewhere" or "fix" in "prefix" is no cue.
func cueIndex(low, c string) int {
	for off := 0; off < len(low); {
		i := strings.Index(low[off:], c)
		if i < 0 {
			return -1
		}
		i += off
		if r, _ := utf8.DecodeLastRuneInString(low[:i]); i == 0 || c[0] == ' ' || !(unicode.IsLetter(r) || unicode.IsDigit(r)) {
			return i
		}
		off = i + 1
	}
	return -1
}

// asksHow reports whether task opens as a how-to does (howOpenings, after
// lead words): "Is there a way to rename a branch?" and "I need to
// format a partition" ask how to do it, whatever cue of another act
// follows ("is", "can"). Wanting to know or understand something asks
// for it, not for a way to do it.
func asksHow(task string) bool {
	rest, opened := afterOpening(task)
	if !opened {
		return false
	}
	next, _, _ := strings.Cut(rest, " ")
	return !cognition[next]
}

// wishes reports whether task opens with a wish ("I want to", "I need
// to", "I'd like to").
func wishes(task string) bool {
	low := strings.ToLower(strings.TrimSpace(task)) + " "
	for _, o := range []string{"i want to ", "i need to ", "i'd like to "} {
		if strings.HasPrefix(low, o) {
			return true
		}
	}
	return false
}

// cognition are verbs of coming to know: "I want to know what X is" asks
// what X is.
var cognition = map[string]bool{"know": true, "understand": true, "learn": true}

// quantityRE is the opening of a question that asks for a quantity ("how
// many", "how much"), as ActOf sees it (lowercased, after a space).
var quantityRE = regexp.MustCompile(`^\s*how\s+(?:many|much)\b`)

// OutputOf names the output shape an act expects.
func OutputOf(act string) string {
	switch act {
	case "define":
		return "definition"
	case "explain":
		return "explanation"
	case "compare":
		return "comparison"
	case "implement":
		return "procedure"
	case "recommend":
		return "recommendation"
	case "diagnose":
		return "diagnosis"
	case "verify":
		return "verdict"
	case "identify":
		return "list"
	case "evaluate":
		return "evaluation"
	}
	return "description"
}

// leadIns are question openings dropped from a task's target.
var leadIns = []string{"can you please ", "could you please ", "please ", "can you ", "could you ", "tell me ", "explain why ", "explain how ", "explain ", "describe ", "define ", "what is the ", "what is a ", "what is an ", "what is ", "what are the ", "what are ", "what's ", "how do i ", "how can i ", "how to ", "why is ", "why does ", "why do ", "why ", "how does ", "how do ", "how is ", "which ", "what does ", "what do ", "what ", "who ", "compare "}

// wayToRE opens a question asking for a way to do a task ("is there a
// way to", "what's the best way to", "what's the command to", "is there
// a tool to"): the words before the task. The command or tool asked for
// is what the answer names; it is not a term the task must find.
var wayToRE = regexp.MustCompile(`(?i)^(?:is\s+there\s+(?:a|an|any)\s+(?:\w+\s+)?(?:way|command|tool)\s+to|what(?:'s|\s+is)\s+the\s+(?:\w+\s+)?(?:way|command|tool)\s+to)\s+`)

// meaningEndRE closes a question asking what something means ("What does
// kb_corrupt mean?", "What does TTL stand for?"): the words asking for a
// meaning, not what it is asked of.
var meaningEndRE = regexp.MustCompile(`(?i)\s+(?:mean|means|stand\s+for|stands\s+for)$`)

// TargetOf is the focus phrase of a task: the sentence without its lead-in
// ("what does", and a closing "mean" after it) and final punctuation, case
// kept.
func TargetOf(s string) string {
	t := strings.TrimSpace(s)
	if m := wayToRE.FindStringIndex(t); m != nil && strings.TrimSpace(t[m[1]:]) != "" {
		// "Is there a way to X", "What's the best way to X": the task is X.
		t = strings.TrimSpace(t[m[1]:])
	}
	low := strings.ToLower(t)
	lead := ""
	for _, l := range leadIns {
		if strings.HasPrefix(low, l) {
			t, lead = t[len(l):], l
			break
		}
	}
	t = strings.TrimRightFunc(t, func(r rune) bool { return r == '?' || r == '.' || r == '!' || unicode.IsSpace(r) })
	if lead == "what does " || lead == "what do " {
		if cut := meaningEndRE.ReplaceAllString(t, ""); strings.TrimSpace(cut) != "" {
			t = cut
		}
	}
	if t == "" {
		return strings.TrimSpace(s)
	}
	return t
}

// Fact is a subject-relation-object triple.
type Fact struct{ Subject, Relation, Object string }

// factRE recognises "<subject> <relation phrase> <object>".
var factRE = regexp.MustCompile(`(?i)^(.{1,80}?)\s+(uses|use|provides|provide|depends on|depend on|is part of|are part of|part of|causes|cause|caused|is relevant for|are relevant for|is relevant to|relevant for|supports|support|has the capability of|has capability|is an instance of|is a|is an|are a|mentions|is about|is used by|enables|requires|require|needs|contains|includes)\s+(.{1,120}?)[.!]?$`)

var relationOf = map[string]string{
	"uses": "uses", "use": "uses", "requires": "depends_on", "require": "depends_on", "needs": "depends_on",
	"provides": "provides", "provide": "provides", "enables": "provides",
	"depends on": "depends_on", "depend on": "depends_on",
	"is part of": "part_of", "are part of": "part_of", "part of": "part_of",
	"causes": "causes", "cause": "causes", "caused": "causes",
	"is relevant for": "relevant_for", "are relevant for": "relevant_for", "is relevant to": "relevant_for", "relevant for": "relevant_for",
	"supports": "supports", "support": "supports",
	"has the capability of": "has_capability", "has capability": "has_capability",
	"is an instance of": "instance_of", "is a": "instance_of", "is an": "instance_of", "are a": "instance_of",
	"mentions": "mentions", "is about": "about", "contains": "part_of", "includes": "has_capability",
}

// ExtractFact reads a fact from a declarative sentence with a short subject.
func ExtractFact(s string) (Fact, bool) {
	s = strings.TrimSpace(s)
	if s == "" || strings.HasSuffix(s, "?") {
		return Fact{}, false
	}
	m := factRE.FindStringSubmatch(s)
	if m == nil {
		return Fact{}, false
	}
	subj, rel, obj := strings.TrimSpace(m[1]), strings.ToLower(m[2]), strings.TrimSpace(m[3])
	if len(strings.Fields(subj)) > 6 || len(strings.Fields(obj)) > 10 || obj == "" {
		return Fact{}, false
	}
	if strings.ContainsAny(subj, ",;:") {
		return Fact{}, false
	}
	r, ok := relationOf[rel]
	if !ok {
		return Fact{}, false
	}
	return Fact{Subject: subj, Relation: r, Object: obj}, true
}

// generic words that carry no topic in a question.
var generic = termSet("explain describe define compare answer question tell show give list find why how what which who single word one yes no use using used trace every intermediate step steps relevant benefit benefits way ways make made thing things")

// actions are generic question words that, in a how-to, name what to do
// ("list the stashes", "show line numbers", "make it executable").
var actions = termSet("list show find make use give trace")

// termSet holds the analysed terms of words.
func termSet(words string) map[string]bool {
	set := map[string]bool{}
	for _, w := range text.Terms(words) {
		set[w] = true
	}
	return set
}

// ContentTerms are the analysed terms of s without generic question words.
func ContentTerms(s string) []string {
	return termsWithout(s, func(t string) bool { return generic[t] })
}

// TaskTerms are the content terms of a how-to task: ContentTerms, with the
// generic words that name the action kept, in order.
func TaskTerms(s string) []string {
	return termsWithout(s, func(t string) bool { return generic[t] && !actions[t] })
}

// termsWithout is the analysed terms of s, each once and in order, less
// those drop reports.
func termsWithout(s string, drop func(string) bool) []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range text.Terms(s) {
		if drop(t) || seen[t] {
			continue
		}
		seen[t] = true
		out = append(out, t)
	}
	return out
}

// Overlap is the share of want found among have's terms.
func Overlap(want []string, have map[string]bool) float64 {
	if len(want) == 0 {
		return 0
	}
	return float64(Shared(want, have)) / float64(len(want))
}

// Shared is how many of want's terms have holds.
func Shared(want []string, have map[string]bool) int {
	n := 0
	for _, t := range want {
		if have[t] {
			n++
		}
	}
	return n
}

// TermSet analyses s into a set of terms.
func TermSet(s string) map[string]bool {
	out := map[string]bool{}
	for _, t := range text.Terms(s) {
		out[t] = true
	}
	return out
}

// Rarity weighs terms by how rare they are in a knowledge base: the
// inverse document frequency log((N+1)/(df+0.5)), so a term few sources
// hold counts for more than one most sources hold. Without statistics
// every term weighs 1.
type Rarity struct {
	corpus interface {
		Documents() int
		DocFreq(term string) int
	}
}

// NewRarity builds a Rarity over c; c may be nil.
func NewRarity(c interface {
	Documents() int
	DocFreq(term string) int
}) Rarity {
	return Rarity{corpus: c}
}

// Known reports whether the knowledge base holds t at all (always true
// without statistics).
func (r Rarity) Known(t string) bool {
	if r.corpus == nil || r.corpus.Documents() == 0 {
		return true
	}
	return r.corpus.DocFreq(t) > 0
}

// Weight is the weight of term t.
func (r Rarity) Weight(t string) float64 {
	if r.corpus == nil {
		return 1
	}
	n := r.corpus.Documents()
	if n == 0 {
		return 1
	}
	df := r.corpus.DocFreq(t)
	return math.Log(float64(n+1) / (float64(df) + 0.5))
}

// Near reports whether a and b differ by at most one edit per four
// letters of the shorter (at most two): a typing mistake, not another word.
func Near(a, b string) bool {
	ra, rb := []rune(a), []rune(b)
	k := min(2, min(len(ra), len(rb))/4)
	if k == 0 {
		return a == b
	}
	if d := len(ra) - len(rb); d > k || -d > k {
		return false
	}
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		best := cur[0]
		for j := 1; j <= len(rb); j++ {
			c := 1
			if ra[i-1] == rb[j-1] {
				c = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+c)
			best = min(best, cur[j])
		}
		if best > k {
			return false
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)] <= k
}

var (
	stepRE = regexp.MustCompile(`(?m)^\s*(?:\d+[.)]|\$)\s+\S`)
	// codeRE finds code shown without a fence: a call, a block, an
	// assignment or a command-line option.
	codeRE = regexp.MustCompile(`\w\(|[{}]|:=|\w\s?=\s?\S|(?:^|\s)--?[a-zA-Z]`)
)

// Actionable reports whether s shows something to do: inline code, a
// code block, a numbered step, a shell prompt line or code without a
// fence (a call, a block, an assignment, a command-line option).
func Actionable(s string) bool {
	return strings.Contains(s, "`") || strings.Contains(s, "~~~") || stepRE.MatchString(s) || codeRE.MatchString(s)
}

// identRE finds identifiers written in camel or Pascal case ("SetDefault",
// "JSONFormatter", "PostForm").
var identRE = regexp.MustCompile(`\b[A-Za-z][a-z0-9]*(?:[A-Z][A-Za-z0-9]*)+\b`)

// camelWords splits an identifier into its words: "JSONFormatter" is JSON
// and Formatter, "SetDefault" is Set and Default.
func camelWords(id string) []string {
	rs := []rune(id)
	var out []string
	start := 0
	for i := 1; i < len(rs); i++ {
		lowerBefore := unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1])
		acronymEnd := unicode.IsUpper(rs[i-1]) && i+1 < len(rs) && unicode.IsLower(rs[i+1])
		if unicode.IsUpper(rs[i]) && (lowerBefore || acronymEnd) {
			out = append(out, string(rs[start:i]))
			start = i
		}
	}
	return append(out, string(rs[start:]))
}

// NamesTask reports whether code names the task: it holds an identifier
// made of at least two words, each a term of want (equal, or one a prefix
// of the other of at least four letters): "viper.SetDefault" for "set a
// default value", "logrus.JSONFormatter" for "log in JSON format". API
// documentation names a call after what it does; an identifier with a word
// of its own names something else done to the task's things
// ("SkipQueryString" does not read a query string).
func NamesTask(code string, want []string) bool {
	if len(want) < 2 || code == "" {
		return false
	}
	for _, id := range identRE.FindAllString(code, -1) {
		parts := camelWords(id)
		if len(parts) < 2 {
			continue
		}
		hit, other := 0, 0
		for _, part := range parts {
			ts := text.Terms(part)
			if len(ts) != 1 {
				continue
			}
			if slices.ContainsFunc(want, func(w string) bool { return termMatch(ts[0], w) }) {
				hit++
			} else {
				other++
			}
		}
		if hit >= 2 && other == 0 {
			return true
		}
	}
	return false
}

// termMatch reports whether analysed terms a and b are the same word, or
// one is a prefix of the other and both have at least four letters
// ("formatt" and "format").
func termMatch(a, b string) bool {
	if a == b {
		return true
	}
	if len(a) < 4 || len(b) < 4 {
		return false
	}
	return strings.HasPrefix(a, b) || strings.HasPrefix(b, a)
}
