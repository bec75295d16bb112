package gssymbolic

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin/text"
	"github.com/mrpvm/mrpvm/plugins/internal/symbolic"
	"github.com/mrpvm/mrpvm/retrieval/lexicon"
)

// cue is what the question's form asks of the statement that answers it:
// a definition is answered by the sentence that says what the subject is,
// a "why" by the sentence that gives the reason, a list question by a
// statement that introduces a list.
type cue struct {
	define, why, list bool
	// duration: the question asks how long, how soon or how often, which
	// a statement giving a span of time answers (symbolic.GivesDuration).
	duration bool
	want     []string
}

// cueOf reads the cue of a task from its act and the question as asked.
func cueOf(act, prompt, target string) cue {
	low := strings.ToLower(strings.TrimSpace(prompt))
	return cue{
		define:   act == "define",
		why:      strings.HasPrefix(low, "why") || strings.Contains(low, " why "),
		list:     act == "identify" || listAskRE.MatchString(low),
		duration: symbolic.AsksDuration(low),
		want:     symbolic.ContentTerms(target),
	}
}

var (
	// listAskRE is a question that asks for the things one can do or
	// choose from ("What can I do with git stash?", "What else can
	// ssh-keygen do?", "What kinds of ...?").
	listAskRE = regexp.MustCompile(`(?i)^(?:what|which)\s+(?:else\s+)?(?:can|could)\s+(?:i|you|we)\s+do\b|\bwhat\s+else\s+(?:can|could|does|do)\b|^(?:what|which)\s+(?:kinds?|types?|sorts?|ways?)\s+of\b`)
	// definingRE is a sentence that says what its subject is.
	definingRE = regexp.MustCompile(`(?i)^(?:the\s+|an?\s+)?(.{1,60}?)\s+(?:is|are|means|refers to|stands for|implements|provides|lets you|allows you)\s`)
	// clauseOpenerRE opens a clause inside a noun phrase: a relative
	// ("a call that fails") or a subordinate one ("a file, when it
	// changes"). The words after it modify the head; they are not it.
	clauseOpenerRE = regexp.MustCompile(`(?i)(?:^|[\s,(])(?:that|which|who|whose|whom|because|when|whenever|where|if|while|after|before|since|unless|until)\b`)
	// reasonRE is a sentence that gives a reason, a purpose or a
	// condition ("you must switch to another branch before doing this"
	// says why doing it elsewhere fails), or the circumstance it holds in
	// ("while a language server holds the file the rebuild fails").
	reasonRE = regexp.MustCompile(`(?i)\b(?:because|so that|in order to|since|otherwise|to avoid|to prevent|to ensure|to make sure|which means|this means|not safe|unsafe|so you|so it|designed to|the reason|is why|allows?|lets|must|unless|only if|useful when|needs? to|have to|has to|while|as long as)\b`)
)

// cueWeight is what a statement of the form the question asks for adds.
const cueWeight = 0.4

// bonus is what a statement gains for having the form the question asks.
func (c cue) bonus(s statement) float64 {
	if c.duration && s.kind != kindCode && symbolic.GivesDuration(s.text) {
		// A table row of settings gives a span as well as a sentence does.
		return cueWeight
	}
	if s.kind == kindCode || s.kind == kindRow {
		return 0
	}
	t := s.text
	if c.list && len(s.block) > 0 && isItem(strings.TrimSpace(s.block[0])) {
		return cueWeight // a list question is answered by a list
	}
	switch {
	case c.define:
		if m := definingRE.FindStringSubmatch(t); m != nil && symbolic.Overlap(c.want, symbolic.TermSet(definedHead(m[1]))) > 0 {
			return cueWeight
		}
	case c.why:
		if reasonRE.MatchString(t) {
			return cueWeight
		}
	}
	return 0
}

// definedHead is the noun phrase a defining sentence's subject opens
// with, before any clause that modifies it: "call" of "call that fails
// because the wrapper itself". A sentence whose subject only mentions the
// asked term inside such a clause says what something else is.
func definedHead(subject string) string {
	if loc := clauseOpenerRE.FindStringIndex(subject); loc != nil {
		return subject[:loc[0]]
	}
	return subject
}

// render writes the picked statements as Markdown: grouped by source in
// the order the sources were first picked and, within one source, in the
// page's order; sentences of one paragraph stay one paragraph, list items
// a list, table rows a table under their header, code a fenced block.
// Every paragraph, item and row carries its citation. With bullets every
// sentence is a list item, and a table shows every row unless one says
// the question asks for one thing (asksOne); with keep the given order is
// kept (a proof chain).
func render(b *strings.Builder, picked []scored, want []string, bullets, one, asksWhat, keep bool, num func(*kus.KU) int) {
	ordered := append([]scored(nil), picked...)
	if !keep {
		first := map[string]int{}
		for i, s := range ordered {
			if _, ok := first[s.ku.ID]; !ok {
				first[s.ku.ID] = i
			}
		}
		sort.SliceStable(ordered, func(i, j int) bool {
			fi, fj := first[ordered[i].ku.ID], first[ordered[j].ku.ID]
			if fi != fj {
				return fi < fj
			}
			return ordered[i].order < ordered[j].order
		})
	}
	var para []string // sentences of the paragraph being written
	var paraKU *kus.KU
	paraID := -1
	last := -1 // the kind of the last element written, for spacing
	sep := func(kind int) {
		if b.Len() > 0 && !(kind == kindItem && last == kindItem) {
			b.WriteString("\n")
		}
		last = kind
	}
	lists := map[string]bool{} // lists already shown whole
	shown := map[string]bool{} // code blocks already shown
	named := map[string]bool{} // sources whose bullets already said what they are about
	// lead names what a bullet is about when it does not say, once per
	// source: a list question is answered by the names.
	lead := func(k *kus.KU, text string) string {
		t := strings.TrimSpace(k.Title)
		if t == "" || named[k.ID] || strings.Contains(strings.ToLower(plainMD(text)), strings.ToLower(t)) {
			named[k.ID] = true
			return ""
		}
		named[k.ID] = true
		return "**" + t + "**: "
	}
	flush := func() {
		if len(para) == 0 {
			return
		}
		// A clause shown right after the one before it goes on its
		// sentence.
		for i := 1; i < len(para); i++ {
			if strings.HasSuffix(para[i-1], ";") {
				para[i] = strings.TrimPrefix(para[i], clauseMark)
			}
		}
		text := strings.Join(para, " ")
		if bullets {
			sep(kindItem)
			b.WriteString("- " + lead(paraKU, text) + cited(text, num(paraKU)) + "\n")
		} else {
			sep(kindSentence)
			b.WriteString(cited(text, num(paraKU)) + "\n")
		}
		para, paraKU = nil, nil
	}
	for i := 0; i < len(ordered); i++ {
		s := ordered[i]
		n := num(s.ku)
		switch {
		case s.kind == kindRow:
			flush()
			sep(kindRow)
			head := s.head
			if len(head) == 0 {
				cols := strings.Count(strings.Trim(s.md[0], "|"), "|") + 1
				head = []string{"|" + strings.Repeat(" |", cols), "|" + strings.Repeat(" --- |", cols)}
			}
			for _, h := range head {
				b.WriteString(h + "\n")
			}
			var rows []string
			for ; i < len(ordered) && ordered[i].kind == kindRow && ordered[i].ku == s.ku && ordered[i].table == s.table; i++ {
				rows = append(rows, ordered[i].md[0])
			}
			i--
			if !bullets && asksWhat && (titleNamed(s.ku, want) || keyColumnAsked(s.head, want)) {
				// A "what"/"which" question that asks for the things a
				// table's key column holds ("What packages ..." of a
				// "package | description" table) or names the table's
				// section is answered by every row, as a list question is.
				rows = s.rows[:min(len(s.rows), maxAll)]
			}
			if bullets {
				// A list question is answered by the table's rows: every
				// one up to maxAll, as a table a statement introduces is
				// (writeBlock), when the table is what the answer leads
				// with or its section is named by the question; a table
				// further down, about something else, only by the rows
				// that bear most on the question (bestRows).
				// A question that asks for one thing ("Which chi
				// middleware puts a request ID into the context?") is
				// answered by the rows that bear most on it wherever the
				// table stands.
				if !one && (n == 1 || symbolic.Overlap(want, symbolic.TermSet(s.ku.Title)) > 0) {
					rows = s.rows[:min(len(s.rows), maxAll)]
				} else {
					rows = bestRows(s.rows, want)
				}
			}
			for _, r := range rows {
				b.WriteString(citeRow(shortRow(r, want), n) + "\n")
			}
			last = kindRow
		case s.kind == kindCode:
			key := strings.Join(s.md, "\n")
			if shown[key] {
				continue
			}
			shown[key] = true
			flush()
			sep(kindCode)
			fmt.Fprintf(b, "From %s [%d]:\n\n", s.ku.Title, n)
			for _, l := range cutBlock(trimBlock(s.md), want) {
				b.WriteString(l + "\n")
			}
		case s.kind == kindItem && (bullets || asksWhat && titleNamed(s.ku, want)) && len(s.list) > 0 && !s.sub && len(s.block) == 0:
			// A list question is answered by the whole list the item is
			// part of, once; so is a "what"/"which" question that names
			// everything the list's section is titled ("What example
			// programs come with chi?" of "chi examples"): the list is of
			// the things it asks for.
			flush()
			key := fmt.Sprintf("%s\x00%p", s.ku.ID, &s.list[0])
			if lists[key] {
				continue
			}
			lists[key] = true
			sep(kindItem)
			for _, it := range splitItems(cutListAll(s.list, want)) {
				b.WriteString("- " + cited(itemText(it), n) + "\n")
			}
		case s.kind == kindItem:
			flush()
			sep(kindItem)
			b.WriteString("- " + cited(itemText(s.md), n) + "\n")
			writeBlock(b, s.block, want, "  ", bullets)
			if len(s.block) > 0 {
				last = kindCode
			}
		default:
			if paraKU != nil && (paraKU != s.ku || paraID != s.para) {
				flush()
			}
			para, paraKU, paraID = append(para, s.md[0]), s.ku, s.para
			if key := strings.Join(s.shows, "\n"); len(s.block) == 0 && len(s.shows) > 0 && !shown[key] {
				shown[key] = true
				flush()
				focus := exampleFocus(s.text, s.shows)
				if len(focus) == 0 {
					focus = want
				}
				writeBlock(b, s.shows, focus, "", isItem(strings.TrimSpace(s.shows[0])))
				last = kindCode
			}
			if len(s.block) > 0 {
				flush()
				indent := ""
				if bullets {
					indent = "  "
				}
				writeBlock(b, s.block, want, indent, bullets)
				last = kindCode
			}
		}
	}
	flush()
}

// cited is text with its citation, before a colon that ends it ("Run
// this [1]:").
func cited(text string, n int) string {
	if t := strings.TrimRight(text, " "); strings.HasSuffix(t, ":") {
		return fmt.Sprintf("%s [%d]:", strings.TrimSuffix(t, ":"), n)
	}
	return fmt.Sprintf("%s [%d]", text, n)
}

// citeRow puts a citation in a table row's last cell.
func citeRow(row string, n int) string {
	r := strings.TrimRight(row, " ")
	if strings.HasSuffix(r, "|") && len(r) > 1 {
		return strings.TrimRight(r[:len(r)-1], " ") + fmt.Sprintf(" [%d] |", n)
	}
	return r + fmt.Sprintf(" [%d]", n)
}

// writeBlock writes the block a statement introduces, after a blank line,
// indented by indent; a long block is cut to the lines that bear on the
// task, a long table to its header and the rows that do. A list question
// (all) asks for every item of a list and every row of a table, up to
// maxAll.
func writeBlock(b *strings.Builder, block []string, want []string, indent string, all bool) {
	if len(block) == 0 {
		return
	}
	lines := trimBlock(block)
	switch t := strings.TrimSpace(lines[0]); {
	case strings.HasPrefix(t, "|"):
		if all {
			lines = lines[:min(len(lines), maxAll+2)]
		} else {
			lines = cutTable(lines, want)
		}
		for i, l := range lines {
			lines[i] = shortRow(l, want)
		}
	case isItem(t):
		if all {
			lines = cutListAll(lines, want)
		} else {
			lines = cutList(lines, want)
		}
	default:
		lines = cutBlock(lines, want)
	}
	b.WriteString("\n")
	for _, l := range lines {
		if l == "" {
			b.WriteString("\n")
			continue
		}
		b.WriteString(indent + l + "\n")
	}
}

// maxCell bounds a table cell in an answer: a longer cell is cut
// (shortRow).
const maxCell = 240

// shortRow cuts a row's long cells to their first sentence and the
// first later sentence that holds a task term. A cell's first sentence
// says what its row's key is ("the kb-plugin that ranks for hover"); the
// sentences after it qualify that ("when it is not loaded, ..."), and
// one of them alone, chosen for a word it shares with the question,
// leaves the row unsaid.
func shortRow(row string, want []string) string {
	if len(row) <= maxCell {
		return row
	}
	cells := strings.Split(row, "|")
	for i, c := range cells {
		if len(c) <= maxCell {
			continue
		}
		ss := sentences(strings.TrimSpace(c))
		if len(ss) < 2 {
			continue
		}
		kept := ss[:1]
		for _, s := range ss[1:] {
			if symbolic.Overlap(want, symbolic.TermSet(plainMD(s))) > 0 {
				kept = append(kept, s)
				break
			}
		}
		cells[i] = " " + strings.Join(kept, " … ") + " … "
	}
	return strings.Join(cells, "|")
}

// maxListItems bounds the items of a list an answer shows, maxItemLines
// the lines of one item, and maxAll the items or rows a list question is
// shown.
const (
	maxListItems = 8
	maxItemLines = 6
	maxAll       = 20
)

// cutList keeps a long list's items that hold the most task terms (the
// first items when none holds one), each cut to maxItemLines lines: an
// item sharing one common word of the task ("command") with it is the
// neighbouring noise of the one that answers. A list of at most
// maxListItems short items is kept whole. With no task terms every item
// is kept, up to maxAll.
func cutList(lines []string, want []string) []string {
	var items [][]string
	for _, l := range lines {
		if len(items) == 0 || (isItem(strings.TrimSpace(l)) && !(strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t"))) {
			items = append(items, nil)
		}
		items[len(items)-1] = append(items[len(items)-1], l)
	}
	long := len(items) > maxListItems
	for _, it := range items {
		long = long || len(it) > maxItemLines
	}
	if !long {
		return lines
	}
	var kept [][]string
	if want == nil {
		kept = items[:min(len(items), maxAll)]
	}
	best := 0.0
	for _, it := range items {
		if want != nil {
			best = max(best, symbolic.Overlap(want, symbolic.TermSet(plainMD(strings.Join(it, " ")))))
		}
	}
	for _, it := range items {
		if want != nil && best > 0 && len(kept) < maxListItems && symbolic.Overlap(want, symbolic.TermSet(plainMD(strings.Join(it, " ")))) == best {
			kept = append(kept, it)
		}
	}
	if len(kept) == 0 {
		kept = items[:min(len(items), maxListItems)]
	}
	var out []string
	for _, it := range kept {
		out = append(out, cutItem(it, want)...)
	}
	return out
}

// cutListAll is cutList for a list question, which asks for every item:
// the items up to maxAll, each cut by cutItem for focus.
func cutListAll(lines []string, focus []string) []string {
	items := splitItems(lines)
	out := lines
	if len(items) > maxAll || slices.ContainsFunc(items, func(it []string) bool { return len(it) > maxItemLines }) {
		out = nil
		for _, it := range items[:min(len(items), maxAll)] {
			out = append(out, cutItem(it, focus)...)
		}
	}
	return out
}

// cutItem cuts a list item longer than maxItemLines. An item whose
// nested list is what makes it long keeps its own lines and the nested
// items that hold the most of want ("configuration files — ...:
// config_syntax" of "Diagnostics ..., with the codes of each format:"
// for broken configuration files), each cut in turn; other items, and
// nested lists none of whose items holds a term of want, keep their first
// maxItemLines lines. A cut is marked with "…".
func cutItem(it []string, want []string) []string {
	if len(it) <= maxItemLines {
		return it
	}
	cut := append(it[:maxItemLines:maxItemLines], strings.Repeat(" ", 2)+"…")
	first := slices.IndexFunc(it[1:], func(l string) bool { return isItem(strings.TrimSpace(l)) })
	if first < 0 || len(want) == 0 {
		return cut
	}
	lead, nested := it[:first+1], splitNested(it[first+1:])
	best := 0.0
	for _, n := range nested {
		best = max(best, symbolic.Overlap(want, symbolic.TermSet(plainMD(strings.Join(n, " ")))))
	}
	if best == 0 || len(lead) >= maxItemLines {
		return cut
	}
	out := slices.Clone(lead)
	for _, n := range nested {
		if symbolic.Overlap(want, symbolic.TermSet(plainMD(strings.Join(n, " ")))) == best {
			out = append(out, cutItem(n, nil)...)
		}
	}
	if len(out) < len(it) {
		out = append(out, strings.Repeat(" ", 2)+"…")
	}
	return out
}

// splitNested groups the lines of a nested list into its items: each
// starts at a line as indented as the list's first item.
func splitNested(lines []string) [][]string {
	indent := len(lines[0]) - len(strings.TrimLeft(lines[0], " \t"))
	var out [][]string
	for _, l := range lines {
		t := strings.TrimLeft(l, " \t")
		if len(out) == 0 || isItem(t) && len(l)-len(t) <= indent {
			out = append(out, nil)
		}
		out[len(out)-1] = append(out[len(out)-1], l)
	}
	return out
}

// maxTableRows bounds the rows of a table an answer shows.
const maxTableRows = 6

// splitItems groups a list's lines into its top-level items.
func splitItems(lines []string) [][]string {
	var items [][]string
	for _, l := range lines {
		if len(items) == 0 || (isItem(strings.TrimSpace(l)) && !(strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t"))) {
			items = append(items, nil)
		}
		items[len(items)-1] = append(items[len(items)-1], l)
	}
	return items
}

// tableParts splits a table's lines into its header (the header row and
// the separator row under it, when there is one) and its rows.
func tableParts(lines []string) (head, rows []string) {
	if len(lines) >= 2 && isSeparatorRow(lines[1]) {
		return lines[:2], lines[2:]
	}
	return nil, lines
}

// rowOverlap is the share of the task terms want that the table row r
// holds.
func rowOverlap(r string, want []string) float64 {
	return symbolic.Overlap(want, symbolic.TermSet(plainMD(strings.ReplaceAll(r, "|", " "))))
}

// cutTable keeps a table's header and, when it has more than maxTableRows
// rows, the rows that hold a task term (the first rows when none does).
func cutTable(lines []string, want []string) []string {
	head, rows := tableParts(lines)
	if len(rows) <= maxTableRows {
		return lines
	}
	var kept []string
	for _, r := range rows {
		if len(kept) < maxTableRows && rowOverlap(r, want) > 0 {
			kept = append(kept, r)
		}
	}
	if len(kept) == 0 {
		kept = rows[:maxTableRows]
	}
	return append(append([]string(nil), head...), kept...)
}

// bestRows keeps a table's header and the rows that hold the most task
// terms: a how-to is answered by the row that does it, not its
// neighbours. A table no row of which holds a task term is cut as
// cutTable cuts it.
func bestRows(lines []string, want []string) []string {
	head, rows := tableParts(lines)
	best := 0.0
	score := make([]float64, len(rows))
	for i, r := range rows {
		score[i] = rowOverlap(r, want)
		best = max(best, score[i])
	}
	if best == 0 {
		return cutTable(lines, want)
	}
	out := append([]string(nil), head...)
	for i, r := range rows {
		if score[i] == best && len(out) < len(head)+maxTableRows {
			out = append(out, r)
		}
	}
	return out
}

// cutHow is cutQuoted for what an example shows (quoted: the names the
// prose over it quotes), with its tables cut to their header and the
// rows that bear on the task, long cells shortened.
func cutHow(how, want, quoted []string) []string {
	var out, rest, table []string
	flushTable := func() {
		if len(table) == 0 {
			return
		}
		for _, r := range bestRows(table, want) {
			out = append(out, shortRow(r, want))
		}
		table = nil
	}
	fence := false
	for _, l := range how {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fence = !fence
		}
		if !fence && strings.HasPrefix(t, "|") {
			table = append(table, t)
			continue
		}
		flushTable()
		out = append(out, l)
	}
	flushTable()
	rest = out
	return cutQuoted(rest, want, quoted)
}

// titleNamed reports whether the question's terms hold every content term
// of the KU's title, and the title has one.
// keyColumnAsked reports whether the question asks for what a table's
// first column holds: the header cell of that column is one of its words
// ("package" of "What extra packages does chi offer?").
func keyColumnAsked(head []string, want []string) bool {
	if len(head) == 0 {
		return false
	}
	key := symbolic.ContentTerms(firstCell(head[0]))
	return len(key) > 0 && allAsked(key, want)
}

// firstCell is the text of a Markdown table row's first cell.
func firstCell(row string) string {
	return strings.Split(strings.Trim(strings.TrimSpace(row), "|"), "|")[0]
}

func titleNamed(k *kus.KU, want []string) bool {
	title := symbolic.ContentTerms(k.Title)
	return len(title) > 0 && allAsked(title, want)
}

// allAsked reports whether every one of terms is among want.
func allAsked(terms, want []string) bool {
	for _, t := range terms {
		if !slices.Contains(want, t) {
			return false
		}
	}
	return true
}

// codeTerms are the terms of code s, the words of its identifiers
// among them ("DefaultText" holds "default"): code names things in
// identifiers.
func codeTerms(s string) map[string]bool {
	terms := symbolic.TermSet(s)
	for t := range symbolic.IdentTerms(s) {
		terms[t] = true
	}
	return terms
}

// exampleFocus is what a code block that shows how to do what sentence
// offers is cut by: the sentence's words the block holds on the fewest
// lines, the names of the call the sentence is about ("destination" of
// "set a destination variable for a flag" in a program full of flags),
// rather than the words of the question.
func exampleFocus(sentence string, block []string) []string {
	lines := map[string]int{}
	for _, l := range block {
		for t := range codeTerms(l) {
			lines[t]++
		}
	}
	var focus []string
	least := 0
	for t := range symbolic.TermSet(sentence) {
		n := lines[t]
		switch {
		case n == 0:
		case least == 0 || n < least:
			focus, least = []string{t}, n
		case n == least:
			focus = append(focus, t)
		}
	}
	slices.Sort(focus)
	return focus
}

// asksOne reports whether a "which"/"what" question asks for one thing:
// "which one ...", or a singular noun phrase before a verb that agrees with
// it ("Which chi middleware puts a request ID into the context?", "What
// field keeps a command out of the help?"), where a plural asks for a list
// ("Which middlewares set response headers?").
func asksOne(prompt string) bool {
	words := strings.Fields(strings.ToLower(strings.TrimSpace(prompt)))
	if len(words) < 3 || words[0] != "which" && words[0] != "what" {
		return false
	}
	if strings.Trim(words[1], "?,.") == "one" {
		return true
	}
	for i := 2; i < len(words) && i <= 4; i++ {
		w, noun := strings.Trim(words[i], "?,."), strings.Trim(words[i-1], "?,.'")
		if plural(noun) {
			return false
		}
		switch w {
		case "is", "does", "has", "was":
			return true
		}
		if !plural(w) || len(text.Terms(noun)) == 0 {
			continue // a stop word is no noun a verb agrees with
		}
		// A verb's -s: a word the lexicon knows mostly as a verb
		// ("puts", "keeps"), not a noun's plural ("options").
		if t := text.Terms(w); len(t) == 1 {
			if _, main := lexicon.PartsOfSpeech(t[0]); main == lexicon.Verb {
				return true
			}
		}
	}
	return false
}

// plural reports whether a noun has the plural's -s ("middlewares"; not
// "class", "status" is taken for one).
func plural(noun string) bool {
	return strings.HasSuffix(noun, "s") && !strings.HasSuffix(noun, "ss") && !strings.HasSuffix(noun, "us")
}
