package gssymbolic

import (
	"bytes"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugin/text"
	"github.com/mrpvm/mrpvm/plugins/internal/symbolic"
	"github.com/mrpvm/mrpvm/retrieval/lexicon"
)

// example is one "what it does: how" pair of a procedure KU, as in
// reference pages ("- Extract an archive:" followed by a command line) or
// a numbered step.
type example struct {
	desc string   // the description line, without its trailing colon
	how  []string // the lines that carry it out (commands, code)
	// context is what the example is part of, which names what it is
	// about without being shown: the description of the example whose
	// code holds a comment read as an example (commentExamples).
	context string
	// parent is 1 + the index of that example among its page's
	// examples, 0 for an example of the page itself: an answer shows
	// either the comment's statements or the whole code, not both.
	parent int
}

// procedure is a KU read as a summary followed by examples.
type procedure struct {
	ku       *kus.KU
	summary  string
	examples []example
}

// readProcedure splits a KU body into its summary and its examples: a line
// ending in ":" opens an example and the lines up to the next such line
// carry it out. A code comment ending in ":" ("// Subrouters:") labels the
// code under it inside a block the body holds without its fences, and
// opens no example. Bodies with no example are not procedures.
func readProcedure(k *kus.KU) (procedure, bool) {
	body := withoutCovers(k.TextBody)
	if k.Procedure != "" {
		body = k.Procedure
	}
	p := procedure{ku: k}
	var summary []string
	for _, raw := range strings.Split(body, "\n") {
		line := strings.TrimSpace(raw)
		if line == "" {
			continue
		}
		if strings.HasSuffix(line, ":") && len(line) > 1 && !codeComment(line) {
			desc := strings.TrimSpace(strings.TrimSuffix(line, ":"))
			desc = strings.TrimSpace(strings.TrimLeft(desc, "-*+ "))
			if d := strings.TrimLeft(desc, "0123456789"); d != desc && (strings.HasPrefix(d, ".") || strings.HasPrefix(d, ")")) {
				desc = strings.TrimSpace(d[1:])
			}
			p.examples = append(p.examples, example{desc: desc})
			continue
		}
		if n := len(p.examples); n > 0 {
			p.examples[n-1].how = append(p.examples[n-1].how, line)
		} else {
			summary = append(summary, line)
		}
	}
	// An example with nothing to run is prose that happened to end in a
	// colon; keep only real pairs.
	kept := p.examples[:0]
	for _, e := range p.examples {
		if len(e.how) > 0 {
			kept = append(kept, e)
		}
	}
	p.examples = kept
	p.summary = strings.Join(summary, " ")
	return p, len(p.examples) > 0
}

// rawOf is the Markdown a KU was read from, as written, or "" when the
// source text is not available (changed since ingest, no corpus). A unit's
// range covers its blocks' markup (fences, list and quote markers, a
// table's pipes), so the text reads as the page shows it.
func rawOf(k *kus.KU, c plugin.Corpus) string {
	if c == nil || k == nil || k.CharEnd <= k.CharStart || k.CharStart < 0 {
		return ""
	}
	src := c.SourceText(k.SourceID)
	if k.CharEnd > len(src) {
		return ""
	}
	raw := string(src[k.CharStart:k.CharEnd])
	if fence := openFence(src[:k.CharStart]); fence != "" {
		// A piece of a code block too long for one unit: its code
		// follows the block's opening fence (closeFence closes it).
		raw = fence + "\n" + raw
	}
	return fenceIndented(withoutComments(raw))
}

// withoutComments drops the HTML comments of Markdown outside its code
// blocks (test fixtures, editor directives: "<!-- { "args": [...] } -->"):
// they are not shown to a reader, so an answer does not quote them. A line
// that held only a comment goes with it.
func withoutComments(md string) string {
	if !strings.Contains(md, "<!--") {
		return md
	}
	lines := strings.Split(md, "\n")
	out := make([]string, 0, len(lines))
	var fences text.Fences
	inComment := false
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if !inComment && fences.Step(l) {
			out = append(out, l)
			continue
		}
		var kept strings.Builder
		rest := l
		for rest != "" {
			if inComment {
				i := strings.Index(rest, "-->")
				if i < 0 {
					rest = ""
					break
				}
				rest, inComment = rest[i+3:], false
				continue
			}
			i := strings.Index(rest, "<!--")
			if i < 0 {
				kept.WriteString(rest)
				break
			}
			kept.WriteString(rest[:i])
			rest, inComment = rest[i+4:], true
		}
		if k := kept.String(); strings.TrimSpace(k) != "" || t == "" {
			out = append(out, strings.TrimRight(k, " \t"))
		}
	}
	return strings.Join(out, "\n")
}

// openFence returns the opening fence line (without its container markup)
// of a fenced code block that before leaves open, or "".
func openFence(before []byte) string {
	open, char, width := "", byte(0), 0
	for line := range bytes.SplitSeq(before, []byte("\n")) {
		t := bytes.TrimLeft(line, " \t>")
		if len(t) < 3 || t[0] != '`' && t[0] != '~' {
			continue
		}
		w := 0
		for w < len(t) && t[w] == t[0] {
			w++
		}
		switch {
		case w < 3:
		case open == "":
			open, char, width = string(bytes.TrimRight(t, " \t\r")), t[0], w
		case t[0] == char && w >= width && len(bytes.TrimSpace(t[w:])) == 0:
			open = ""
		}
	}
	return open
}

// fenceIndented rewrites Markdown's indented code blocks (lines indented
// by four spaces or a tab after a blank line, outside a list) as fenced
// blocks, so that they stay code wherever the answer indents them.
func fenceIndented(md string) string {
	if !strings.Contains(md, "\n    ") && !strings.Contains(md, "\n\t") {
		return md
	}
	lines := strings.Split(md, "\n")
	out := make([]string, 0, len(lines)+4)
	indented := func(l string) bool { return strings.HasPrefix(l, "    ") || strings.HasPrefix(l, "\t") }
	var fences text.Fences
	lastText, blank := "", true
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		t := strings.TrimSpace(l)
		switch {
		case fences.Step(l):
		case t != "" && blank && indented(l) && !listLine(lastText):
			var block []string
			j := i
			for ; j < len(lines) && (strings.TrimSpace(lines[j]) == "" || indented(lines[j])); j++ {
				block = append(block, strings.TrimPrefix(strings.TrimPrefix(lines[j], "    "), "\t"))
			}
			for len(block) > 0 && strings.TrimSpace(block[len(block)-1]) == "" {
				block = block[:len(block)-1]
				j--
			}
			out = append(out, "```")
			out = append(out, block...)
			out = append(out, "```")
			i = j - 1
			lastText, blank = "```", false
			continue
		}
		out = append(out, l)
		if t != "" {
			lastText = l
		}
		blank = t == ""
	}
	return strings.Join(out, "\n")
}

// listLine reports whether a Markdown line is a list item or the indented
// continuation of one (after which indented lines belong to the list).
func listLine(l string) bool {
	t := strings.TrimSpace(l)
	if t == "" {
		return false
	}
	if l[0] == ' ' || l[0] == '\t' {
		return true
	}
	if strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "* ") || strings.HasPrefix(t, "+ ") {
		return true
	}
	d := strings.TrimLeft(t, "0123456789")
	return d != t && (strings.HasPrefix(d, ". ") || strings.HasPrefix(d, ") "))
}

// readRawProcedure is readProcedure over the KU's Markdown as written:
// an example's lines keep their code fences, indentation, list markers
// and blank lines, so the answer shows them as the page does. A line
// inside a code block never opens an example, even when it ends in ":".
func readRawProcedure(k *kus.KU, raw string) (procedure, bool) {
	p := procedure{ku: k}
	var summary []string
	var fences text.Fences
	// add adds a line to the last example, or before any example to the
	// summary unless it is code (a fence or a line inside one).
	add := func(line string, code bool) {
		if n := len(p.examples); n > 0 {
			p.examples[n-1].how = append(p.examples[n-1].how, line)
		} else if t := strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line), ">")); t != "" && !code && !strings.HasPrefix(t, "#") {
			summary = append(summary, t)
		}
	}
	// para holds the lines of the paragraph being read: wrapped lines of
	// one paragraph that ends in ":" are one description.
	var para []string
	heading := "" // the last subheading read, without its marks
	flush := func() {
		for _, l := range para {
			add(l, false)
		}
		para = nil
	}
	lines := strings.Split(raw, "\n")
	for li, line := range lines {
		if !fences.Open() {
			if navRE.MatchString(line) || tocRE.MatchString(line) || breakRE.MatchString(line) {
				// A table of contents' entry or a thematic break is
				// navigation, not what a page says.
				continue
			}
			line = unlink(line)
		}
		switch fences.Read(line) {
		case text.Inside, text.Closing:
			add(line, true)
			continue
		case text.Opening:
			flush()
			if len(p.examples) == 0 {
				// Code under a subheading before any description line
				// ("#### Single file" and its program) is that
				// subheading's example; code before any description
				// line or subheading is the section's own example, which
				// its heading describes (gin's "Bind Uri" program before
				// "Test it with:" and its curl lines).
				p.examples = append(p.examples, example{desc: heading})
			}
			add(line, true)
			continue
		}
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "#") {
			flush()
			heading = strings.TrimSpace(strings.TrimLeft(t, "#"))
			if len(p.examples) > 0 {
				// A subheading ends the example above it and opens its own.
				p.examples = append(p.examples, example{desc: heading})
				continue
			}
		}
		item := strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "* ") || strings.HasPrefix(t, "+ ") || strings.TrimLeft(t, "0123456789") != t
		if t == "" || item {
			flush()
		}
		if strings.HasSuffix(t, ":") && len(t) > 1 && !strings.HasPrefix(t, "#") && !strings.HasPrefix(t, "|") && paragraphEnds(lines, li) {
			for i := len(para) - 1; i >= 0; i-- {
				t = strings.TrimSpace(para[i]) + " " + t
			}
			para = nil
			desc := strings.TrimSpace(strings.TrimLeft(strings.TrimSuffix(t, ":"), "-*+ "))
			if d := strings.TrimLeft(desc, "0123456789"); d != desc && (strings.HasPrefix(d, ".") || strings.HasPrefix(d, ")")) {
				desc = strings.TrimSpace(d[1:])
			}
			p.examples = append(p.examples, example{desc: desc})
			continue
		}
		if t == "" || item {
			add(line, false)
			continue
		}
		para = append(para, line)
	}
	flush()
	kept := p.examples[:0]
	for _, e := range p.examples {
		e.how = closeFence(trimBlock(oneBlank(e.how)))
		if len(e.how) > 0 {
			kept = append(kept, e)
		}
	}
	p.examples = kept
	p.summary = strings.Join(summary, " ")
	if len(p.examples) == 1 && p.examples[0].desc == "" {
		// Code that no description line follows: the section shows it
		// without describing examples (wholeSection reads it).
		return p, false
	}
	return p, len(p.examples) > 0
}

// tocRE is a list item that opens with a link to a heading of its own
// page: a table of contents' entry.
var tocRE = regexp.MustCompile(`^\s*(?:[-*+]|\d+[.)])\s+\[[^\]]*\]\(#[^)]*\)`)

// oneBlank collapses runs of blank lines outside code blocks to one (the
// lines between them left out).
func oneBlank(lines []string) []string {
	out := lines[:0:0]
	var fences text.Fences
	for _, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case fences.Step(l):
		case t == "" && len(out) > 0 && strings.TrimSpace(out[len(out)-1]) == "":
			continue
		}
		out = append(out, l)
	}
	return out
}

// codeOf is the code of an example's lines: those inside its code blocks
// and those that are one span of inline code (a command line). An
// identifier named in prose ("Like the standard http.ServeMux") names a
// thing; code calls it.
func codeOf(how []string) string {
	var out []string
	var fences text.Fences
	for _, l := range how {
		switch fences.Read(l) {
		case text.Inside:
			out = append(out, l)
		case text.Prose:
			if codeLine([]string{strings.TrimSpace(l)}) || !rawBlock(how) {
				out = append(out, l)
			}
		}
	}
	return strings.Join(out, "\n")
}

// breakRE is a thematic break ("---", "* * *").
var breakRE = regexp.MustCompile(`^\s{0,3}(?:(?:-\s*){3,}|(?:\*\s*){3,}|(?:_\s*){3,})$`)

// paragraphEnds reports whether line i ends its paragraph: the next line
// is blank or opens a block (a fence, a list item, a table, a heading, a
// quote, indented code). A wrapped line that happens to end in ":" does
// not.
func paragraphEnds(lines []string, i int) bool {
	if i+1 >= len(lines) {
		return true
	}
	next := lines[i+1]
	t := strings.TrimSpace(next)
	return t == "" || strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") || isItem(t) ||
		strings.HasPrefix(t, "|") || strings.HasPrefix(t, "#") || strings.HasPrefix(t, ">") ||
		strings.HasPrefix(next, "    ") || strings.HasPrefix(next, "\t")
}

var (
	// linkRE matches a Markdown link: [text](target), a target holding
	// one level of parentheses included ("wiki/Viper_(G.I._Joe)").
	linkRE = regexp.MustCompile(`\[([^\]]*)\]\((?:[^()]|\([^()]*\))*\)`)
	// imageRE matches a Markdown image: ![alt](target).
	imageRE = regexp.MustCompile(`!\[[^\]]*\]\((?:[^()]|\([^()]*\))*\)`)
)

// unlink keeps the text of a line's links and drops their targets and its
// images (badges, logos): the answer quotes what the page says, and the KU
// it cites holds the text.
func unlink(line string) string {
	if !strings.Contains(line, "](") {
		return line
	}
	line = imageRE.ReplaceAllString(line, "")
	return strings.TrimRight(linkRE.ReplaceAllString(line, "$1"), " ")
}

// trimBlock drops leading and trailing blank lines and the indentation
// every line shares.
func trimBlock(lines []string) []string {
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	indent := -1
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, " \t"))
		if indent < 0 || n < indent {
			indent = n
		}
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		if len(l) >= indent && indent > 0 {
			l = l[indent:]
		}
		out[i] = strings.TrimRight(l, " \t")
	}
	return out
}

// rawBlock reports whether an example's lines are Markdown as written
// (a fence, a list, several lines) rather than one command line.
func rawBlock(how []string) bool {
	if len(how) != 1 {
		return true
	}
	t := strings.TrimSpace(how[0])
	return strings.HasPrefix(t, "`") || strings.HasPrefix(t, "-") || strings.HasPrefix(t, "*")
}

// scoredExample is an example with how well it answers the task.
type scoredExample struct {
	example
	score float64
	// plain is the score without the action's weight: how well the
	// example holds the task's terms, which decides between pages (an
	// action is carried out on many pages; its object names the page).
	plain float64
	order int // the example's place in its page
}

// descAction is how closely an example's description carries action: the
// action itself anywhere in it, or a relative of it as the verb it opens
// with ("Terminate a program" for "stop a process"). A relative further
// in is more often another sense of the word than the action ("hang up"
// in a description is no "suspend").
func descAction(action, desc string) float64 {
	d := text.Terms(desc)
	for _, t := range d {
		if t == action {
			return 1
		}
	}
	if len(d) == 0 {
		return 0
	}
	return symbolic.ActionMatch(action, map[string]bool{d[0]: true}, true)
}

// plainTop is the example of ex with the highest plain score (the first
// of equals, in ex's order before the action weighed).
func plainTop(ex []scoredExample) scoredExample {
	top := ex[0]
	for _, e := range ex[1:] {
		if e.plain > top.plain || (e.plain == top.plain && e.order < top.order) {
			top = e
		}
	}
	return top
}

// bestPlain is the highest plain score of ex.
func bestPlain(ex []scoredExample) float64 { return plainTop(ex).plain }

// summaryItemAnswers reports whether a list item of a procedure's summary
// holds, by itself, at least minOverlap of the task's terms and more of
// them than the best example holds in its own description and lines. Such
// an item ("`--run -` writes it to standard output") is a statement of
// its own, not an example (it opens nothing with a colon), and answers
// the task where the example only borrows the summary's words: the prose
// answer quotes it.
func summaryItemAnswers(p procedure, top scoredExample, want []string, joined map[string][]string) bool {
	own := symbolic.Overlap(want, withParts(symbolic.TermSet(top.context+" "+top.desc+" "+strings.Join(top.how, " ")), joined))
	for _, item := range summaryItems(p.summary) {
		if ov := symbolic.Overlap(want, withParts(symbolic.TermSet(item), joined)); ov >= minOverlap && ov > own {
			return true
		}
	}
	return false
}

// rowAnswers reports whether a table row of the evidence holds, by
// itself, at least minOverlap of the task's terms and more of them than
// the best example holds in its own description and lines. A reference
// table names what does a task in one row ("GetHead | Automatically route
// undefined HEAD requests to GET handlers" for "make HEAD requests get
// routed to GET handlers"), where an example elsewhere only shares a word
// or two: the prose answer quotes the row.
func rowAnswers(ev []plugin.ScoredKU, top scoredExample, want []string, joined map[string][]string, c plugin.Corpus) bool {
	own := symbolic.Overlap(want, withParts(symbolic.TermSet(top.context+" "+top.desc+" "+strings.Join(top.how, " ")), joined))
	for _, e := range ev {
		// Rows are read only from a unit's Markdown, and a unit whose
		// Markdown has no "|" has none: it is not parsed again.
		if e.KU == nil || !strings.Contains(rawOf(e.KU, c), "|") {
			continue
		}
		for _, s := range statementsOf(e.KU, c) {
			if s.kind != kindRow {
				continue
			}
			if ov := symbolic.Overlap(want, withParts(symbolic.TermSet(s.plain()), joined)); ov >= minOverlap && ov > own {
				return true
			}
		}
	}
	return false
}

// summaryItems returns the list items of a summary, each with the indented
// lines that continue it.
func summaryItems(summary string) []string {
	var items []string
	in := false
	for l := range strings.SplitSeq(summary, "\n") {
		t := strings.TrimSpace(l)
		switch {
		case isItem(t):
			items = append(items, t)
			in = true
		case in && t != "" && strings.HasPrefix(l, " "):
			items[len(items)-1] += " " + t
		default:
			in = false
		}
	}
	return items
}

// rankExamples scores each example by the task terms found in the KU's
// title, its summary and the example itself: a task is answered by one
// example of one page, so the terms must meet there, not across the page.
// Terms the description holds itself count extra, and more again when
// neighbours in the task are neighbours in the description ("generate an
// ed25519 key" answers "generate an ed25519 SSH key" better than "generate
// a seed phrase from an ed25519 key").
func (p procedure) rankExamples(want []string) []scoredExample {
	return p.rankFor(want, nil, "", "", nil)
}

// rankFor is rankExamples for a task whose action and its object are
// known (symbolic.Action): a description that carries the action, or a
// word the lexicon relates to it ("halt" for "stop"), and its object
// answers the task better than one that only shares its nouns ("show the
// changes of a stash" does not answer "bring the stash back").
//
// A phrasal verb (action with particle: "set up") is held only where its
// verb goes with its particle: the verb alone ("Set the UUID of a swap
// area") is another action, and neither counts among the task's terms
// nor carries the action there.
func (p procedure) rankFor(want []string, joined map[string][]string, action, particle string, object []string) []scoredExample {
	base := p.ku.Title + " " + p.summary
	number := givesNumber(want)
	out := make([]scoredExample, 0, len(p.examples))
	for _, e := range p.examples {
		terms := withParts(symbolic.TermSet(base+" "+e.context+" "+e.desc+" "+strings.Join(e.how, " ")), joined)
		otherSense := false
		if particle != "" && action != "" && !symbolic.SaysPhrasal(action, particle, base+" "+e.context+" "+e.desc) {
			delete(terms, action)
			otherSense = symbolic.SaysVerbAlone(action, particle, e.desc)
		}
		ownTerms := withParts(symbolic.TermSet(e.desc), joined)
		if v := otherAction(e.desc, action, object); v != "" {
			delete(terms, v)
			delete(ownTerms, v)
		}
		var seq []string
		for _, t := range text.Terms(e.desc) {
			if parts, ok := joined[t]; ok {
				seq = append(seq, parts...)
			} else {
				seq = append(seq, t)
			}
		}
		own := wordOverlap(want, ownTerms)
		score := wordOverlap(want, terms) + 0.25*own + 0.2*proximity(want, seq)
		if symbolic.NamesTask(codeOf(e.how), want) {
			score += 0.25 // its code calls what the task asks for
		}
		if callsAction(e.how, action) {
			score += callWeight // its code calls the action by name ("Mount(" for "mount")
		}
		plain := score
		if number && symbolic.TermSet(e.desc)["default"] {
			score -= defaultWeight // it leaves unset the amount the task gives
		}
		if action != "" && !otherSense {
			score += actionWeight * descAction(action, e.desc) * (1 + symbolic.Overlap(object, symbolic.TermSet(e.desc))) / 2
		}
		out = append(out, scoredExample{example: e, score: score, plain: plain, order: len(out)})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].score > out[j].score })
	return out
}

// otherAction is the verb an example's description opens with when it
// is a word the task names as part of what it acts on, not as its action
// ("[l]ist existing cron jobs" for "edit my personal list of cron jobs"):
// the example does another thing to the task's object, and the word it
// shares with the task is another part of speech there, which says
// nothing of what the task asks. It is "" when the task has no action,
// the description opens with the action itself or a relative of it, or
// its first word has no verb sense.
func otherAction(desc, action string, object []string) string {
	if action == "" {
		return ""
	}
	d := text.Terms(desc)
	if len(d) == 0 || d[0] == action || !slices.Contains(object, d[0]) || !lexicon.HasVerbSense(d[0]) {
		return ""
	}
	// The description must open with the verb in its bare form, as an
	// example's imperative does ("List ..."): a heading's gerund
	// ("Testing handlers") or a word further in ("For each commit ...")
	// is no action of the example's.
	first := strings.ToLower(strings.NewReplacer("[", "", "]", "").Replace(openingWordRE.FindString(desc)))
	if t := text.Terms(first); len(t) == 0 || t[0] != d[0] || strings.HasSuffix(first, "ing") || strings.HasSuffix(first, "ed") {
		return ""
	}
	if symbolic.ActionMatch(action, map[string]bool{d[0]: true}, true) > 0 {
		return ""
	}
	return d[0]
}

// openingWordRE matches the word a description opens with, a mnemonic
// letter in brackets kept within it ("[l]ist").
var openingWordRE = regexp.MustCompile(`^[\p{L}\[\]]+`)

// wordOverlap is the share of the task's words that have holds, a
// hyphenated word and the parts the analyser also gives for it ("wi-fi",
// "wi", "fi") counting as the one word the task wrote: held when have
// holds the whole word, else by the share of its parts have holds. A
// description that names one such word is not worth three that name
// three of the task's words ("Display Wi-Fi stations" against "Look for
// networks with a station" for "make my Wi-Fi card look for networks").
func wordOverlap(want []string, have map[string]bool) float64 {
	parts, isPart := hyphenParts(want)
	if len(parts) == 0 {
		return symbolic.Overlap(want, have)
	}
	units, held := 0, 0.0
	for _, w := range want {
		if isPart[w] {
			continue
		}
		units++
		switch ps := parts[w]; {
		case have[w]:
			held++
		case len(ps) > 0:
			held += float64(symbolic.Shared(ps, have)) / float64(len(ps))
		}
	}
	return held / float64(units)
}

// hyphenParts maps each hyphenated word of want to the parts of it want
// also holds, and reports which terms of want are such parts.
func hyphenParts(want []string) (parts map[string][]string, isPart map[string]bool) {
	parts, isPart = map[string][]string{}, map[string]bool{}
	for _, w := range want {
		if !strings.Contains(w, "-") {
			continue
		}
		for _, p := range text.Terms(strings.ReplaceAll(w, "-", " ")) {
			if p != w && slices.Contains(want, p) && !isPart[p] {
				parts[w] = append(parts[w], p)
				isPart[p] = true
			}
		}
	}
	return parts, isPart
}

// defaultWeight is what an example loses, among the examples of its page,
// for saying it runs with a default when the task gives a number ("wrap
// lines so none is wider than 40 characters"): the task sets the amount,
// which the examples that take a value ("Wrap each line to width 30")
// show and the default one ("Wrap each line to default width (80
// characters)") does not. It is more than the one term a default's
// description holds beside the task's number ("characters").
const defaultWeight = 0.2

// givesNumber reports whether the task's terms hold a number.
func givesNumber(want []string) bool {
	for _, t := range want {
		if t != "" && strings.Trim(t, "0123456789.") == "" && strings.Trim(t, ".") != "" {
			return true
		}
	}
	return false
}

// phrasalSaid is particle when some unit of the evidence says the
// phrasal verb of action and particle, else "".
func phrasalSaid(ev []plugin.ScoredKU, action, particle string) string {
	if action == "" || particle == "" {
		return ""
	}
	for _, e := range ev {
		if e.KU != nil && symbolic.SaysPhrasal(action, particle, e.KU.Title+"\n"+e.KU.Text()+"\n"+e.KU.TextBody) {
			return particle
		}
	}
	return ""
}

// solveProcedure answers a how-to task from the best example among the
// procedure KUs of the evidence; nil when no evidence KU is a procedure
// or none holds enough of the task.
func solveProcedure(ev []plugin.ScoredKU, task string, want []string, g guidance, c plugin.Corpus) *plugin.SolveResult {
	type cand struct {
		p     procedure
		ex    []scoredExample
		score float64
	}
	var cands []cand
	action, object := symbolic.Action(task)
	// A phrasal verb ("set up") tells passages apart only where the
	// evidence says it: where none does ("find out" when pages say
	// "find"), its verb says the action alone.
	particle := phrasalSaid(ev, action, symbolic.ActionParticle(task))
	joined := compounds(task)
	shownAct := "" // the display action the task asks for, if any
	if own, _ := lentContext(task); !quantityRE.MatchString(own) {
		if oa, _ := symbolic.Action(own); symbolic.DisplayAction(oa) {
			shownAct = oa
		}
	}
	if symbolic.LightAction(action) {
		// "list files sorted by size": what to list says what to do.
		action = ""
	}
	leafOf := map[string]bool{} // the sources the evidence holds a leaf unit of
	for _, e := range ev {
		if e.KU != nil && e.KU.Level == kus.LevelLeaf {
			leafOf[e.KU.SourceID] = true
		}
	}
	lits := optionLiterals(task)
	rarest := rarestTerm(want, c)
	negWant := negated(task)
	for _, e := range ev {
		if e.KU == nil {
			continue
		}
		if e.KU.Level == kus.LevelSection && len(e.KU.ChildUnitIDs) > 1 && leafOf[e.KU.SourceID] {
			// A unit of several subsections gathers the task's words
			// across them ("Reading Config Files" beside "io.Reader"'s
			// nested yaml); its page is read through its own sections'
			// units when the evidence holds any.
			continue
		}
		p, ok := readProcedure(e.KU)
		raw := rawOf(e.KU, c)
		if raw != "" {
			if rp, rok := readRawProcedure(e.KU, raw); rok {
				if rp.summary == "" {
					rp.summary = p.summary // the text as the KU holds it
				}
				p, ok = rp, true
			}
		}
		if !ok {
			// A section that shows code but pairs no description with it
			// ("Watching and re-reading config files" and its snippet)
			// is one example: the section itself.
			if p, ok = wholeSection(e.KU, raw); !ok {
				continue
			}
		}
		p.examples = append(p.examples, commentExamples(p.examples)...)
		p.examples = withoutShown(p.examples, g.shown, g.ownAction)
		ex := p.rankFor(want, joined, action, particle, object)
		if len(lits) > 0 {
			// An option the task quotes as written ("combine short
			// options like -som") is shown by the example that has it.
			for i := range ex {
				if holdsLiteral(ex[i].how, lits) {
					ex[i].score += literalWeight
				}
			}
			sort.SliceStable(ex, func(i, j int) bool { return ex[i].score > ex[j].score })
		}
		// The retriever's score weighs as much as the example's: it saw
		// the whole knowledge base, the solver sees a handful of KUs.
		// A heading that names the task marks the passage written to
		// answer it ("Watching and re-reading config files"), and a
		// passage that shows what to do beats one that only names it.
		titleOv := symbolic.Overlap(want, withParts(symbolic.TermSet(p.ku.Title), joined))
		pathOv := symbolic.Overlap(want, withParts(symbolic.TermSet(p.ku.Title+" "+strings.Join(ancestors(p.ku), " ")), joined))
		score := bestPlain(ex) + e.Score + titleWeight*titleOv + ancestorWeight*(pathOv-titleOv)
		top := plainTop(ex)
		if symbolic.Actionable(strings.Join(top.how, "\n")) && !proseList(top.how) {
			score += codeBonus
		}
		if symbolic.NamesTask(codeOf(top.how), want) {
			score += identBonus // the code calls what the task asks for
		}
		if anc := ancestors(p.ku); names(task, p.ku.Title) || len(anc) > 0 && symbolic.Overlap(want, symbolic.TermSet(anc[0])) > 0 {
			// The task names this very tool or page, or a word of the
			// top heading of the page this is a section of ("gin" of
			// "Gin Quick Start"): what the page is about, every section
			// of it is about.
			score += 0.5
		}
		if embedsTerm(p.ku.Title, rarest) {
			// A page named for what the task is about ("lsusb" for
			// "list the USB devices") is the tool for it: its name
			// counts as a heading naming that term would.
			score += titleWeight / float64(len(want))
		}
		if shownAct != "" && top.desc != "" && symbolic.Shows(shownAct, top.desc) {
			score += displayWeight / 2 // its best example shows what the task asks to see
		}
		if len(negWant) > 0 && anyIn(negWant, negated(p.summary)) {
			// The task asks for the case where something is absent
			// ("when neither the config file nor a flag sets it"), and
			// this passage opens on that case ("a key hasn't been set
			// via config file ... or flag").
			score += negationWeight
		}
		cands = append(cands, cand{p, ex, score})

	}
	if len(cands) == 0 {
		return nil
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].score > cands[j].score })
	best := cands[0]
	// A section read in several units is entered at its start: when an
	// earlier unit of the same section holds the task as well and scores
	// nearly as high, it answers ("The plugin is the editors/nvim folder"
	// and its setup, before the details further down).
	for _, c := range cands[1:] {
		if c.p.ku.SourceID == best.p.ku.SourceID && c.p.ku.Title == best.p.ku.Title &&
			c.p.ku.Range.StartLine < best.p.ku.Range.StartLine &&
			bestPlain(c.ex) >= bestPlain(best.ex) && c.score >= best.score-sectionMargin {
			best = c
		}
	}
	// An overview list names many things a page does, one item each; a
	// task about one of them is answered by the section the page gives
	// it, when the evidence holds that section.
	var secs []procedure
	for _, c := range cands {
		secs = append(secs, c.p)
	}
	dedicated := false
	if i := dedicatedSection(best.p, plainTop(best.ex), want, secs, c); i >= 0 {
		best, dedicated = cands[i], true
	} else {
		plain := make([]float64, len(cands))
		for i, cand := range cands {
			plain[i] = bestPlain(cand.ex)
		}
		if i := headedSubject(best.p, bestPlain(best.ex), want, action, secs, plain, c); i >= 0 {
			best = cands[i]
		}
	}
	// A page that only says it is another name of a second page ("This
	// command is an alias of docker container rm") is answered by that
	// page when the evidence holds it.
	// So is a page whose examples only run a command on another page's
	// name ("View documentation for managing cron entries: tldr crontab").
	to := pointsTo(best.p)
	if m := aliasRE.FindStringSubmatch(best.p.summary); m != nil {
		to = m[1]
	}
	if to != "" {
		for _, c := range cands[1:] {
			if strings.EqualFold(strings.TrimSpace(c.p.ku.Title), strings.TrimSpace(to)) {
				best = c
				break
			}
		}
	}
	if summaryItemAnswers(best.p, plainTop(best.ex), want, joined) || rowAnswers(ev, plainTop(best.ex), want, joined, c) {
		return nil
	}
	// A section the page dedicates to the task is read under the headings
	// above it ("Putting Values into Viper" > "Setting Overrides"): they
	// say what its few lines are about.
	if bestPlain(best.ex) < minOverlap && (!dedicated || underHeadings(best.p, plainTop(best.ex), want) < minOverlap) {
		return nil
	}
	if own, lent := lentContext(task); lent != "" {
		// The words a part of a question borrows from its siblings
		// ("keep watching for new ones (kernel messages)") chose the
		// page; which of its examples answers is what the part itself
		// asks, the borrowed words only deciding between equals.
		ownWant := symbolic.TaskTerms(own)
		oa, oo := symbolic.Action(own)
		if symbolic.LightAction(oa) {
			oa = ""
		}
		if len(ownWant) > 0 {
			ex := best.p.rankFor(ownWant, compounds(own), oa, phrasalSaid(ev, oa, symbolic.ActionParticle(own)), oo)
			for i := range ex {
				ex[i].score += lentWeight * symbolic.Overlap(want, withParts(symbolic.TermSet(ex[i].desc+" "+strings.Join(ex[i].how, " ")), joined))
			}
			sort.SliceStable(ex, func(i, j int) bool { return ex[i].score > ex[j].score })
			if ex[0].score > 0 {
				best.ex = ex
			}
		}
	}
	if own, _ := lentContext(task); len(directions(own)) > 0 {
		// Where the task moves something ("copy a directory to a remote
		// server") decides between examples that name the same places
		// the other way round ("from a remote host to a local directory").
		// Only an example that does the task's action moves anything
		// ("connecting to the remote host" names a place, not where a
		// copy goes).
		for i := range best.ex {
			if action == "" || descAction(action, best.ex[i].desc) > 0 {
				best.ex[i].score += directionWeight * agreement(own, best.ex[i].desc)
			}
		}
		sort.SliceStable(best.ex, func(i, j int) bool { return best.ex[i].score > best.ex[j].score })
	}
	// A task that asks to see something ("see the IP addresses assigned
	// to my network interfaces") is answered by the examples that show it
	// ("List network interfaces and their associated IP addresses"), not
	// by those that do something to the same things ("Add an IP address
	// to a network interface"), when the page has any.
	display := ""
	if own, _ := lentContext(task); !quantityRE.MatchString(own) {
		if oa, _ := symbolic.Action(own); symbolic.DisplayAction(oa) {
			for i := range best.ex {
				if best.ex[i].desc != "" && symbolic.Shows(oa, best.ex[i].desc) {
					best.ex[i].score += displayWeight
					display = oa
				}
			}
			sort.SliceStable(best.ex, func(i, j int) bool { return best.ex[i].score > best.ex[j].score })
			if display != "" && (best.ex[0].desc == "" || !symbolic.Shows(display, best.ex[0].desc)) {
				display = "" // the page's best example does something else
			}
		}
	}
	if parts := clauses(task); len(parts) > 1 && !g.brief {
		pages := make([]procedure, len(cands))
		for i, c := range cands {
			pages[i] = c.p
		}
		if res := solveClauses(pages, best.p, parts); res != nil {
			return res
		}
	}
	limit := 3
	if g.brief {
		limit = 1
	}
	var b strings.Builder
	k := best.p.ku
	label := k.Title
	if anc := ancestors(k); dedicated && len(anc) > 0 {
		// A dedicated section is named with the heading it stands under,
		// which says what its few lines are about.
		label = anc[len(anc)-1] + " > " + k.Title
	}
	lead := leadOf(best.p.summary)
	if lead != "" && !g.brief {
		lead = withHowSentence(lead, best.p.summary, want, best.ex[0].desc)
		fmt.Fprintf(&b, "%s [1]: %s\n\n", label, lead)
	} else {
		fmt.Fprintf(&b, "From %s [1]:\n\n", label)
	}
	shown := map[int]bool{} // the examples shown, by their place in the page
	var chosen []scoredExample
	for i, e := range best.ex {
		if len(shown) >= limit || (i > 0 && e.score < 0.8*best.ex[0].score) {
			break
		}
		if e.parent > 0 && shown[e.parent-1] || slices.ContainsFunc(best.ex[:i], func(o scoredExample) bool { return shown[o.order] && o.parent == e.order+1 }) {
			continue // the code of an example shown, or the example whose code is shown
		}
		if display != "" && e.desc != "" && !symbolic.Shows(display, e.desc) {
			continue
		}
		shown[e.order] = true
		chosen = append(chosen, e)
	}
	// What a section shows with no description of its own follows the
	// section's opening sentence, before the described examples (a bare
	// block between list items would read as part of the item above).
	sort.SliceStable(chosen, func(i, j int) bool { return chosen[i].desc == "" && chosen[j].desc != "" })
	for i, e := range chosen {
		if i > 0 {
			b.WriteString("\n")
		}
		quoted := quotedTerms(lead + " " + e.desc)
		if e.desc == "" {
			for _, h := range cutHow(e.how, want, quoted) {
				b.WriteString(h + "\n")
			}
			continue
		}
		fmt.Fprintf(&b, "- %s\n\n", descLine(e.desc))
		if rawBlock(e.how) {
			for _, h := range cutHow(e.how, want, quoted) {
				if h == "" {
					b.WriteString("\n")
					continue
				}
				fmt.Fprintf(&b, "  %s\n", h)
			}
		} else {
			for _, h := range e.how {
				fmt.Fprintf(&b, "  %s\n", codeSpan(strings.TrimSpace(h)))
			}
		}
	}
	return finish(&b, []*kus.KU{k})
}

// quotedRE is a code span of prose.
var quotedRE = regexp.MustCompile("`([^`]+)`")

// quotedTerms are the terms of the code spans prose quotes: the
// sentences over a code block name in code spans the lines of it they
// are about ("setting the `Required` field to `true`" over a program
// holding "Required: true").
func quotedTerms(prose string) []string {
	var out []string
	for _, m := range quotedRE.FindAllStringSubmatch(prose, -1) {
		for t := range codeTerms(m[1]) {
			if !slices.Contains(out, t) {
				out = append(out, t)
			}
		}
	}
	slices.Sort(out)
	return out
}

// directionRE finds a direction in text: "to", "into", "onto" or "from"
// and the word it leads to, past an article or a possessive.
var directionRE = regexp.MustCompile(`(?i)\b(to|into|onto|from)\s+(?:(?:a|an|the|my|your|its|their|this|that|some|another)\s+)?([\p{L}\p{N}][\p{L}\p{N}_-]*)`)

// directions maps each term text moves something to or from to "to" or
// "from" ("copy a local file to a remote host": remot -> to).
func directions(text string) map[string]string {
	out := map[string]string{}
	for _, m := range directionRE.FindAllStringSubmatch(text, -1) {
		ts := symbolic.ContentTerms(m[2])
		if len(ts) != 1 {
			continue
		}
		dir := "to"
		if strings.EqualFold(m[1], "from") {
			dir = "from"
		}
		out[ts[0]] = dir
	}
	return out
}

// agreement is the share of the task's directions an example's
// description keeps, less the share it reverses.
func agreement(task, desc string) float64 {
	want, have := directions(task), directions(desc)
	if len(want) == 0 {
		return 0
	}
	n := 0
	for t, d := range want {
		switch have[t] {
		case "":
		case d:
			n++
		default:
			n--
		}
	}
	return float64(n) / float64(len(want))
}

// directionWeight is what an example keeping every direction of the task
// gains, and one reversing every direction loses.
const directionWeight = 0.3

// lentRE is a task that ends in the words the VM lends a part of a
// question from its sibling parts, or a follow-up from the topic of an
// earlier turn ("How do I close it when I'm done (encrypted LUKS
// partition)?"), in parentheses, before the question's closing mark.
var lentRE = regexp.MustCompile(`^(.*\S)\s+\(([^()]+)\)\s*[?.!]?$`)

// lentContext splits a task into what it asks itself and the words lent
// to it in a trailing parenthesis; lent is "" when there are none.
func lentContext(task string) (own, lent string) {
	m := lentRE.FindStringSubmatch(strings.TrimSpace(task))
	if m == nil || len(symbolic.ContentTerms(m[1])) == 0 {
		return task, ""
	}
	return m[1], m[2]
}

// lentWeight is how much the lent words weigh in choosing an example: a
// tie-breaker.
const lentWeight = 0.1

// displayWeight is what an example that shows adds to its score for a task
// that asks to see something: enough to come before an example that holds
// more of the task's words and does something else.
const displayWeight = 0.4

// quantityRE opens a task that asks for an amount ("How many CPU cores are
// available?"), which counting answers as well as showing.
var quantityRE = regexp.MustCompile(`(?i)^\s*how\s+(?:many|much)\b`)

// withHowSentence is a page's lead with the sentence of its summary that
// says how to do the task, when one says it better than the lead and the
// best example's description: it holds more of the task's terms ("If you
// are sure such locking is not needed, you can call logger.SetNoLock() to
// disable the locking." for "disable the mutex locking"). The sentences
// skipped between them are marked.
func withHowSentence(lead, summary string, want []string, desc string) string {
	ss := sentences(summary)
	if len(ss) < 2 || strings.TrimSpace(ss[0]) != lead {
		return lead
	}
	if whole := withOwnClauses(lead, ss, want); whole != lead {
		return whole
	}
	bar := max(symbolic.Overlap(want, symbolic.TermSet(desc)), symbolic.Overlap(want, symbolic.TermSet(plainMD(lead))))
	best := -1
	for i, s := range ss[1:] {
		if ov := symbolic.Overlap(want, symbolic.TermSet(plainMD(s))); ov > bar && !strings.HasSuffix(strings.TrimSpace(s), ":") {
			best, bar = i+1, ov
		}
	}
	switch {
	case best < 0:
		return lead
	case best == 1:
		return lead + " " + ss[1]
	}
	return lead + " … " + ss[best]
}

// withOwnClauses is a lead that ends in ";" with the clauses after it up
// to the end of its sentence that hold a task term the lead and the
// clauses taken before do not ("...; --prefer kb=kb-thinkingdb does it on
// the command line." for "from the command line, how do I ..."): the
// sentence goes on, and what it says for the task's case is in those
// clauses. Clauses skipped between are marked.
func withOwnClauses(lead string, ss []string, want []string) string {
	out := lead
	have := symbolic.TermSet(plainMD(lead))
	last := 0
	for i := 1; i < len(ss) && strings.HasSuffix(strings.TrimSpace(ss[i-1]), ";"); i++ {
		terms := symbolic.TermSet(plainMD(ss[i]))
		adds := false
		for _, w := range want {
			if terms[w] && !have[w] {
				adds = true
			}
		}
		if !adds {
			continue
		}
		sep := " "
		if i > last+1 {
			sep = " … "
		}
		out += sep + strings.TrimSpace(ss[i])
		last = i
		maps.Copy(have, terms)
	}
	return out
}

// clauseRE separates the actions of one how-to task: "pack a folder
// into an archive, and later unpack it", "create a branch and then
// switch to it".
var clauseRE = regexp.MustCompile(`(?i)\s*(?:,\s*(?:and\s+)?(?:then|later|afterwards|also)\s+|,\s*and\s+|\s+and\s+(?:then|later|afterwards|also)\s+|;\s*)`)

// clauses splits a task into its actions; one action is one clause.
// Every clause must name something of its own.
func clauses(task string) []string {
	parts := clauseRE.Split(task, -1)
	if len(parts) < 2 {
		return nil
	}
	for _, p := range parts {
		if len(symbolic.ContentTerms(p)) == 0 {
			return nil
		}
	}
	return parts
}

// solveClauses answers a task of several actions with the example that
// best does each, from the best page when it has one (the page the whole
// task is about), else from the page that does it best; every example is
// cited. nil when fewer than two actions find an example.
func solveClauses(pages []procedure, best procedure, parts []string) *plugin.SolveResult {
	type found struct {
		p  procedure
		ex example
	}
	var got []found
	seen := map[string]bool{}
	for _, part := range parts {
		want := symbolic.TaskTerms(part)
		var pick *found
		bestScore := 0.0
		for _, p := range pages {
			ex := p.rankExamples(want)
			if len(ex) == 0 || ex[0].score < minOverlap {
				continue
			}
			sc := ex[0].score
			if p.ku == best.ku {
				sc += 0.5 // the page the whole task is about
			}
			if sc > bestScore && !seen[p.ku.ID+"\x00"+ex[0].desc] {
				bestScore = sc
				pick = &found{p, ex[0].example}
			}
		}
		if pick != nil {
			seen[pick.p.ku.ID+"\x00"+pick.ex.desc] = true
			got = append(got, *pick)
		}
	}
	if len(got) < 2 {
		return nil
	}
	// The page the whole task is about leads, and must answer a part.
	sort.SliceStable(got, func(i, j int) bool { return got[i].p.ku == best.ku && got[j].p.ku != best.ku })
	if got[0].p.ku != best.ku {
		return nil
	}
	var b strings.Builder
	var cites citations
	num := cites.num
	first := got[0].p
	if lead := leadOf(first.summary); lead != "" {
		fmt.Fprintf(&b, "%s [%d]: %s\n\n", first.ku.Title, num(first.ku), lead)
	}
	for i, f := range got {
		if i > 0 {
			b.WriteString("\n")
		}
		n := num(f.p.ku)
		if f.ex.desc != "" {
			fmt.Fprintf(&b, "- %s [%d]:\n\n", f.ex.desc, n)
		}
		want := symbolic.TaskTerms(f.ex.desc)
		if rawBlock(f.ex.how) {
			for _, h := range cutHow(f.ex.how, want, nil) {
				if h == "" {
					b.WriteString("\n")
					continue
				}
				fmt.Fprintf(&b, "  %s\n", h)
			}
		} else {
			for _, h := range f.ex.how {
				fmt.Fprintf(&b, "  %s\n", codeSpan(strings.TrimSpace(h)))
			}
		}
	}
	return finish(&b, cites.kus)
}

const (
	// titleWeight is how much a heading holding the task's terms adds
	// to a passage's score, codeBonus what showing a command or code adds.
	titleWeight = 0.75
	codeBonus   = 0.5
	// identBonus is what code naming the task in one identifier adds
	// ("SetDefault" for "set a default value").
	identBonus = 0.5
	// actionWeight is what an example description carrying the task's
	// action and all of its object adds (half of it for the action alone):
	// little enough to decide only between examples that hold the task's
	// terms equally, which page order decided before. The general lexicon
	// relates words across all their senses, and an example that holds
	// more of what the task names is the better answer whatever its verb.
	actionWeight = 0.02
	// callWeight is what an example whose code calls the task's action
	// by name adds: as much as code naming the task in one identifier
	// adds to a passage.
	callWeight = identBonus
	// sectionMargin is how much lower an earlier unit of the best unit's
	// section may score and still answer instead.
	sectionMargin = 0.1
	// ancestorWeight is how much the headings a section stands under
	// add for the task terms they hold and its own heading does not:
	// half a heading's weight, as they name what the whole page or
	// chapter is about ("Gin Quick Start", "Graceful shutdown or
	// restart" above "Manually").
	ancestorWeight = titleWeight / 2
)

// wholeSection reads a KU that shows code without description lines as
// one example: its first paragraph is the summary, the rest (code blocks
// as written) is what it shows. ok is false when it shows no code.
func wholeSection(k *kus.KU, raw string) (procedure, bool) {
	if raw == "" {
		raw = k.TextBody
	}
	if !strings.Contains(raw, "```") && !strings.Contains(raw, "~~~") && !strings.Contains(raw, "`") {
		return procedure{}, false
	}
	lines := strings.Split(raw, "\n")
	// Drop the section's own heading: the answer names it.
	for len(lines) > 0 && (strings.TrimSpace(lines[0]) == "" || strings.HasPrefix(strings.TrimSpace(lines[0]), "#")) {
		lines = lines[1:]
	}
	var summary []string
	i := 0
	for ; i < len(lines); i++ {
		t := strings.TrimSpace(lines[i])
		if t == "" || strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			break
		}
		summary = append(summary, unlink(t))
	}
	how := make([]string, 0, len(lines))
	for _, l := range lines[i:] {
		how = append(how, unlink(l))
	}
	how = trimBlock(how)
	if len(how) == 0 {
		// One paragraph with inline code: it is the example.
		how, summary = trimBlock(summary), nil
	}
	if len(how) == 0 {
		return procedure{}, false
	}
	how = closeFence(how)
	ex := codeExamples(how)
	if len(ex) < 2 {
		ex = []example{{how: how}}
	}
	return procedure{ku: k, summary: strings.Join(summary, " "), examples: ex}, true
}

// codeExamples splits a section's body into the code blocks it shows,
// each with the paragraph right above it as its description (prose
// documentation introduces its code so, with or without a colon): a
// section showing several pieces of code answers a task with the one that
// does it. A block right after another joins it (a command and its
// output); text that introduces no code stays with the example above it.
// The body before the first description is an example without one.
func codeExamples(how []string) []example {
	var out []example
	var para []string // the paragraph being read, as written
	var pending []string
	blank := false // a blank line since the paragraph being read
	addText := func(lines ...string) {
		if len(out) == 0 {
			out = append(out, example{})
		}
		out[len(out)-1].how = append(out[len(out)-1].how, lines...)
	}
	flushPara := func() {
		if len(para) > 0 {
			pending = append(pending, para...)
			pending = append(pending, "")
			para = nil
		}
	}
	for i := 0; i < len(how); i++ {
		t := strings.TrimSpace(how[i])
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			end := i + 1
			for end < len(how) && !strings.HasPrefix(strings.TrimSpace(how[end]), t[:3]) {
				end++
			}
			block := how[i:min(end+1, len(how))]
			if len(para) > 0 && !isItem(strings.TrimSpace(para[0])) && !strings.HasPrefix(strings.TrimSpace(para[0]), "|") {
				if len(pending) > 0 {
					addText(pending...)
				}
				desc := strings.TrimSuffix(strings.TrimSpace(strings.Join(strings.Fields(strings.Join(para, " ")), " ")), ":")
				out = append(out, example{desc: desc, how: append([]string(nil), block...)})
			} else {
				flushPara()
				addText(pending...)
				addText(block...)
			}
			para, pending, blank = nil, nil, false
			i = end
			continue
		}
		if t == "" {
			blank = true
			continue
		}
		if blank {
			flushPara() // a new paragraph: the one above introduces no code
		}
		blank = false
		para = append(para, how[i])
	}
	flushPara()
	if len(pending) > 0 && len(out) > 0 {
		addText(pending...)
	}
	for i := range out {
		out[i].how = trimBlock(out[i].how)
	}
	return out
}

// closeFence closes a code block that lines open and do not close (a unit
// whose range ends before the block's closing fence).
func closeFence(lines []string) []string {
	open := ""
	for _, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case open == "" && (strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")):
			open = t[:3]
		case open != "" && strings.HasPrefix(t, open):
			open = ""
		}
	}
	if open != "" {
		return append(lines, open)
	}
	return lines
}

// aliasRE finds the page a summary says it is an alias of.
var aliasRE = regexp.MustCompile("(?i)\\ban alias (?:of|for)\\s+`?([^`.:;]+?)`?\\s*(?:[.:;]|$)")

// pointsTo is the name every example of p hands to a command as its last
// argument, when each is one command line doing only that and the name
// is not p's own title: such a page only points to the page of that name
// ("tldr crontab" on the cron page). It is "" otherwise.
func pointsTo(p procedure) string {
	to := ""
	for _, e := range p.examples {
		var lines []string
		for _, h := range e.how {
			if strings.TrimSpace(h) != "" {
				lines = append(lines, h)
			}
		}
		if len(lines) != 1 {
			return ""
		}
		f := strings.Fields(strings.Trim(strings.TrimSpace(lines[0]), "`"))
		if len(f) != 2 || strings.ContainsAny(f[1], "{}<>[]|/-") || to != "" && f[1] != to {
			return ""
		}
		to = f[1]
	}
	if strings.EqualFold(to, strings.TrimSpace(p.ku.Title)) {
		return ""
	}
	return to
}

// names reports whether the task names title as the tool to use ("with
// sed", "using jq", "the tar command", "tell make to build"). A title that
// merely occurs as a word ("a zip archive", "a symbolic link") does not
// count: many tools are named after what they handle.
func names(task, title string) bool {
	title = strings.TrimSpace(title)
	if title == "" {
		return false
	}
	low, t := strings.ToLower(task), regexp.QuoteMeta(strings.ToLower(title))
	re, err := regexp.Compile(`\b(?:with|using|via|through|in|from)\s+(?:the\s+)?` + "`?" + t + "`?" + `(?:$|[^\w-])|(?:^|[^\w-])` + t + "`?" + `\s+(?:command|tool|cli|utility)\b` +
		`|\b(?:tell|ask|instruct)\s+(?:the\s+)?` + "`?" + t + "`?" + `\s+to\b`)
	return err == nil && re.MatchString(low)
}

// proximity is the share of consecutive task-term pairs that occur in seq
// in the same order at most two terms apart.
func proximity(want, seq []string) float64 {
	if len(want) < 2 {
		return 0
	}
	pos := map[string][]int{}
	for i, t := range seq {
		pos[t] = append(pos[t], i)
	}
	hits := 0
	for i := 0; i+1 < len(want); i++ {
	pair:
		for _, a := range pos[want[i]] {
			for _, b := range pos[want[i+1]] {
				if b > a && b-a <= 2 {
					hits++
					break pair
				}
			}
		}
	}
	return float64(hits) / float64(len(want)-1)
}

// maxBlockLines bounds an example's lines in an answer; a longer block
// (a whole help page, a long program) is cut to the lines that bear on
// the task.
const maxBlockLines = 24

// cutBlock keeps a long block's lines that hold a task term (in code, in
// an identifier's words too), with the line before each (its comment or
// heading) unless it is blank, in order; a comment inside
// code that holds a task term also keeps the line after it, the statement
// it describes (documentation code says what a line does in the comment
// above it, so the comment alone would show the words without the code).
// When more lines hold a task term than maxBlockLines, only the lines
// that hold the most of the task's terms are kept (the fewest terms a
// line must hold is raised while some line still holds that many).
// A code block keeps its fences around the lines it keeps and is left out
// whole when it keeps none (an empty fence shows nothing). A short block,
// or one with no line holding a task term, is kept whole up to
// maxBlockLines; one code block of at most maxProgramLines with a few
// lines about it is kept whole.
func cutBlock(lines []string, want []string) []string {
	return cutQuoted(lines, want, nil)
}

// cutQuoted is cutBlock that also keeps the code lines holding a term
// of quoted, the names the prose over the block quotes (quotedTerms):
// the lines it is about, whether or not they hold a task term.
func cutQuoted(lines, want, quoted []string) []string {
	if len(lines) <= maxBlockLines || len(lines) <= maxProgramLines && oneProgram(lines) {
		return lines
	}
	isFence := make([]bool, len(lines))
	for i, l := range lines {
		t := strings.TrimSpace(l)
		isFence[i] = strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")
	}
	keep, code := keptLines(lines, want, quoted, isFence, 1)
	// More lines bear on the task than an answer shows: the lines that
	// hold more of the task's words are kept, as many as fit. Whether a
	// stricter least still keeps a line is judged by the task's words
	// alone: the quoted lines are kept at any least, and would never let
	// the count fall to none.
	for least := 2; countTrue(keep) > maxBlockLines; least++ {
		if k, _ := keptLines(lines, want, nil, isFence, least); countTrue(k) == 0 {
			break
		}
		k, _ := keptLines(lines, want, quoted, isFence, least)
		keep = k
	}
	// A table keeps its header with any row it keeps: a row alone does not
	// say what its cells are.
	for i := 0; i < len(lines); {
		j := i
		for j < len(lines) && !isFence[j] && !code[j] && strings.HasPrefix(strings.TrimSpace(lines[j]), "|") {
			j++
		}
		if j > i {
			if slices.Contains(keep[i:j], true) {
				for k := i; k < min(j, i+2); k++ {
					keep[k] = true
				}
			}
			i = j
			continue
		}
		i++
	}
	var out []string
	n := 0
	gap := false
	emit := func(l string) {
		if gap && len(out) > 0 {
			out = append(out, "...")
		}
		gap = false
		out = append(out, l)
		n++
	}
	for i := 0; i < len(lines); i++ {
		if !isFence[i] {
			if keep[i] && n < maxBlockLines {
				emit(lines[i])
			} else {
				gap = true
			}
			continue
		}
		// A fenced block: its kept lines, between its fences.
		end := i + 1
		for end < len(lines) && !isFence[end] {
			end++
		}
		var inner []string
		innerGap := false
		for j := i + 1; j < end; j++ {
			if keep[j] && n+len(inner) < maxBlockLines {
				if innerGap && len(inner) > 0 {
					inner = append(inner, "...")
				}
				innerGap = false
				inner = append(inner, lines[j])
			} else {
				innerGap = true
			}
		}
		if len(inner) == 0 {
			gap = true
		} else {
			emit(lines[i])
			out = append(out, inner...)
			n += len(inner)
			closing := "```"
			if end < len(lines) {
				closing = lines[end]
			}
			out = append(out, closing)
		}
		i = end // the closing fence
	}
	if len(out) == 0 {
		// No line holds a task term: the block's opening lines.
		open := false
		for _, l := range lines[:maxBlockLines] {
			if t := strings.TrimSpace(l); strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
				open = !open
			}
			out = append(out, l)
		}
		if open {
			out = append(out, "```")
		}
	}
	return out
}

// keptLines marks the lines of a block that hold at least least of the
// task's terms (in code, in an identifier's words too), and the code
// lines that hold a term of quoted, with the lines that go with each
// (see cutBlock); code reports which lines lie inside a fenced block.
func keptLines(lines, want, quoted []string, isFence []bool, least int) (keep, code []bool) {
	keep = make([]bool, len(lines))
	inCode := false
	code = make([]bool, len(lines))
	for i, l := range lines {
		if isFence[i] {
			inCode = !inCode
			continue
		}
		code[i] = inCode
		terms := symbolic.TermSet(l)
		if inCode {
			// Code names things in identifiers ("DefaultText" holds
			// "default").
			for t := range symbolic.IdentTerms(l) {
				terms[t] = true
			}
		}
		if symbolic.Shared(want, terms) < least && !(inCode && symbolic.Shared(quoted, terms) > 0) {
			continue
		}
		keep[i] = true
		if start, end, ok := itemSpan(lines, i, code); ok {
			// A list item is kept whole, from its marker to its last
			// wrapped line: the line before it is the end of another.
			for j := start; j < end; j++ {
				keep[j] = true
			}
			continue
		}
		if i > 0 && !isFence[i-1] && strings.TrimSpace(lines[i-1]) != "" {
			keep[i-1] = true
		}
		if inCode && codeComment(l) {
			// The statements the comment describes: the lines up to the
			// next blank line, comment or fence, at most two.
			for j := i + 1; j < len(lines) && j <= i+2; j++ {
				if isFence[j] || strings.TrimSpace(lines[j]) == "" || codeComment(lines[j]) {
					break
				}
				keep[j] = true
			}
		}
	}
	return keep, code
}

// countTrue is how many of marks are set.
func countTrue(marks []bool) int {
	n := 0
	for _, m := range marks {
		if m {
			n++
		}
	}
	return n
}

// maxProgramLines bounds the lines of an example holding one code block
// that is shown whole: a short program cut to the lines naming the task
// loses the lines that do it (the struct field set under the one that
// names the type).
const maxProgramLines = 40

// oneProgram reports whether lines hold exactly one fenced code block
// that is most of them (a program and a sentence or two about it).
func oneProgram(lines []string) bool {
	fences, inside := 0, 0
	open := false
	for _, l := range lines {
		if fenceLine(l) {
			fences++
			open = !open
			continue
		}
		if open {
			inside++
		}
	}
	return fences == 2 && 2*inside >= len(lines)
}

// maxSpanLines bounds the lines of one list item cutBlock keeps whole.
const maxSpanLines = 12

// itemSpan is the list item, outside code, that line i is part of: from
// its marker line to its last wrapped line (nested items are items of
// their own). ok is false when line i lies in code or in no item, or the
// item is longer than maxSpanLines.
func itemSpan(lines []string, i int, code []bool) (start, end int, ok bool) {
	if code[i] || strings.TrimSpace(lines[i]) == "" {
		return 0, 0, false
	}
	start = i
	for !isItem(strings.TrimSpace(lines[start])) {
		if start == 0 || code[start-1] || strings.TrimSpace(lines[start-1]) == "" || fenceLine(lines[start-1]) {
			return 0, 0, false
		}
		start--
	}
	end = i + 1
	for end < len(lines) && !code[end] && strings.TrimSpace(lines[end]) != "" && !fenceLine(lines[end]) && !isItem(strings.TrimSpace(lines[end])) {
		end++
	}
	if end-start > maxSpanLines {
		return 0, 0, false
	}
	return start, end, true
}

// fenceLine reports whether a line opens or closes a fenced code block.
func fenceLine(l string) bool {
	t := strings.TrimSpace(l)
	return strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")
}

// codeComment reports whether a line of code is a whole-line comment in
// one of the common comment syntaxes (C-family and shell).
func codeComment(l string) bool {
	t := strings.TrimSpace(l)
	for _, p := range []string{"//", "#", "/*"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// firstSentence is the first sentence of s.
func firstSentence(s string) string {
	if ss := symbolic.Sentences(s); len(ss) > 0 {
		return strings.TrimSpace(ss[0])
	}
	return s
}

// codeSpan renders a command line as inline code unless it already is.
func codeSpan(s string) string {
	if strings.HasPrefix(s, "`") {
		return s
	}
	fence := "`"
	if strings.Contains(s, "`") {
		fence = "``"
	}
	return fence + s + fence
}

// minCommentWords is how many words a comment in code must have to
// describe the statements under it as an example does.
const minCommentWords = 3

// maxCommentCode bounds the lines of the statements a comment describes
// when one spans several lines.
const maxCommentCode = 12

// commentExamples reads the comments inside the code blocks of examples
// as examples of their own: documentation code says what a statement
// does in the comment above it ("// Only log the warning severity or
// above." over log.SetLevel(log.WarnLevel)), as a reference page's
// description line says what its command does. Each pairs the comment
// (its consecutive lines joined) with the statements under it, up to the
// next blank line, comment or fence or a line indented less than the
// comment (the end of the enclosing block), at most three lines (more
// to close a statement that spans several, up to maxCommentCode), in the
// block's fences. Only a block too long to be shown whole (see cutBlock)
// is read so: a shorter one answers as it stands, its comments with it.
func commentExamples(ex []example) []example {
	var out []example
	indent := func(l string) int { return len(l) - len(strings.TrimLeft(l, " \t")) }
	for ei, e := range ex {
		if len(e.how) <= maxBlockLines {
			continue // shown whole, with its comments, where it answers
		}
		open := ""
		for i := 0; i < len(e.how); i++ {
			t := strings.TrimSpace(e.how[i])
			if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
				if open == "" {
					open = t
				} else {
					open = ""
				}
				continue
			}
			if open == "" || !codeComment(t) {
				continue
			}
			var words []string
			j := i
			for ; j < len(e.how) && codeComment(strings.TrimSpace(e.how[j])); j++ {
				c := strings.TrimSpace(strings.TrimSuffix(strings.TrimLeft(strings.TrimSpace(e.how[j]), "/#* "), "*/"))
				words = append(words, c)
			}
			desc := strings.TrimSpace(strings.TrimRight(strings.Join(words, " "), ".: "))
			var code []string
			depth := 0 // brackets the statements open and have not closed
			for k := j; k < len(e.how) && (len(code) < 3 || depth > 0 && len(code) < maxCommentCode); k++ {
				l := strings.TrimSpace(e.how[k])
				if l == "" && depth == 0 || codeComment(l) && depth == 0 || strings.HasPrefix(l, "```") || strings.HasPrefix(l, "~~~") || l != "" && indent(e.how[k]) < indent(e.how[i]) {
					break
				}
				code = append(code, e.how[k])
				depth += strings.Count(l, "(") + strings.Count(l, "{") + strings.Count(l, "[") - strings.Count(l, ")") - strings.Count(l, "}") - strings.Count(l, "]")
			}
			if depth > 0 {
				code = nil // a statement cut short shows nothing whole
			}
			i = j - 1
			if len(strings.Fields(desc)) < minCommentWords || len(code) == 0 {
				continue
			}
			how := append(append([]string{open[:3] + strings.TrimLeft(open, "`~")}, trimBlock(code)...), open[:3])
			out = append(out, example{desc: desc, how: how, context: e.context + " " + e.desc, parent: ei + 1})
		}
	}
	return out
}

// callRE finds a call in code: an identifier and its opening parenthesis.
var callRE = regexp.MustCompile(`\b([A-Za-z_][A-Za-z0-9_]*)\(`)

// callsAction reports whether short code calls a function named for
// action alone ("Mount(pattern, h)" for "mount a sub-router"): an API
// names a one-word operation after what it does. In a long block (a whole
// interface, a program) one call among many is not what the block shows.
func callsAction(how []string, action string) bool {
	if action == "" || len(how) > maxCommentCode+2 {
		return false
	}
	for _, l := range how {
		for _, m := range callRE.FindAllStringSubmatch(l, -1) {
			if t := text.Terms(m[1]); len(t) == 1 && t[0] == action {
				return true
			}
		}
	}
	return false
}

// leadOf is the sentence an answer from a page opens with: the first of
// its summary, or "" when that is code or a list item (a unit that opens
// with a list has no summary to quote, and a list item's first clause
// says nothing alone).
func leadOf(summary string) string {
	if summary == "" {
		return ""
	}
	s := firstSentence(summary)
	if rawCode(s) || isItem(strings.TrimSpace(s)) {
		return ""
	}
	return s
}

// descLine is an example's description as its list item shows it: with
// a colon before the code, unless it ends a sentence of its own.
func descLine(desc string) string {
	if strings.HasSuffix(desc, ".") || strings.HasSuffix(desc, "!") || strings.HasSuffix(desc, "?") {
		return desc
	}
	return desc + ":"
}

// compounds maps the term of each pair of neighbouring words of task
// written as one ("querystring" for "query string", "filename" for "file
// name") to the terms of the two words: documentation writes many such
// names either way.
func compounds(task string) map[string][]string {
	words := strings.FieldsFunc(strings.ToLower(task), func(r rune) bool { return !unicode.IsLetter(r) })
	out := map[string][]string{}
	for i := 0; i+1 < len(words); i++ {
		a, b, j := text.Terms(words[i]), text.Terms(words[i+1]), text.Terms(words[i]+words[i+1])
		if len(a) == 1 && len(b) == 1 && len(j) == 1 {
			out[j[0]] = []string{a[0], b[0]}
		}
	}
	return out
}

// withParts adds to terms the two terms of each compound it holds
// (compounds), and returns it.
func withParts(terms map[string]bool, joined map[string][]string) map[string]bool {
	for t := range terms {
		for _, p := range joined[t] {
			terms[p] = true
		}
	}
	return terms
}

// proseList reports whether lines are a bulleted list whose items are
// prose, inline code at most naming things in them ("It implements the
// `http.Handler` interface"): a list of what something has or does,
// which names a task without showing how it is done. A numbered list is
// steps, and an item that is mostly code is a command.
func proseList(lines []string) bool {
	items := 0
	for _, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case t == "":
		case strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "* ") || strings.HasPrefix(t, "+ "):
			items++
			prose := strings.Fields(inlineCodeRE.ReplaceAllString(t[2:], ""))
			if len(prose) < 4 || len(prose) < 2*len(inlineCodeRE.FindAllString(t, -1)) {
				return false
			}
		case strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t"):
			// An item's continuation line.
		default:
			return false
		}
	}
	return items >= 2
}

// ancestors are the headings a unit's section stands under, outermost
// first (its Topic path without its own title).
func ancestors(k *kus.KU) []string {
	path := strings.Split(k.Topic, " > ")
	if len(path) < 2 {
		return nil
	}
	return path[:len(path)-1]
}

// literalWeight is what an example gains by holding an option the task
// quotes (optionLiterals).
const literalWeight = 0.5

// optionLiteralRE matches a command-line option written out in a task: a
// dash or two and a letter, standing as a word ("-som", "--dry-run").
var optionLiteralRE = regexp.MustCompile(`(?:^|[\s(\x60"'])(--?[A-Za-z][A-Za-z0-9-]*)`)

// optionLiterals are the options task quotes as written.
func optionLiterals(task string) []string {
	var out []string
	for _, m := range optionLiteralRE.FindAllStringSubmatch(task, -1) {
		out = append(out, m[1])
	}
	return out
}

// holdsLiteral reports whether the lines of an example hold one of lits
// as a word of their own.
func holdsLiteral(how []string, lits []string) bool {
	for _, l := range how {
		for _, m := range optionLiteralRE.FindAllStringSubmatch(l, -1) {
			if slices.Contains(lits, m[1]) {
				return true
			}
		}
	}
	return false
}

// minEmbedded is the fewest letters of a term read inside a longer name.
const minEmbedded = 3

// rarestTerm is the task term held by the fewest sources per c, the one
// that says what the task is about; "" without statistics or terms.
func rarestTerm(want []string, c plugin.Corpus) string {
	if c == nil || c.Documents() == 0 {
		return ""
	}
	best, least := "", 0
	for _, w := range want {
		if df := c.DocFreq(w); df > 0 && (best == "" || df < least) {
			best, least = w, df
		}
	}
	return best
}

// embedsTerm reports whether a word of the heading title is a longer name
// ending in term without being a form of it: a tool named for what it
// works on ("lsusb" for "usb", "lscpu" for "cpu"). A word that only
// contains the stem ("compute", "addcomputer" for "comput") is another
// word; a heading that names the term as a word is weighed by its overlap
// with the task already.
func embedsTerm(title, term string) bool {
	if len(term) < minEmbedded {
		return false
	}
	for _, f := range strings.FieldsFunc(strings.ToLower(title), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if strings.HasSuffix(f, term) && !symbolic.TermSet(f)[term] {
			return true
		}
	}
	return false
}

// listItemRE matches the first line of a Markdown list item and captures
// its text.
var listItemRE = regexp.MustCompile(`^\s*(?:[-*+]|\d{1,3}[.)])\s+(.*)$`)

// dedicatedSection is the index in secs of the section of p's page
// dedicated to one thing the task asks, when p's best example top is an
// overview list: at least symbolic.MinOverviewItems list items, the task's rarest
// term (by the sources holding it, per c) in exactly one of them, and that
// term named by the heading of exactly one other section of the same page
// among secs. The rarest term says what the task is about; a common one
// ("code", "value") is named by many headings without being their subject.
// A term of p's own headings (the product the page is about) is not
// counted. It is -1 when the list is no overview or no such term or
// section exists.
func dedicatedSection(p procedure, top scoredExample, want []string, secs []procedure, c plugin.Corpus) int {
	if p.ku == nil {
		return -1
	}
	var items []map[string]bool
	for _, l := range top.how {
		if m := listItemRE.FindStringSubmatch(l); m != nil {
			items = append(items, symbolic.TermSet(m[1]))
		}
	}
	if len(items) < symbolic.MinOverviewItems {
		return -1
	}
	own := symbolic.TermSet(p.ku.Title + " " + strings.Join(ancestors(p.ku), " "))
	var rare []string
	least := -1
	for _, w := range want {
		if own[w] {
			continue
		}
		df := 0
		if c != nil {
			df = c.DocFreq(w)
		}
		switch {
		case least < 0 || df < least:
			rare, least = []string{w}, df
		case df == least:
			rare = append(rare, w)
		}
	}
	found := -1
	for _, w := range rare {
		n := 0
		for _, it := range items {
			if it[w] {
				n++
			}
		}
		if n != 1 {
			continue
		}
		named, titles := -1, map[string]bool{}
		for i, s := range secs {
			if s.ku == nil || s.ku.SourceID != p.ku.SourceID || s.ku.Range.StartLine == p.ku.Range.StartLine || !symbolic.TermSet(s.ku.Title)[w] {
				continue
			}
			if named < 0 {
				named = i // secs are ranked: the first unit of the section
			}
			titles[s.ku.Title] = true // a long section is read in several units
		}
		if named < 0 || len(titles) > 1 {
			continue
		}
		if found >= 0 && found != named {
			return -1 // the terms name different sections
		}
		found = named
	}
	return found
}

// underHeadings is the share of want that p's example top holds together
// with p's heading and the headings its section stands under.
func underHeadings(p procedure, top scoredExample, want []string) float64 {
	heads := strings.Join(ancestors(p.ku), " ") + " " + p.ku.Title + " " + p.summary
	return symbolic.Overlap(want, symbolic.TermSet(heads+" "+top.desc+" "+strings.Join(top.how, " ")))
}
