package gssymbolic

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins/internal/symbolic"
)

var (
	// compareLeadRE is the opening of a comparison's target that names no
	// item ("the difference between", "differences of").
	compareLeadRE = regexp.MustCompile(`(?i)^(?:what\s+(?:is|are)\s+)?(?:the\s+)?(?:main\s+)?(?:differences?|distinction|comparison)\s+(?:between|of)\s+`)
	// compareAskRE is a comparison asked as a question about its first
	// item ("how does Set differ from", "how is X different from"): the
	// lead before the item.
	compareAskRE = regexp.MustCompile(`(?i)^(?:how|what|in\s+what\s+ways?|what\s+ways?)\s+(?:does|do|is|are)\s+`)
	// scopeLeadRE is a leading scope the items share ("In viper, ").
	scopeLeadRE = regexp.MustCompile(`(?i)^(?:in|with|using|for)\s+[^,]{1,40},\s+`)
	// itemSepRE separates the compared items.
	itemSepRE = regexp.MustCompile(`(?i)\s*(?:,|\bversus\b|\bvs\.?\s|\band\b|\bor\b|\bdiffers?\s+from\b|\bdifferent(?:ly)?\s+(?:from|than)\b|\bcompared?\s+(?:to|with)\b)\s*`)
	// trailingAuxRE is the verb a question leaves after its first item
	// ("what does X do differently from Y").
	trailingAuxRE = regexp.MustCompile(`(?i)\s+(?:do|does)$`)
	// itemScopeRE is a trailing scope of the last item ("Bind in gin").
	itemScopeRE = regexp.MustCompile(`(?i)\s+(?:in|with|for|on|of|from)\s+\S.*$`)
	// itemArticleRE is the article, possessive determiner or possessor a
	// question sets before an item ("the multi and csv formats", "chi's
	// SetHeader middleware vs its WithValue middleware"): the page names
	// the item without it.
	itemArticleRE = regexp.MustCompile(`(?i)^(?:the|an?|its|their|my|your|our|[\w./-]+['’]s)\s+`)
)

// comparedItems reads the items a comparison target names: "scp and
// rsync", "kill or killall: which one stops processes by name", "ShouldBind
// and Bind in gin". Fewer than two items is not a comparison of items.
func comparedItems(target string) []string {
	t := scopeLeadRE.ReplaceAllString(strings.TrimSpace(target), "")
	t = compareAskRE.ReplaceAllString(t, "")
	t = compareLeadRE.ReplaceAllString(t, "")
	if i := strings.IndexAny(t, ":?"); i >= 0 {
		t = t[:i]
	}
	t = strings.TrimPrefix(strings.TrimSpace(t), "compare ")
	var items []string
	for _, part := range itemSepRE.Split(t, -1) {
		part = strings.Trim(itemScopeRE.ReplaceAllString(strings.TrimSpace(part), ""), " `\"'")
		part = trailingAuxRE.ReplaceAllString(part, "") // "kb-thinkingdb do" of "what does kb-thinkingdb do differently from"
		part = itemArticleRE.ReplaceAllString(part, "")
		if part == "" || len(strings.Fields(part)) > 4 || len(symbolic.ContentTerms(part)) == 0 {
			// Too long to be a name, or only question words ("which
			// does what" of "chmod versus chown, which does what?").
			continue
		}
		items = append(items, part)
	}
	if len(items) < 2 || len(items) > 5 {
		return choiceItems(target)
	}
	return items
}

// saysNothing opens the row of an item the evidence has nothing on.
const saysNothing = "the evidence says nothing about"

// choiceRE is a choice between two names inside a longer question: "zip or
// gzip" of "Should I use zip or gzip to compress my files".
var choiceRE = regexp.MustCompile(`(?i)([\p{L}\p{N}][\p{L}\p{N}._/+-]*)\s+(?:or|vs\.?|versus|instead\s+of|rather\s+than)\s+([\p{L}\p{N}][\p{L}\p{N}._/+-]*)`)

// choiceItems reads the items of a comparison whose target does not lead
// with them ("how do they differ (I use zip or gzip to compress my
// files)") from the choice it holds; nil when it holds none.
func choiceItems(target string) []string {
	m := choiceRE.FindStringSubmatch(target)
	if m == nil || len(symbolic.ContentTerms(m[1])) == 0 || len(symbolic.ContentTerms(m[2])) == 0 {
		return nil
	}
	return []string{m[1], m[2]}
}

// titledBy reports whether a unit's title is item's own: the item itself,
// or a heading that names it after a colon, the way a section names the
// command or the thing it documents after what it is about ("Searching
// and measuring retrieval: mrpvm search").
func titledBy(title, item string) bool {
	title = strings.TrimSpace(title)
	if strings.EqualFold(title, item) {
		return true
	}
	i := strings.LastIndex(title, ": ")
	return i > 0 && strings.EqualFold(strings.Trim(strings.TrimSpace(title[i+2:]), "`"), item)
}

// about reports whether text names item as a word of its own, in any
// case.
func about(text, item string) bool {
	re, err := regexp.Compile(`(?i)(?:^|[^\w-])` + regexp.QuoteMeta(item) + `(?:$|[^\w-])`)
	return err == nil && re.MatchString(text)
}

// names reports whether text names a compared item: as about, but an item
// written with capitals ("Bind", "JSONFormatter") is an identifier, and
// only that spelling names it ("bind a request" does not).
func namesItem(text, item string) bool {
	if strings.ToLower(item) == item {
		return about(text, item)
	}
	re, err := regexp.Compile(`(?:^|[^\w-])` + regexp.QuoteMeta(item) + `(?:$|[^\w-])`)
	return err == nil && re.MatchString(text)
}

// leads reports whether text names item among its first words: the
// statement is about the item, not one that mentions it in passing.
func leads(text, item string) bool {
	f := strings.Fields(text)
	return namesItem(strings.Join(f[:min(len(f), 5)], " "), item)
}

// compareWords are the terms that ask for a comparison ("what is the
// difference", "which is better"), not what it is about.
var compareWords = symbolic.TermSet("difference differences different differ differs compare comparison compared versus better best choose pick prefer")

// maxRowItems bounds the list items of one row.
const maxRowItems = 4

// maxCellSentences bounds the sentences of one statement in a cell.
const maxCellSentences = 2

// compareRows builds a comparison as one row per item, each from that
// item's own source: a unit titled by the item, else the statement that
// is most about it (naming it first, in prose rather than code); a nested
// list item speaks with its siblings ("Methods - Bind" with "Behavior -
// ..."). A row says so when the evidence has nothing on its item. It also
// adds a statement that says which to pick when one does. ok is false
// when the target names no items or the evidence speaks for fewer than
// need of them.
func compareRows(ev []plugin.ScoredKU, target string, want []string, num func(*kus.KU) int, c plugin.Corpus, need int) (string, bool) {
	items := comparedItems(target)
	if items == nil {
		return "", false
	}
	var b strings.Builder
	b.WriteString("| item | what the sources say |\n| --- | --- |\n")
	found := 0
	used := map[string]bool{}
	labels := map[string]bool{}
	read := map[string][]statement{}
	for _, e := range ev {
		if e.KU != nil {
			labels[label(e.KU.Topic)], labels[label(e.KU.Title)] = true, true
			read[e.KU.ID] = statementsOf(e.KU, c)
		}
	}
	delete(labels, "")
	// What the question asks beyond the items' names.
	named := map[string]bool{}
	for _, it := range items {
		for t := range symbolic.TermSet(it) {
			named[t] = true
		}
	}
	var rest []string
	for _, w := range want {
		if !named[w] && !compareWords[w] {
			rest = append(rest, w)
		}
	}
	// row is one item's row: what its sources say, how much of what the
	// question asks beyond the names it holds (fit), and the retriever's
	// score of its unit (rank).
	type row struct {
		item, cell string
		ku         *kus.KU
		fit, rank  float64
	}
	var rows []row
	for _, item := range items {
		var best *kus.KU
		var bestSt []statement
		bestScore, bestEv := -1.0, 0.0
		// The item as named, else its leading words: a head noun the items
		// share is written once, after the last ("Panic" of "Fatal and
		// Panic logging").
		for _, name := range itemForms(item) {
			if best != nil {
				break
			}
			item := name
			for _, e := range ev {
				k := e.KU
				if k == nil || aliased(k, ev) {
					continue
				}
				own := titledBy(k.Title, item)
				ss := read[k.ID]
				for si, s := range ss {
					if used[k.ID+"\x00"+s.text] || labels[label(s.text)] {
						continue
					}
					var lead *statement
					if !own && !namesItem(s.text, item) && fenced(s.block) && namesItem(strings.Join(s.block, "\n"), item) {
						// The code an introduction ("Examples:") shows
						// uses the item: that code speaks for it, after
						// what its section says that bears on the
						// question.
						lead = bearingSentence(ss[:si], want)
						s = statement{kind: kindCode, text: strings.Join(s.block, " "), md: s.block}
					}
					if !own && !namesItem(s.text, item) && !invokes(s, item) {
						continue
					}
					if s.kind == kindCode {
						if own {
							continue
						}
						// Code that uses the item, as a last resort: the
						// line that names it with the comment above it.
						s = codeMention(s, item)
					}
					words := float64(min(len(strings.Fields(s.text)), 12)) / 24
					sc := e.Score + words
					if own {
						// The item's own page speaks for it first, by its
						// opening statement.
						sc += 2 + symbolic.Overlap(rest, symbolic.TermSet(s.text)) - 0.1*float64(si)
						if s.kind == kindSentence && s.para == 1 {
							sc++ // the page's own description says what it is
						}
					} else {
						sc += symbolic.Overlap(rest, symbolic.TermSet(s.text)) - 0.01*float64(si)
						if leads(s.text, item) {
							sc += 0.5
						}
						if strings.Contains(s.md[0], "`"+item+"`") || strings.Contains(s.text, item+"(") {
							sc += 0.5 // names it as the identifier it is
						}
						if headsItem(k.Title, item, items) {
							sc += headedWeight
						}
					}
					switch {
					case s.kind == kindCode && !docComment(s.text, item):
						sc -= 1
					case !symbolic.Actionable(s.text):
						sc += 0.75 // prose says what it is; a command only names it
					}
					if pickRE.MatchString(s.text) {
						sc -= 0.5 // which to pick is said under the table
					}
					if !own && !slices.ContainsFunc(items, func(it string) bool {
						return !slices.ContainsFunc(itemForms(it), func(f string) bool { return namesItem(s.text, f) })
					}) {
						// A statement that names every item ("seven
						// levels: ..., Fatal and Panic") tells none of
						// them apart: anything said of this item alone,
						// code included, comes first.
						sc -= 2
					}
					if sc > bestScore {
						best, bestScore, bestEv = k, sc, e.Score
						bestSt = rowStatements(ss, si)
						if s.kind == kindCode {
							bestSt = []statement{s}
							if lead != nil && !docComment(s.text, item) {
								// A doc comment says what the item is
								// itself; the section's sentence would
								// only repeat what every row shares.
								bestSt = []statement{*lead, s}
							}
						}
					}
				}
			}
		}
		if best == nil {
			rows = append(rows, row{item: item, cell: saysNothing + " " + escapeCell(item), fit: -1})
			continue
		}
		found++
		if slices.ContainsFunc(append(itemForms(item), item), func(f string) bool { return titledBy(best.Title, f) }) {
			bestSt = ownRow(read[best.ID], bestSt, rest, used, best.ID)
		} else {
			bestSt = ledParagraph(read[best.ID], bestSt, item, items)
		}
		bestSt = toSentenceEnd(read[best.ID], bestSt)
		cell := ""
		for i, s := range bestSt {
			used[best.ID+"\x00"+s.text] = true
			switch {
			case i == 0:
			case s.kind == kindSentence && bestSt[i-1].kind == kindSentence && s.para == bestSt[i-1].para,
				s.kind != kindCode && (strings.HasSuffix(cell, ".") || strings.HasSuffix(cell, ":")):
				cell += " " // sentences of one paragraph read as one
			default:
				cell += "; "
			}
			if strings.HasSuffix(strings.TrimSpace(cell), ";") {
				cell += strings.TrimPrefix(cellText(s), clauseMark) // it goes on that sentence
			} else {
				cell += cellText(s)
			}
		}
		var said []string
		for _, s := range bestSt {
			said = append(said, s.plain())
		}
		rows = append(rows, row{item: item, cell: escapeCell(cell), ku: best, rank: bestEv,
			fit: symbolic.Overlap(rest, symbolic.TermSet(strings.Join(said, " ")))})
	}
	if found < max(1, need) {
		return "", false
	}
	if need > 1 {
		// A recommendation leads with the item whose row fits what the
		// question asks of it ("stops processes by name") best, the one
		// the retriever ranked higher of equals.
		sort.SliceStable(rows, func(i, j int) bool {
			if rows[i].fit != rows[j].fit {
				return rows[i].fit > rows[j].fit
			}
			return rows[i].rank > rows[j].rank
		})
	}
	for _, r := range rows {
		if r.ku == nil {
			fmt.Fprintf(&b, "| %s | %s |\n", escapeCell(r.item), r.cell)
			continue
		}
		fmt.Fprintf(&b, "| %s | %s [%d] |\n", escapeCell(r.item), r.cell, num(r.ku))
	}
	pk, ps := whichToPick(ev, items, read)
	if k, s := sideBySide(ev, items, read); k != nil && !used[k.ID+"\x00"+s.text] && (pk != k || ps.text != s.text) {
		fmt.Fprintf(&b, "\n%s\n", cited(quotedWhole(s), num(k)))
	}
	if pk != nil && !used[pk.ID+"\x00"+ps.text] {
		used[pk.ID+"\x00"+ps.text] = true
		fmt.Fprintf(&b, "\n%s\n", cited(quotedWhole(ps), num(pk)))
	}
	if k, lead := alternativesLead(ev, items, read); k != nil && !slices.ContainsFunc(lead, func(s statement) bool { return used[k.ID+"\x00"+s.text] }) {
		var said []string
		for _, s := range lead {
			used[k.ID+"\x00"+s.text] = true
			said = append(said, s.md[0])
		}
		fmt.Fprintf(&b, "\n%s\n", cited(strings.Join(said, " "), num(k)))
	}
	for _, it := range items {
		if k, s := ownPick(ev, it, read); k != nil && !used[k.ID+"\x00"+s.text] {
			used[k.ID+"\x00"+s.text] = true
			fmt.Fprintf(&b, "\n%s\n", cited(quotedWhole(s), num(k)))
		}
	}
	return b.String(), true
}

// alternativesLead is the paragraph before a list whose items are the
// compared items, one each ("You also have the option of Unmarshaling all
// or a specific value to a struct, map, etc." before "There are two
// methods to do this:" and its items Unmarshal and UnmarshalKey): a page
// that lists the items as the ways of doing one thing says there what sets
// them apart. A longer list holds more than the alternatives, and the
// paragraph before it introduces more than their difference. nil when no
// list of the evidence is the items, or nothing comes before it in its
// unit.
func alternativesLead(ev []plugin.ScoredKU, items []string, read map[string][]statement) (*kus.KU, []statement) {
	for _, e := range ev {
		if e.KU == nil {
			continue
		}
		ss := read[e.KU.ID]
		for i, s := range ss {
			if s.kind != kindSentence || len(s.subs) != len(items) || !listsAll(s.subs, items) {
				continue
			}
			var lead []statement
			for _, o := range ss[:i] {
				if o.kind == kindSentence && o.para == s.para-1 && len(o.block) == 0 && len(lead) < maxCellSentences {
					lead = append(lead, o)
				}
			}
			if len(lead) > 0 {
				return e.KU, lead
			}
		}
	}
	return nil, nil
}

// listsAll reports whether every item is named by one of the list items
// subs, by one of its forms or by its last word (the name after a scope:
// "Unmarshal" of "viper Unmarshal").
func listsAll(subs, items []string) bool {
	return !slices.ContainsFunc(items, func(it string) bool {
		f := strings.Fields(it)
		forms := append(itemForms(it), f[len(f)-1])
		return !slices.ContainsFunc(subs, func(sub string) bool {
			return slices.ContainsFunc(forms, func(form string) bool { return namesItem(sub, form) })
		})
	})
}

// ownPick is the first statement of item's own units (those titled by
// it) that says when to choose it ("Best for ambiguous, multi-part, or
// complex requests." on sd-llm-deep's page); nil when they say nothing of
// it. A page that compares several items says when to pick one of them;
// each item's own page says when to pick it, which is what a reader
// choosing between them weighs. What its own page says is said of the
// item, named or not.
func ownPick(ev []plugin.ScoredKU, item string, read map[string][]statement) (*kus.KU, statement) {
	var own []plugin.ScoredKU
	for _, e := range ev {
		if e.KU != nil && strings.EqualFold(strings.TrimSpace(e.KU.Title), item) {
			own = append(own, e)
		}
	}
	return firstProse(own, read, pickRE, func(string) bool { return true })
}

// headedWeight is what a statement gains for standing in a section whose
// heading names what sets its item apart from the others.
const headedWeight = 1.0

// headsItem reports whether a heading names every word of item that the
// other compared items do not share ("locked" of kb_locked beside
// kb_read_only in "The knowledge base is locked"): the section is the
// item's own, written under a description of it rather than its name.
func headsItem(title, item string, items []string) bool {
	others := map[string]bool{}
	for _, it := range items {
		if it != item {
			for t := range symbolic.TermSet(strings.ReplaceAll(it, "_", " ")) {
				others[t] = true
			}
		}
	}
	var own []string
	for _, t := range symbolic.ContentTerms(strings.ReplaceAll(item, "_", " ")) {
		if !others[t] {
			own = append(own, t)
		}
	}
	return len(own) > 0 && symbolic.Overlap(own, symbolic.TermSet(title)) == 1
}

// ledParagraph completes a row whose one sentence leads with its item
// ("`AutomaticEnv` is a powerful helper ..."): the paragraph it opens is
// about that item, and its next sentences (up to maxCellSentences in all)
// say what it does, as long as they name no other compared item.
func ledParagraph(ss []statement, row []statement, item string, items []string) []statement {
	if len(row) != 1 || row[0].kind != kindSentence || !leads(row[0].text, item) {
		return row
	}
	first := row[0]
	out := []statement{first}
	after := false
	for _, s := range ss {
		if s.text == first.text {
			after = true
			continue
		}
		if !after || len(out) >= maxCellSentences {
			continue
		}
		if s.kind != kindSentence || s.para != first.para || len(s.block) > 0 || namesOther(s.text, item, items) {
			break
		}
		out = append(out, s)
	}
	return out
}

// namesOther reports whether text names a compared item besides item, in
// any of its forms (itemForms).
func namesOther(text, item string, items []string) bool {
	return slices.ContainsFunc(items, func(it string) bool {
		return it != item && slices.ContainsFunc(append(itemForms(it), it), func(f string) bool { return namesItem(text, f) })
	})
}

// ownRow completes the row an item's own page speaks in: a description
// sentence brings the other sentences of its paragraph (up to
// maxCellSentences: "Display dynamic real-time information about running
// processes. An enhanced version of top."), and the example of the page
// that bears most on what the question asks beyond the items' names
// ("Switch to an existing branch" for "for changing branches") follows it,
// its command with it. Of examples that bear on it equally, one that sets
// its way apart from another ("match their full command instead of just
// the process name") says what a comparison asks.
func ownRow(ss []statement, row []statement, rest []string, used map[string]bool, id string) []statement {
	if len(row) != 1 {
		return row
	}
	first := row[0]
	out := []statement{first}
	if first.kind == kindSentence {
		// The paragraph's prose sentences in page order, the chosen one
		// among them: a command the paragraph shows names the item
		// without saying what it is, and which to pick is said under the
		// table.
		var para []statement
		for _, s := range ss {
			if s.text == first.text || s.kind == kindSentence && s.para == first.para && len(s.block) == 0 && !strings.HasSuffix(strings.TrimSpace(s.text), ":") &&
				!used[id+"\x00"+s.text] && !commandText(s) && !pickRE.MatchString(s.text) && !rawCode(s.text) {
				para = append(para, s)
			}
		}
		if i := slices.IndexFunc(para, func(s statement) bool { return s.text == first.text }); i >= maxCellSentences {
			para = append(para[:maxCellSentences-1], first)
		}
		out = para[:min(len(para), maxCellSentences)]
	}
	if len(rest) == 0 {
		return out
	}
	var ex *statement
	bestOv := 0.0
	for i := range ss {
		s := &ss[i]
		if len(s.block) == 0 || s.kind != kindItem || !codeLine(s.block) || used[id+"\x00"+s.text] || s.text == first.text {
			continue
		}
		ov := symbolic.Overlap(rest, symbolic.TermSet(s.plain()))
		if ov > bestOv || ov > 0 && ov == bestOv && setsApart(s.text) && !setsApart(ex.text) {
			ex, bestOv = s, ov
		}
	}
	if ex != nil {
		out = append(out, *ex)
	}
	return out
}

// invokes reports whether s is an example whose command runs item, an
// invocation of several words ("umask 077" of "- Set the mask ...:" over
// "`umask {{077}}`"), its placeholders read as the values they stand for:
// that example is what the page says of the invocation, where the page
// only names its command.
func invokes(s statement, item string) bool {
	if len(strings.Fields(item)) < 2 || s.kind != kindItem || !codeLine(s.block) {
		return false
	}
	return namesItem(placeholderBraces.Replace(s.block[0]), item)
}

// commandText reports whether a sentence is a command line rather than
// prose: one span of inline code, or text holding a placeholder
// ("scp {{path/to/file}} {{host}}:{{path}}").
func commandText(s statement) bool {
	return codeLine(s.md[:1]) || strings.Contains(s.text, "{{")
}

// itemForms are the names an item is looked for by, longest first: the
// item, then it without its trailing words, down to its first word.
func itemForms(item string) []string {
	f := strings.Fields(item)
	out := []string{item}
	for n := len(f) - 1; n >= 1; n-- {
		if form := strings.Join(f[:n], " "); len(symbolic.ContentTerms(form)) > 0 {
			out = append(out, form)
		}
	}
	return out
}

// bearingSentence is the prose sentence of ss that holds the most of the
// question's terms, the first of equals; nil when none holds one.
func bearingSentence(ss []statement, want []string) *statement {
	var best *statement
	bestOv := 0.0
	for i := range ss {
		st := &ss[i]
		if st.kind != kindSentence || strings.HasSuffix(strings.TrimSpace(st.text), ":") {
			continue
		}
		if ov := symbolic.Overlap(want, symbolic.TermSet(st.text)); ov > bestOv {
			best, bestOv = st, ov
		}
	}
	return best
}

// fenced reports whether block is a fenced code block.
func fenced(block []string) bool {
	if len(block) == 0 {
		return false
	}
	t := strings.TrimSpace(block[0])
	return strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")
}

// codeMention is the line of a code block that names item, with the
// comment line above it, as one inline code statement.
func codeMention(s statement, item string) statement {
	lines := s.md
	for i, l := range lines {
		if !namesItem(l, item) {
			continue
		}
		t := strings.TrimSpace(l)
		if i > 0 {
			if p := strings.TrimSpace(lines[i-1]); strings.HasPrefix(p, "//") || strings.HasPrefix(p, "#") {
				t = p + " " + t
			}
		}
		return statement{kind: kindCode, text: t, md: []string{codeSpan(t)}}
	}
	return statement{kind: kindCode, text: s.text, md: []string{""}}
}

// docComment reports whether a code mention is a comment that opens
// with the item's name ("// Route mounts a sub-Router along a pattern"):
// the code's own description of the item, which says what it is as prose
// does, where a line that uses it only shows it.
func docComment(text, item string) bool {
	for _, lead := range []string{"//", "#"} {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(text), lead); ok {
			f := strings.Fields(rest)
			return len(f) > 1 && f[0] == item
		}
	}
	return false
}

// rowStatements is the statement at i with, when it is a nested list
// item, its parent and siblings: together they describe one thing.
func rowStatements(ss []statement, i int) []statement {
	s := ss[i]
	if s.kind == kindItem && s.sub && s.indent == 0 && len(strings.Fields(s.text)) <= maxLabelWords {
		// A short item of a list a sentence introduces says what it says
		// under that sentence ("Each item takes precedence over the item
		// below it: explicit call to Set").
		for j := i - 1; j >= 0; j-- {
			if o := ss[j]; o.kind == kindSentence && slices.Contains(o.subs, s.text) {
				o.block = nil
				return []statement{o, s}
			}
		}
	}
	if s.kind != kindItem || s.indent == 0 {
		return []statement{s}
	}
	var out []statement
	for _, o := range ss {
		if o.kind == kindItem && o.group == s.group && len(out) < maxRowItems {
			out = append(out, o)
		}
	}
	return out
}

// toSentenceEnd is row with the clauses that finish its last sentence:
// a statement cut at a ";" ("... reported with the code kb_read_only;")
// is continued by the clauses of its sentence that follow it in ss ("it
// is not damaged, so do not rebuild it."), so a cell never stops
// mid-sentence.
func toSentenceEnd(ss []statement, row []statement) []statement {
	if len(row) == 0 {
		return row
	}
	last := row[len(row)-1]
	i := slices.IndexFunc(ss, func(s statement) bool { return s.kind == last.kind && s.text == last.text && s.para == last.para })
	if i < 0 || last.kind != kindSentence {
		return row
	}
	for j := i + 1; j < len(ss) && strings.HasSuffix(strings.TrimSpace(ss[j-1].md[0]), ";"); j++ {
		next := ss[j]
		if next.kind != kindSentence || next.para != last.para || !strings.HasPrefix(next.md[0], clauseMark) {
			break
		}
		row = append(row, next)
	}
	return row
}

// quotedWhole is a statement quoted on a line of its own: a list item
// with its marker and every line it wraps over (its first line alone may
// stop mid-sentence), cut to its first sentences as a cell is; other
// statements as written.
func quotedWhole(s statement) string {
	if s.kind != kindItem {
		return s.md[0]
	}
	t := strings.TrimSpace(s.md[0])
	return t[:markerLen(t)] + cellText(s)
}

// cellText is a statement as a table cell: its Markdown on one line, cut
// to its first sentences.
func cellText(s statement) string {
	t := s.md[0]
	switch s.kind {
	case kindItem:
		t = itemText(s.md)
		if codeLine(s.block) {
			// An example: what it does and the command that does it.
			return strings.TrimSuffix(strings.TrimSpace(t), ":") + ": " + strings.TrimSpace(s.block[0])
		}
	case kindRow:
		// A row's cells, their padding left out ("csv     | Comma-separated
		// values."); an escaped pipe ("foo\|bar") is a pipe of its cell's
		// text, which the comparison's table escapes again.
		row := strings.ReplaceAll(strings.TrimSpace(s.md[0]), `\|`, "\x00")
		cells := strings.Split(strings.Trim(row, "|"), "|")
		for i, c := range cells {
			cells[i] = strings.ReplaceAll(strings.TrimSpace(c), "\x00", "|")
		}
		t = strings.Join(cells, " — ")
	}
	if ss := sentences(t); len(ss) > maxCellSentences {
		t = strings.Join(ss[:maxCellSentences], " ")
	}
	return strings.TrimSpace(t)
}

// rawCode reports whether text is code written as prose (an indented
// block the page did not fence): a function, a block or a comment.
func rawCode(text string) bool {
	t := inlineCodeRE.ReplaceAllString(urlRE.ReplaceAllString(text, ""), "")
	t = placeholderBraces.Replace(t)
	return declaresFunc(t) || strings.Contains(t, "//") || strings.Contains(t, " := ") || strings.Count(t, "{") > 1
}

// declaresFunc reports whether t holds a Go function declaration or
// literal ("func main(", "func(c *gin.Context)", "func (r *Router) Get("),
// not the word in prose ("assigning a compatible func to the variable",
// "function").
func declaresFunc(t string) bool {
	for off := 0; ; {
		i := strings.Index(t[off:], "func")
		if i < 0 {
			return false
		}
		i += off
		off = i + 4
		if i > 0 && isWordByte(t[i-1]) {
			continue
		}
		rest := strings.TrimLeft(t[off:], " \t")
		if strings.HasPrefix(rest, "(") {
			return true
		}
		n := 0
		for n < len(rest) && isWordByte(rest[n]) {
			n++
		}
		if n > 0 && (rest[0] < '0' || rest[0] > '9') {
			if after := strings.TrimLeft(rest[n:], " \t"); strings.HasPrefix(after, "(") || strings.HasPrefix(after, "[") {
				return true
			}
		}
	}
}

// isWordByte reports whether b is an ASCII letter, digit or underscore.
func isWordByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// inlineCodeRE matches a span of inline code.
var inlineCodeRE = regexp.MustCompile("`[^`]*`")

// pickRE finds a statement that says which to choose.
var pickRE = regexp.MustCompile(`(?i)\b(?:use|prefer|choose|pick)\b.*\b(?:when|if|for|instead|rather)\b|\binstead of\b|\brather than\b|\bbetter\b|\bif you (?:want|wish|need)\b.*\b(?:use|using|consider)\b|\b(?:best|ideal|well)\s+suited\s+(?:for|to)\b|\b(?:best|ideal)\s+(?:for|when)\b`)

// contrastRE finds a statement that sets things side by side ("Compared
// with X, Y misses ...", "unlike X", "X is faster than Y").
var contrastRE = regexp.MustCompile(`(?i)\bcompared\s+(?:with|to)\b|\bunlike\b|\bwhereas\b|\bin contrast\b|\b(?:more|less|fewer|faster|slower|cheaper|better|worse|simpler|safer)\b[^.;]*\bthan\b`)

// insteadRE finds a statement that sets one way apart from another
// ("instead of", "rather than").
var insteadRE = regexp.MustCompile(`(?i)\binstead\s+of\b|\brather\s+than\b`)

// setsApart reports whether text contrasts what it says with something
// else (contrastRE, insteadRE).
func setsApart(text string) bool {
	return contrastRE.MatchString(text) || insteadRE.MatchString(text)
}

// sideBySide is the first evidence statement in prose that names every
// compared item and sets them side by side: the page's own comparison,
// which the rows built from each item's description do not say. nil when
// none does.
func sideBySide(ev []plugin.ScoredKU, items []string, read map[string][]statement) (*kus.KU, statement) {
	return firstProse(ev, read, contrastRE, func(text string) bool {
		return !slices.ContainsFunc(items, func(it string) bool {
			return !slices.ContainsFunc(itemForms(it), func(f string) bool { return namesItem(text, f) })
		})
	})
}

// whichToPick is the first evidence statement that names an item and says
// when to choose it; nil when none does.
func whichToPick(ev []plugin.ScoredKU, items []string, read map[string][]statement) (*kus.KU, statement) {
	return firstProse(ev, read, pickRE, func(text string) bool {
		return slices.ContainsFunc(items, func(it string) bool { return namesItem(text, it) })
	})
}

// firstProse is the first statement of the evidence, in order, that is
// prose re matches and that names accepts; nil when none is. Code, table
// rows, blocks and raw code are not prose, nor is an example's description
// ("Sort processes (use htop --sort help for the options):"), which says
// how to run the example.
func firstProse(ev []plugin.ScoredKU, read map[string][]statement, re *regexp.Regexp, names func(text string) bool) (*kus.KU, statement) {
	for _, e := range ev {
		if e.KU == nil {
			continue
		}
		for _, s := range read[e.KU.ID] {
			if s.kind == kindCode || s.kind == kindRow || len(s.block) > 0 || strings.HasSuffix(strings.TrimSpace(s.text), ":") || !re.MatchString(s.text) || rawCode(s.text) {
				continue
			}
			if names(s.text) {
				return e.KU, s
			}
		}
	}
	return nil, statement{}
}

// placeholderBraces strips the braces of a placeholder ("{{path}}" reads
// "path").
var placeholderBraces = strings.NewReplacer("{{", "", "}}", "")
