package gssymbolic

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugin/text"
	"github.com/mrpvm/mrpvm/plugins/internal/symbolic"
)

// Statement kinds: what a statement is in its page, which decides how the
// answer shows it.
const (
	kindSentence = iota // a sentence of a paragraph
	kindItem            // a list item
	kindRow             // a table row
	kindCode            // a code block standing on its own
)

// statement is one quotable piece of a KU read from its Markdown: a
// sentence, a list item, a table row or a code block, with the block it
// introduces ("It supports:" and its list, "Run:" and its code) kept with
// it, so the answer shows the page's own shape.
type statement struct {
	kind  int
	text  string   // the statement as plain text, for scoring
	md    []string // its Markdown lines as the answer shows them
	block []string // the list, code or table it introduces, as written
	head  []string // a table row's header and separator lines
	table int      // which table of the KU a row belongs to
	rows  []string // every row of that table
	para  int      // which paragraph of the KU a sentence belongs to
	// A list item's indentation and the top-level item it falls under:
	// nested items ("Methods - ...", "Behavior - ...") describe their
	// parent together.
	indent, group int
	sub           bool     // an item of a list a statement introduces
	subs          []string // the texts of the items a statement introduces
	list          []string // every line of the list an item belongs to
	// shows is how to do what the sentence says, shown with it but not
	// scored with it: the code block right after the paragraph of a
	// sentence that tells the reader what they can do (offersAction), or
	// the numbered steps after a unit's one-sentence opening paragraph
	// (numberedSteps). A list of steps is shown whole.
	shows []string
}

// plain is the text a statement is scored and compared by: its own and
// the block it introduces.
func (s statement) plain() string {
	if len(s.block) == 0 {
		return s.text
	}
	return s.text + " " + strings.Join(s.block, " ")
}

// leadsInOnly reports whether s only leads in to a list ("Shared by every
// command:") whose items are statements of their own (subs), and says
// none of want itself. What its list says of the task, the item that
// says it answers; the lead-in, weighed with its whole list, would gather
// the words of every item and lead the answer with the list's first ones.
func leadsInOnly(s statement, want []string) bool {
	return len(s.subs) > 0 && symbolic.Overlap(want, symbolic.TermSet(s.text)) == 0
}

// mdBlock is one block of a KU's Markdown.
type mdBlock struct {
	kind  int // kindSentence for a paragraph, kindItem, kindRow (a table), kindCode
	lines []string
	raw   []string // a paragraph's lines as written, indentation kept
	nav   bool     // an item whose first line is only a link
}

// setextRE is the underline that makes the paragraph above it a heading
// ("chi examples" over "============").
var setextRE = regexp.MustCompile(`^(?:=+|-+)$`)

// linkRefRE is a link reference definition ("[RealIP]: https://...").
var linkRefRE = regexp.MustCompile(`^\s{0,3}\[[^\]]+\]:\s*\S+`)

// readBlocks splits Markdown into paragraphs, list items, tables and code
// blocks. Headings and HTML comments are labels and markup, not
// statements, and are left out; link targets are dropped.
func readBlocks(md string) []mdBlock {
	var out []mdBlock
	var cur *mdBlock
	flush := func() {
		if cur != nil && len(cur.lines) > 0 {
			if cur.kind == kindSentence && rawCode(strings.Join(cur.lines, " ")) {
				// Code the page did not fence (indented under a list item).
				cur.kind = kindCode
				cur.lines = append(append([]string{"```"}, trimBlock(cur.raw)...), "```")
			}
			if cur.kind == kindSentence && len(cur.lines) >= 2 && strings.Contains(cur.lines[1], "|") && isSeparatorRow(cur.lines[1]) {
				// A table written without its outer pipes.
				cur.kind = kindRow
				for i, l := range cur.lines {
					cur.lines[i] = "| " + strings.Trim(l, "| ") + " |"
				}
			}
			if !(cur.nav && len(cur.lines) == 1) {
				// An item that is only a link is a table of contents'
				// entry, not a statement.
				out = append(out, *cur)
			}
		}
		cur = nil
	}
	var fences text.Fences
	comment := false
	for _, line := range strings.Split(md, "\n") {
		t := strings.TrimSpace(line)
		// A link alone, or a link to a heading of the page with words
		// after it: a table of contents' entry.
		nav := navRE.MatchString(line) || tocRE.MatchString(line)
		if fences.Open() {
			cur.lines = append(cur.lines, line)
			if fences.Read(line) == text.Closing {
				flush()
			}
			continue
		}
		if comment {
			if strings.Contains(t, "-->") {
				comment = false
			}
			continue
		}
		if strings.HasPrefix(t, "<!--") {
			comment = !strings.Contains(t, "-->")
			continue
		}
		if cur == nil || cur.kind != kindSentence || linkRefRE.MatchString(cur.lines[len(cur.lines)-1]) {
			if linkRefRE.MatchString(t) {
				continue // a link reference definition is where a link leads, not text
			}
		}
		if line = unlink(line); strings.TrimSpace(line) == "" && t != "" {
			continue // an image or badge alone on its line
		}
		t = strings.TrimSpace(line)
		if fences.Read(line) == text.Opening {
			flush()
			cur = &mdBlock{kind: kindCode, lines: []string{line}}
			continue
		}
		switch {
		case t == "":
			flush()
		case strings.HasPrefix(t, "#"):
			flush()
		case setextRE.MatchString(t) && cur != nil && cur.kind == kindSentence:
			cur = nil // the paragraph above the underline is a heading
		case strings.HasPrefix(t, "|"):
			if cur == nil || cur.kind != kindRow {
				flush()
				cur = &mdBlock{kind: kindRow}
			}
			cur.lines = append(cur.lines, t)
		case listLine(line) && !(line[0] == ' ' || line[0] == '\t') || isItem(t) && (cur == nil || cur.kind != kindSentence):
			flush()
			cur = &mdBlock{kind: kindItem, lines: []string{line}, nav: nav}
		default:
			t = strings.TrimSpace(strings.TrimPrefix(t, ">"))
			if cur == nil || cur.kind == kindRow {
				flush()
				cur = &mdBlock{kind: kindSentence}
			}
			if cur.kind == kindItem {
				cur.lines = append(cur.lines, line)
			} else {
				cur.lines = append(cur.lines, t)
				cur.raw = append(cur.raw, line)
			}
		}
	}
	if cur != nil && cur.kind == kindCode && fences.Open() {
		// Close a block the KU cuts short with the fence that opened it.
		cur.lines = append(cur.lines, strings.TrimSpace(cur.lines[0])[:3])
	}
	flush()
	return out
}

// offerRE opens a sentence that tells the reader what they can do ("You
// can also set a destination variable for a flag").
var offerRE = regexp.MustCompile(`(?i)^you\s+(?:(?:also|then|now|instead|just|still|even)\s+)?(?:can|could|may)\s+\w`)

// offersAction reports whether sentence s tells the reader what they can
// do. Documentation that says so and then shows a code block, with no
// colon between, shows how to do it in that block: the sentence alone
// names the feature without the call that uses it.
func offersAction(s string) bool { return offerRE.MatchString(strings.TrimSpace(s)) }

// numberedSteps is the numbered list blocks open with, every item: the
// steps that carry out what a unit's one-sentence opening paragraph says
// it does ("Gin supports a custom json codec at runtime." over "1.
// Define ...", "2. Assign ..."). Nil when blocks open with anything else.
func numberedSteps(blocks []mdBlock) []string {
	var steps []string
	for _, b := range blocks {
		if b.kind != kindItem || !numberedItem(strings.TrimSpace(b.lines[0])) {
			break
		}
		steps = append(steps, b.lines...)
	}
	return steps
}

// numberedItem reports whether line t opens a numbered list item.
func numberedItem(t string) bool {
	d := strings.TrimLeft(t, "0123456789")
	return d != t && isItem(t)
}

// maxLabelWords bounds the words of a paragraph read as the label of the
// code block under it.
const maxLabelWords = 4

// clauseMark opens a clause quoted without the clause before it in its
// sentence ("… the message quotes the raw name"): it does not read as a
// sentence of its own.
const clauseMark = "… "

// clauseOf reports whether s goes on the sentence prev ends with a ";":
// it opens in lower case.
func clauseOf(prev, s string) bool {
	r := []rune(s)
	return strings.HasSuffix(strings.TrimSpace(prev), ";") && len(r) > 0 && unicode.IsLower(r[0])
}

// answerLabelRE is the label a FAQ puts before its answer ("A: Viper is
// designed to ..."), followed by the answer's first word.
var answerLabelRE = regexp.MustCompile(`^(?:A|Answer):\s+\p{Lu}`)

// withoutAnswerLabel is a paragraph's first sentence without a FAQ's
// answer label: the answer quotes the answer, not the page's markup.
func withoutAnswerLabel(s string) string {
	if !answerLabelRE.MatchString(s) {
		return s
	}
	return strings.TrimLeft(s[strings.Index(s, ":")+1:], " \t")
}

// codeLine reports whether a paragraph is one span of inline code (a
// command line, as reference pages show their examples).
func codeLine(lines []string) bool {
	if len(lines) != 1 {
		return false
	}
	t := strings.TrimSpace(lines[0])
	return len(t) > 2 && strings.HasPrefix(t, "`") && strings.HasSuffix(t, "`")
}

// isItem reports whether a trimmed line opens a list item.
func isItem(t string) bool {
	if strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "* ") || strings.HasPrefix(t, "+ ") {
		return true
	}
	d := strings.TrimLeft(t, "0123456789")
	return d != t && len(t)-len(d) <= 3 && (strings.HasPrefix(d, ". ") || strings.HasPrefix(d, ") "))
}

// itemText is a list item's text without its marker, its wrapped lines
// joined.
func itemText(lines []string) string {
	var parts []string
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if i == 0 {
			t = strings.TrimSpace(t[markerLen(t):])
		}
		if t != "" {
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, " ")
}

// markerLen is the length of a list marker opening t, with its space.
func markerLen(t string) int {
	if strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "* ") || strings.HasPrefix(t, "+ ") {
		return 2
	}
	d := strings.TrimLeft(t, "0123456789")
	if d != t && (strings.HasPrefix(d, ". ") || strings.HasPrefix(d, ") ")) {
		return len(t) - len(d) + 2
	}
	return 0
}

// plainMD is Markdown inline text as plain words: no emphasis or code marks.
func plainMD(s string) string {
	return strings.NewReplacer("**", "", "`", "", "__", "").Replace(s)
}

// statementsOf reads a KU's statements from its Markdown as written when
// the corpus has it, else from its stored text (where code blocks and
// tables are already flattened to lines).
func statementsOf(k *kus.KU, c plugin.Corpus) []statement {
	md := rawOf(k, c)
	if cuFieldRE.MatchString(md) {
		// A Context Unit: its Claim (or Procedure) is what it states;
		// the Topic and the other fields are labels.
		md = ""
	}
	if md == "" {
		body := k.Text()
		if tb := withoutCovers(k.TextBody); k.Procedure == "" && tb != "" && len(tb) > len(body) {
			body = tb
		}
		return flatStatements(body)
	}
	blocks := readBlocks(md)
	var out []statement
	para, table, group := 0, 0, 0
	var list []string // the list the items being read belong to
	for i := 0; i < len(blocks); i++ {
		b := blocks[i]
		// The block a statement ending in ":" introduces.
		var intro []string
		var listed []mdBlock // the items of a list an introduction takes
		introduces := func(text string) bool {
			if i+1 >= len(blocks) {
				return false
			}
			if strings.HasSuffix(strings.TrimSpace(text), ":") {
				return blocks[i+1].kind != kindSentence || codeLine(blocks[i+1].lines)
			}
			// A paragraph of a few words over a code block is its label
			// ("jsoniter" over "go build -tags=jsoniter ."), as a
			// description ending in ":" is.
			return b.kind == kindSentence && blocks[i+1].kind == kindCode && len(strings.Fields(strings.Join(b.lines, " "))) <= maxLabelWords && !strings.HasSuffix(strings.TrimSpace(text), ".")
		}
		takeIntro := func() {
			nb := blocks[i+1]
			switch nb.kind {
			case kindItem:
				// A list: every item up to the next paragraph.
				for i+1 < len(blocks) && blocks[i+1].kind == kindItem {
					intro = append(intro, blocks[i+1].lines...)
					listed = append(listed, blocks[i+1])
					i++
				}
			default:
				intro = append(intro, nb.lines...)
				i++
			}
		}
		switch b.kind {
		case kindSentence:
			para++
			ss := sentences(strings.Join(b.lines, " "))
			for j, s := range ss {
				if linkOnly(s) {
					continue
				}
				if j == 0 {
					s = withoutAnswerLabel(s)
				}
				md := s
				if j > 0 && clauseOf(ss[j-1], s) {
					md = clauseMark + s
				}
				st := statement{kind: kindSentence, text: plainMD(s), md: []string{md}, para: para}
				if i+1 < len(blocks) && blocks[i+1].kind == kindCode && offersAction(s) {
					st.shows = blocks[i+1].lines
				}
				if para == 1 && len(ss) == 1 && !strings.HasSuffix(strings.TrimSpace(s), ":") {
					st.shows = numberedSteps(blocks[i+1:])
				}
				if j == len(ss)-1 && introduces(s) {
					takeIntro()
					st.block = intro
					for _, lb := range listed {
						st.subs = append(st.subs, plainMD(itemText(lb.lines)))
					}
				}
				out = append(out, st)
			}
			// The items of the list it introduces are statements too,
			// shown under it or on their own.
			// The list's own items are its top level, however far the
			// page indents it (" * explicit call to Set"): nested items
			// are those indented further.
			base := -1
			for _, lb := range listed {
				indent := len(lb.lines[0]) - len(strings.TrimLeft(lb.lines[0], " \t"))
				if base < 0 || indent < base {
					base = indent
				}
			}
			for _, lb := range listed {
				indent := len(lb.lines[0]) - len(strings.TrimLeft(lb.lines[0], " \t")) - base
				if indent == 0 {
					group++
				}
				out = append(out, statement{kind: kindItem, text: plainMD(itemText(lb.lines)), md: lb.lines, indent: indent, group: group, sub: true})
			}
		case kindItem:
			txt := itemText(b.lines)
			indent := len(b.lines[0]) - len(strings.TrimLeft(b.lines[0], " \t"))
			if indent == 0 {
				group++
			}
			if i == 0 || blocks[i-1].kind != kindItem {
				// A list no sentence introduces: its items, together.
				list = nil
				for j := i; j < len(blocks) && blocks[j].kind == kindItem; j++ {
					list = append(list, blocks[j].lines...)
				}
			}
			st := statement{kind: kindItem, text: plainMD(txt), md: b.lines, indent: indent, group: group, list: list}
			if introduces(txt) && blocks[i+1].kind != kindItem {
				takeIntro()
				st.block = intro
			}
			out = append(out, st)
		case kindRow:
			table++
			rows := b.lines
			var head []string
			if len(rows) >= 2 && isSeparatorRow(rows[1]) {
				head, rows = rows[:2], rows[2:]
			}
			for _, r := range rows {
				out = append(out, statement{kind: kindRow, text: plainMD(strings.ReplaceAll(r, "|", " ")), md: []string{r}, head: head, table: table, rows: rows})
			}
		case kindCode:
			out = append(out, statement{kind: kindCode, text: strings.Join(b.lines, " "), md: b.lines})
		}
	}
	return out
}

// flatStatements reads statements from a KU's stored text: paragraphs are
// split into sentences, and lines of a multi-line paragraph (list items,
// flattened code) are kept as they stand.
func flatStatements(body string) []statement {
	var out []statement
	for pi, p := range strings.Split(body, "\n\n") {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		if strings.Contains(p, "\n") {
			out = append(out, statement{kind: kindCode, text: p, md: append(append([]string{"```"}, strings.Split(p, "\n")...), "```"), para: pi + 1})
			continue
		}
		if isItem(p) {
			out = append(out, statement{kind: kindItem, text: plainMD(itemText([]string{p})), md: []string{p}})
			continue
		}
		for _, s := range sentences(p) {
			if linkOnly(s) {
				continue
			}
			out = append(out, statement{kind: kindSentence, text: plainMD(s), md: []string{s}, para: pi + 1})
		}
	}
	return out
}

// navRE is a list item that is only a link (a table of contents).
var navRE = regexp.MustCompile(`^\s*(?:[-*+]|\d+[.)])\s+\[[^\]]*\]\([^)]*\)\s*$`)

// urlRE finds a URL, bare or in angle brackets.
var urlRE = regexp.MustCompile(`<?https?://[^\s>]+>?`)

// linkOnly reports whether a sentence only points elsewhere ("More
// information: <https://...>."): a URL and at most three other words.
func linkOnly(s string) bool {
	if !urlRE.MatchString(s) {
		return false
	}
	return len(strings.Fields(urlRE.ReplaceAllString(s, ""))) <= 3
}

// cuFieldRE finds the field lines of a Context Unit block.
var cuFieldRE = regexp.MustCompile(`(?m)^\s*(?:Claim|Procedure|Topic):`)

// sentences splits a paragraph into sentences, keeping a parenthesis
// whole: a ";" inside one ends no sentence.
func sentences(p string) []string {
	var out []string
	carry := ""
	for _, s := range symbolic.Sentences(p) {
		if carry != "" {
			s = carry + " " + s
		}
		if strings.Count(s, "(") > strings.Count(s, ")") {
			carry = s
			continue
		}
		carry = ""
		out = append(out, s)
	}
	if carry != "" {
		out = append(out, carry)
	}
	return out
}

// isSeparatorRow reports whether a table line is the |---|---| row under
// the header.
func isSeparatorRow(r string) bool {
	return strings.Trim(r, "|-: ") == "" && strings.Contains(r, "-")
}
