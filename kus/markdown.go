package kus

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"

	ptext "github.com/mrpvm/mrpvm/plugin/text"
)

// Errors returned by Parse for input that is not Markdown text.
var (
	ErrNotUTF8 = errors.New("not valid UTF-8")
	ErrBinary  = errors.New("binary content (NUL bytes)")
)

// ReaderVersion names what Parse makes of a text. Raise it whenever the
// units read from the same text change (their ids, fields or ranges): a
// knowledge base whose KUs an earlier reader made is rebuilt on open, as
// its sources' sizes and times alone would not make them be read again.
const ReaderVersion = 2

// LeafCap is the size, in bytes of extracted text, above which a leaf is
// closed and the next block starts a new one. Blocks larger than this on
// their own are split along their children, lines or sentences.
const LeafCap = 2000

// leafMin is the size below which a leaf keeps absorbing following blocks
// even when that makes it exceed LeafCap slightly (never more than 2x).
const leafMin = 400

// summaryBodyCap bounds the text body of aggregate (summary, section) KUs.
const summaryBodyCap = 800

// markdown is the shared goldmark instance, its parsers wrapped by the
// guard (guard.go). goldmark parsers are safe for concurrent use once built.
var markdown = newMarkdown()

// Parse reads one Markdown source and returns its KU hierarchy: a source
// summary, one section per heading (following the heading tree) and leaves
// that group paragraphs, lists, tables, code blocks and block quotes.
// `## Context Unit <id>` blocks become KUs with the fields they declare.
// Problems in such blocks are reported as Diagnostics, not errors; Parse
// fails only for text that is not UTF-8 or contains NUL bytes.
func Parse(src []byte, info SourceInfo) (*Document, error) {
	return ParseContext(context.Background(), src, info)
}

// ParseContext is Parse that stops early when ctx is cancelled, returning
// ctx's error. Its cost in time and memory is linear in len(src) whatever
// the markup: markup past the guard's bounds is read as literal text and
// reported with a CodeTooComplex diagnostic.
func ParseContext(ctx context.Context, src []byte, info SourceInfo) (*Document, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("parse %s: %w", info.SourceID, err)
	}
	if bytes.IndexByte(src, 0) >= 0 {
		return nil, fmt.Errorf("parse %s: %w", info.SourceID, ErrBinary)
	}
	if !utf8.Valid(src) {
		return nil, fmt.Errorf("parse %s: %w", info.SourceID, ErrNotUTF8)
	}
	if info.SourceType == "" {
		info.SourceType = SourceMarkdown
	}
	if info.SourceName == "" {
		info.SourceName = info.SourceID
	}
	r := &reader{ctx: ctx, src: src, info: info, lines: newLineIndex(src), doc: &Document{Source: info}}
	if err := r.run(); err != nil {
		return nil, fmt.Errorf("parse %s: %w", info.SourceID, err)
	}
	return r.doc, nil
}

// reader holds the state of one Parse call.
type reader struct {
	ctx   context.Context
	src   []byte
	info  SourceInfo
	lines lineIndex
	doc   *Document

	summary  *KU
	sections []*section // every section in document order
	stack    []*section // open sections by heading level
	preamble *section   // content before the first heading

	chunkCount   int
	sectionCount int
	ids          map[string]bool
	byID         map[string]*section // plain sections by KU id
	firstPara    string              // first paragraph of the file, for the summary

	// topText holds the trimmed text of top-level blocks already extracted
	// (a section's first block is read again for its claim).
	topText map[ast.Node]string
	// memo remembers the last firstSentence and truncate results: the
	// summary, a section and its leaf often start with the same paragraph.
	memo     [4]memoEntry
	memoNext int
}

// memoEntry is one remembered firstSentence (trunc false) or truncate result.
type memoEntry struct {
	in    string
	max   int
	trunc bool
	out   string
}

// cached returns fn(in, max) from the memo or computes and remembers it.
func (r *reader) cached(in string, max int, trunc bool, fn func(string, int) string) string {
	for _, e := range r.memo {
		if e.max == max && e.trunc == trunc && len(e.in) == len(in) && e.in == in {
			return e.out
		}
	}
	out := fn(in, max)
	r.memo[r.memoNext] = memoEntry{in: in, max: max, trunc: trunc, out: out}
	r.memoNext = (r.memoNext + 1) % len(r.memo)
	return out
}

func (r *reader) firstSentence(text string, max int) string {
	return r.cached(text, max, false, firstSentence)
}

func (r *reader) truncate(text string, max int) string { return r.cached(text, max, true, truncate) }

// section is a heading with its direct content.
type section struct {
	ku     *KU
	level  int
	blocks []ast.Node
	start  int // byte offset of the heading
	end    int // byte offset just past the section's last content
	next   int // byte offset of the next heading of any level, or len(src)
	isCU   bool
}

// run builds r.doc; it fails only when r.ctx is cancelled.
func (r *reader) run() error {
	fmTitle, fmTags, bodyStart := r.readFrontMatter()
	r.doc.Tags = fmTags
	src := r.src
	if bodyStart > 0 {
		// Blank the front matter but keep its newlines so offsets and
		// line numbers stay those of the file.
		src = bytes.Clone(r.src)
		for i := 0; i < bodyStart; i++ {
			if src[i] != '\n' {
				src[i] = ' '
			}
		}
	}
	r.ids = map[string]bool{}
	r.byID = map[string]*section{}
	r.summary = &KU{
		ID:     r.info.SourceID + "::source-summary",
		KUType: TypeAggregate,
		Level:  LevelSummary,
		Role:   "Description",
	}
	r.addID(r.summary.ID)

	if line, deep := tooDeep(src); deep {
		r.diag(line, SeverityWarning, CodeTooDeep, fmt.Sprintf("nesting deeper than %d levels on many lines; the file is read as plain paragraphs", deepLevel))
		return r.runPlain(src, fmTitle)
	}
	if wrapped := wrappedLines(src); wrapped > wrapBudgetBase+len(src)/wrapBudgetPerByte {
		r.diag(1, SeverityWarning, CodeTooComplex, fmt.Sprintf("%d wrapped paragraph lines for %d bytes is more than the Markdown reader's budget; the file is read as plain paragraphs", wrapped, len(src)))
		return r.runPlain(src, fmTitle)
	}
	if lines := len(r.lines); lines > lineBudgetBase+len(src)/lineBudgetPerByte {
		r.diag(1, SeverityWarning, CodeTooComplex, fmt.Sprintf("%d lines for %d bytes is more than the Markdown reader's budget; the file is read as plain paragraphs", lines, len(src)))
		return r.runPlain(src, fmTitle)
	}
	g := newGuard(r.ctx, len(src))
	pc := parser.NewContext()
	pc.Set(guardKey, g)
	root := markdown.Parser().Parse(text.NewReader(src), parser.WithContext(pc))
	if err := r.ctx.Err(); err != nil {
		return err
	}
	if g.blocksLeft < 0 {
		root = nil // the partial tree is garbage from here on
		r.diag(1, SeverityWarning, CodeTooComplex, fmt.Sprintf("more than %d Markdown blocks for %d bytes is more than the reader's budget; the file is read as plain paragraphs", blockBudgetBase+len(src)/blockBudgetPerByte, len(src)))
		return r.runPlain(src, fmTitle)
	}
	if g.exhaustedAt >= 0 {
		r.diag(r.lines.line(g.exhaustedAt)+1, SeverityWarning, CodeTooComplex, fmt.Sprintf("more than %d inline markup nodes for %d bytes is more than the reader's budget; from here on markup is read as literal text", inlineBudgetBase+len(src)/inlineBudgetPerByte, len(src)))
	}

	maxLevel := r.sectionLevels(root)
	for n := root.FirstChild(); n != nil; n = n.NextSibling() {
		if h, ok := n.(*ast.Heading); ok && (h.Level <= maxLevel || isContextUnitHeading(h, r.src)) {
			r.openSection(h)
			continue
		}
		if len(r.stack) == 0 {
			if r.preamble == nil {
				r.preamble = &section{ku: r.summary}
			}
			r.preamble.blocks = append(r.preamble.blocks, n)
			continue
		}
		top := r.stack[len(r.stack)-1]
		top.blocks = append(top.blocks, n)
	}

	// Close section ranges: each section ends where the next heading of the
	// same or a higher level starts, or at the end of the file.
	r.closeSections()

	units := []*KU{r.summary}
	if r.preamble != nil {
		units = append(units, r.leaves(r.preamble, r.summary)...)
	}
	for _, s := range r.sections {
		if s.isCU {
			continue
		}
		units = append(units, s.ku)
		units = append(units, r.leaves(s, s.ku)...)
	}
	// Context Unit blocks come after plain sections in the unit list but are
	// children of the section or summary that encloses them.
	for _, s := range r.sections {
		if s.isCU {
			if ku := r.contextUnit(s); ku != nil {
				units = append(units, ku)
			}
		}
	}
	r.finishSummary(fmTitle)
	r.finishSections()
	byID := make(map[string]*KU, len(units))
	for _, u := range units {
		byID[u.ID] = u
	}
	for _, u := range units {
		if u.Level == LevelLeaf && u.Topic == "" && len(u.ParentUnitIDs) > 0 {
			if p := byID[u.ParentUnitIDs[0]]; p != nil && p.Level == LevelSection {
				u.Topic = p.Topic
			}
		}
		r.stamp(u)
	}
	sortChildren(units)
	sort.SliceStable(r.doc.Diagnostics, func(i, j int) bool { return r.doc.Diagnostics[i].Line < r.doc.Diagnostics[j].Line })
	r.doc.Units = units
	r.doc.Title = r.summary.Title
	return r.ctx.Err()
}

// diag records a diagnostic at the start of line.
func (r *reader) diag(line int, sev Severity, code, msg string) {
	r.doc.Diagnostics = append(r.doc.Diagnostics, Diagnostic{Line: line, Col: 1, Severity: sev, Code: code, Message: msg})
}

// runPlain reads src as plain paragraphs under the source summary, for
// files the Markdown parser is not given.
func (r *reader) runPlain(src []byte, fmTitle string) error {
	if err := r.ctx.Err(); err != nil {
		return err
	}
	r.preamble = &section{ku: r.summary}
	units := append([]*KU{r.summary}, r.group(plainPieces(src), r.preamble, r.summary)...)
	r.finishSummary(fmTitle)
	for _, u := range units {
		r.stamp(u)
	}
	r.doc.Units = units
	r.doc.Title = r.summary.Title
	return r.ctx.Err()
}

// SectionCap bounds the number of section KUs per source. A file with more
// headings keeps only its upper heading levels as sections (the deeper
// headings become leaf text), so a huge generated file cannot flood the
// knowledge base with millions of tiny KUs.
const SectionCap = 5000

// CodeTooManySections marks a file whose deeper headings were folded into leaves.
const CodeTooManySections = "md_too_many_sections"

// sectionLevels returns the deepest heading level that still becomes a
// section while keeping the section count within SectionCap.
func (r *reader) sectionLevels(root ast.Node) int {
	var perLevel [7]int
	first := 0
	for n := root.FirstChild(); n != nil; n = n.NextSibling() {
		if h, ok := n.(*ast.Heading); ok && h.Level >= 1 && h.Level <= 6 {
			perLevel[h.Level]++
			if first == 0 {
				first = n.Lines().Len()
			}
		}
	}
	total, maxLevel := 0, 0
	for l := 1; l <= 6; l++ {
		if total+perLevel[l] > SectionCap {
			break
		}
		total += perLevel[l]
		maxLevel = l
	}
	if maxLevel < 6 && total < perLevel[1]+perLevel[2]+perLevel[3]+perLevel[4]+perLevel[5]+perLevel[6] {
		r.doc.Diagnostics = append(r.doc.Diagnostics, Diagnostic{Line: 1, Col: 1, Severity: SeverityInfo, Code: CodeTooManySections,
			Message: fmt.Sprintf("more than %d headings: headings below level %d are kept as leaf text, not sections", SectionCap, maxLevel+1)})
	}
	return maxLevel
}

func isContextUnitHeading(h *ast.Heading, src []byte) bool {
	return strings.HasPrefix(strings.TrimSpace(inlineText(h, src)), "Context Unit")
}

func (r *reader) openSection(h *ast.Heading) {
	start, _ := r.extent(h)
	if start < 0 {
		start = r.posAfterPrevious(h)
	}
	start = r.lines.lineStartOf(start)
	title := strings.TrimSpace(inlineText(h, r.src))
	for len(r.stack) > 0 && r.stack[len(r.stack)-1].level >= h.Level {
		r.stack = r.stack[:len(r.stack)-1]
	}
	parent := r.summary
	if len(r.stack) > 0 {
		parent = r.stack[len(r.stack)-1].ku
	}
	s := &section{level: h.Level, start: start}
	if id, ok := strings.CutPrefix(title, "Context Unit"); ok && (id == "" || id[0] == ' ' || id[0] == '\t') {
		s.isCU = true
		s.ku = &KU{ID: strings.TrimSpace(id), ParentUnitIDs: []string{parent.ID}}
	} else {
		s.ku = &KU{
			ID:            r.info.SourceID + "::section-" + pad3(r.sectionCount),
			KUType:        TypeAggregate,
			Level:         LevelSection,
			Title:         title,
			ParentUnitIDs: []string{parent.ID},
		}
		r.sectionCount++
		r.addID(s.ku.ID)
		r.byID[s.ku.ID] = s
		parent.ChildUnitIDs = append(parent.ChildUnitIDs, s.ku.ID)
	}
	r.sections = append(r.sections, s)
	r.stack = append(r.stack, s)
}

func (r *reader) closeSections() {
	var open []*section
	for i, t := range r.sections {
		t.next = len(r.src)
		if i+1 < len(r.sections) {
			t.next = r.sections[i+1].start
		}
		for len(open) > 0 && open[len(open)-1].level >= t.level {
			open[len(open)-1].end = t.start
			open = open[:len(open)-1]
		}
		open = append(open, t)
	}
	for _, s := range open {
		s.end = len(r.src)
	}
}

func (r *reader) addID(id string) bool {
	if r.ids[id] {
		return false
	}
	r.ids[id] = true
	return true
}

// unit is a piece of a leaf: a block or part of one, with its text.
type unit struct {
	start, end int
	text       string
	kind       blockKind
}

type blockKind int

const (
	kindParagraph blockKind = 1 << iota
	kindList
	kindOrderedList
	kindCode
	kindTable
	kindQuote
	kindOther
)

// leaves groups a section's direct blocks into leaf KUs.
func (r *reader) leaves(s *section, parent *KU) []*KU {
	var pieces []unit
	for _, b := range s.blocks {
		pieces = r.appendUnits(pieces, b, 0)
	}
	return r.group(pieces, s, parent)
}

// group packs pieces into leaves of about LeafCap bytes.
func (r *reader) group(pieces []unit, s *section, parent *KU) []*KU {
	if len(pieces) == 0 {
		return nil
	}
	chunkIndex := r.chunkCount
	r.chunkCount++
	chunkID := r.info.SourceID + "::chunk-" + pad3(chunkIndex)

	var out []*KU
	var cur []unit
	size := 0
	flush := func() {
		if len(cur) == 0 {
			return
		}
		out = append(out, r.leafKU(cur, s, parent, chunkID, chunkIndex, len(out)))
		cur, size = nil, 0
	}
	for _, p := range pieces {
		n := len(p.text)
		if len(cur) > 0 && size+n > LeafCap && (size >= leafMin || size+n > 2*LeafCap) {
			// Keep an introducing paragraph ("...:") with the block it introduces.
			last := cur[len(cur)-1]
			if len(cur) > 1 && last.kind == kindParagraph && strings.HasSuffix(strings.TrimSpace(last.text), ":") && n+len(last.text) <= LeafCap {
				cur = cur[:len(cur)-1]
				size -= len(last.text)
				flush()
				cur, size = []unit{last}, len(last.text)
			} else {
				flush()
			}
		}
		cur = append(cur, p)
		size += n
	}
	flush()
	return out
}

// appendUnits adds the units of block n to dst, splitting blocks whose text
// is larger than LeafCap along their children, lines or sentences.
func (r *reader) appendUnits(dst []unit, n ast.Node, depth int) []unit {
	start, end := r.extent(n)
	if start < 0 {
		return dst
	}
	kind := kindOf(n)
	if end-start > LeafCap || depth > maxSplitDepth {
		switch {
		case depth > maxSplitDepth:
		case isLineSplittable(n):
			return r.splitLines(dst, n, kind)
		case n.HasChildren() && n.FirstChild().Type() == ast.TypeBlock:
			return r.appendChildren(dst, n, depth)
		}
	}
	t := strings.TrimSpace(blockTextSized(n, r.src, end-start))
	if depth == 0 {
		if r.topText == nil {
			r.topText = map[ast.Node]string{}
		}
		r.topText[n] = t
	}
	if t == "" {
		return dst
	}
	if len(t) > LeafCap && depth <= maxSplitDepth && n.HasChildren() && n.FirstChild().Type() == ast.TypeBlock {
		return r.appendChildren(dst, n, depth)
	}
	return appendSplitText(dst, unit{start: start, end: end, text: t, kind: kind})
}

// maxSplitDepth bounds how deep appendUnits descends into nested blocks.
const maxSplitDepth = 64

// appendSplitText adds u, cut into pieces of at most LeafCap bytes of text
// when it is larger; the pieces share u's source range.
func appendSplitText(dst []unit, u unit) []unit {
	for len(u.text) > LeafCap {
		cut := cutPointString(u.text, LeafCap)
		dst = append(dst, unit{start: u.start, end: u.end, text: strings.TrimSpace(u.text[:cut]), kind: u.kind})
		u.text = strings.TrimSpace(u.text[cut:])
	}
	if u.text != "" {
		dst = append(dst, u)
	}
	return dst
}

// cutPointString is cutPoint for a string starting at 0.
func cutPointString(s string, limit int) int {
	return cutPoint([]byte(s[:limit+1]), 0, limit)
}

func (r *reader) appendChildren(dst []unit, n ast.Node, depth int) []unit {
	before := len(dst)
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if c.Type() != ast.TypeBlock {
			// A block whose children are inline (a table cell): keep whole.
			start, end := r.extent(n)
			return appendSplitText(dst[:before], unit{start: start, end: end, text: strings.TrimSpace(blockText(n, r.src)), kind: kindOf(n)})
		}
		dst = r.appendUnits(dst, c, depth+1)
	}
	return dst
}

// isLineSplittable reports whether a block's own lines carry its text.
func isLineSplittable(n ast.Node) bool {
	switch n.Kind() {
	case ast.KindParagraph, ast.KindTextBlock, ast.KindFencedCodeBlock, ast.KindCodeBlock, ast.KindHTMLBlock:
		return true
	}
	return false
}

// splitLines splits a large leaf block into pieces of about LeafCap bytes at
// line boundaries, and very long lines at spaces.
func (r *reader) splitLines(dst []unit, n ast.Node, kind blockKind) []unit {
	before := len(dst)
	lines := n.Lines()
	pieceStart, pieceEnd := -1, -1
	emit := func() {
		if pieceStart >= 0 {
			if t := strings.TrimSpace(string(r.src[pieceStart:pieceEnd])); t != "" {
				// A piece of whole lines covers them from their start
				// (an indented code block's indentation, a quote's '>').
				from := pieceStart
				if ls := r.lines.lineStartOf(from); onlyContainerMarkup(r.src[ls:from]) {
					from = ls
				}
				dst = append(dst, unit{start: from, end: max(from, trimEnd(r.src, pieceEnd)), text: t, kind: kind})
			}
		}
		pieceStart, pieceEnd = -1, -1
	}
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		for seg.Start < seg.Stop {
			end := seg.Stop
			if end-seg.Start > LeafCap {
				end = cutPoint(r.src, seg.Start, seg.Start+LeafCap)
			}
			if pieceStart >= 0 && end-pieceStart > LeafCap {
				emit()
			}
			if pieceStart < 0 {
				pieceStart = seg.Start
			}
			pieceEnd = end
			seg.Start = end
		}
	}
	emit()
	// The first piece starts and the last ends where the block is written
	// (its opening and closing fences).
	if len(dst) > before {
		start, end := r.extent(n)
		dst[before].start = min(dst[before].start, start)
		dst[len(dst)-1].end = max(dst[len(dst)-1].end, end)
	}
	return dst
}

// cutPoint finds a place at or before limit (but after start) to cut text:
// after a sentence end, else after a space, else at a rune boundary.
func cutPoint(src []byte, start, limit int) int {
	lo := start + LeafCap/2
	for i := limit - 1; i > lo; i-- {
		if (src[i] == ' ' || src[i] == '\n') && i > 0 && (src[i-1] == '.' || src[i-1] == '!' || src[i-1] == '?') {
			return i + 1
		}
	}
	for i := limit - 1; i > lo; i-- {
		if src[i] == ' ' || src[i] == '\t' {
			return i + 1
		}
	}
	for i := limit; i > start; i-- {
		if utf8.RuneStart(src[i]) {
			return i
		}
	}
	return limit
}

func kindOf(n ast.Node) blockKind {
	switch v := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		return kindParagraph
	case *ast.List:
		if v.IsOrdered() {
			return kindOrderedList
		}
		return kindList
	case *ast.ListItem:
		if l, ok := v.Parent().(*ast.List); ok && l.IsOrdered() {
			return kindOrderedList
		}
		return kindList
	case *ast.FencedCodeBlock, *ast.CodeBlock:
		return kindCode
	case *extast.Table:
		return kindTable
	case *ast.Blockquote:
		return kindQuote
	}
	return kindOther
}

// leafKU builds a leaf from its pieces.
func (r *reader) leafKU(pieces []unit, s *section, parent *KU, chunkID string, chunkIndex, unitIndex int) *KU {
	var kinds blockKind
	for _, p := range pieces {
		kinds |= p.kind
	}
	body := ptext.JoinFunc(pieces, "\n\n", func(p unit) string { return p.text })
	title := parent.Title
	if s == r.preamble {
		title = ""
	}
	k := &KU{
		ID:            r.info.SourceID + "::" + strconv.Itoa(chunkIndex) + "::" + strconv.Itoa(unitIndex),
		KUType:        TypeComposite,
		Level:         LevelLeaf,
		Title:         title,
		TextBody:      body,
		ParentUnitIDs: []string{parent.ID},
		ChunkID:       chunkID,
		ChunkIndex:    chunkIndex,
		UnitIndex:     unitIndex,
		CharStart:     pieces[0].start,
		CharEnd:       pieces[len(pieces)-1].end,
	}
	if len(pieces) == 1 && pieces[0].kind == kindParagraph && sentenceCount(body) <= 2 {
		k.KUType = TypeAtomic
	}
	k.Role = classify(title, body, kinds)
	if k.Role == "Procedure" {
		k.Procedure = body
	} else {
		k.Claim = r.firstSentence(body, 300)
	}
	r.addID(k.ID)
	parent.ChildUnitIDs = append(parent.ChildUnitIDs, k.ID)
	if r.firstPara == "" && kinds&kindParagraph != 0 {
		for _, p := range pieces {
			if p.kind == kindParagraph {
				r.firstPara = p.text
				break
			}
		}
	}
	return k
}

// finishSummary fills the source summary once every section is known.
func (r *reader) finishSummary(fmTitle string) {
	s := r.summary
	title := fmTitle
	if title == "" {
		for _, sec := range r.sections {
			if !sec.isCU && sec.level == 1 && sec.ku.Title != "" {
				title = sec.ku.Title
				break
			}
		}
	}
	if title == "" {
		for _, sec := range r.sections {
			if !sec.isCU && sec.ku.Title != "" {
				title = sec.ku.Title
				break
			}
		}
	}
	if title == "" && r.firstPara != "" {
		title = r.firstSentence(r.firstPara, 120)
	}
	if title == "" {
		title = r.info.SourceName
	}
	s.Title = title
	s.Topic = title
	s.Tags = r.doc.Tags
	s.CharStart, s.CharEnd = 0, len(r.src)
	s.Claim = r.firstSentence(r.firstPara, 300)
	if s.Claim == "" {
		s.Claim = title
	}
	body := r.truncate(r.firstPara, summaryBodyCap)
	var heads []string
	for _, sec := range r.sections {
		if !sec.isCU && sec.ku.Title != "" && sec.ku.Title != title && len(heads) < 40 {
			heads = append(heads, sec.ku.Title)
		} else if sec.isCU && sec.ku.Topic != "" && len(heads) < 40 {
			heads = append(heads, sec.ku.Topic)
		}
	}
	s.TextBody = withCovers(body, heads)
}

// finishSections fills section aggregates from their content.
func (r *reader) finishSections() {
	byID := map[string]*section{}
	for _, s := range r.sections {
		if !s.isCU {
			byID[s.ku.ID] = s
		}
	}
	for _, s := range r.sections {
		if s.isCU {
			continue
		}
		k := s.ku
		k.CharStart, k.CharEnd = s.start, max(s.start, trimEnd(r.src, s.end))
		var own string
		for _, b := range s.blocks {
			t, ok := r.topText[b]
			if !ok {
				t = strings.TrimSpace(blockText(b, r.src))
			}
			if t != "" {
				own = t
				break
			}
		}
		path := []string{k.Title}
		for p := byID[k.ParentUnitIDs[0]]; p != nil; {
			path = append([]string{p.ku.Title}, path...)
			if len(p.ku.ParentUnitIDs) == 0 {
				break
			}
			p = byID[p.ku.ParentUnitIDs[0]]
		}
		k.Topic = strings.Join(path, " > ")
		k.Claim = r.firstSentence(own, 300)
		if k.Claim == "" {
			k.Claim = k.Title
		}
		body := r.truncate(own, summaryBodyCap)
		var subs []string
		for _, c := range k.ChildUnitIDs {
			if cs := byID[c]; cs != nil && cs.ku.Title != "" {
				subs = append(subs, cs.ku.Title)
			}
		}
		k.TextBody = withCovers(body, subs)
		k.Role = classify(k.Title, own, 0)
	}
}

// withCovers appends "Covers: a; b." (the sub-headings) to an aggregate's body.
func withCovers(body string, heads []string) string {
	if len(heads) == 0 {
		return body
	}
	var b strings.Builder
	b.WriteString(body)
	if len(body) > 0 {
		b.WriteString("\n\n")
	}
	b.WriteString("Covers: ")
	b.WriteString(strings.Join(heads, "; "))
	b.WriteString(".")
	return b.String()
}

// pad3 is fmt.Sprintf("%03d", n) for n >= 0.
func pad3(n int) string {
	s := strconv.Itoa(n)
	for len(s) < 3 {
		s = "0" + s
	}
	return s
}

// stamp sets provenance, utility defaults, ranges and the hash.
func (r *reader) stamp(k *KU) {
	if k.SourceID == "" {
		k.SourceID = r.info.SourceID
	}
	k.SourceName = r.info.SourceName
	k.SourceType = r.info.SourceType
	k.IngestedAt = r.info.IngestedAt
	if k.ChunkID == "" && k.Level != LevelLeaf {
		k.ChunkID = k.ID
	}
	if k.Topic == "" {
		k.Topic = k.Title
		if k.Topic == "" {
			k.Topic = r.summary.Title
		}
	}
	if k.Title == "" {
		k.Title = k.Topic
	}
	if len(k.UtilityActs) == 0 {
		k.UtilityActs = ActsForRole(k.Role)
	}
	if len(k.PhaseScopes) == 0 {
		k.PhaseScopes = []string{"kb-plugin"}
	}
	k.Range = r.lines.rangeOf(r.src, k.CharStart, k.CharEnd)
	k.Hash = HashKU(k)
}

// span returns the byte range covered by a block node and its descendants,
// or (-1, -1) when it covers no source text (an empty list item, a break).
func (r *reader) span(n ast.Node) (start, end int) {
	start, end = -1, -1
	// Iterative walk over descendants: nesting may be thousands deep.
	stack := []ast.Node{n}
	for len(stack) > 0 {
		cur := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if cur.Type() == ast.TypeBlock {
			if l := cur.Lines(); l.Len() > 0 {
				s, e := l.At(0).Start, l.At(l.Len()-1).Stop
				if start < 0 || s < start {
					start = s
				}
				if e > end {
					end = e
				}
			}
			if fc, ok := cur.(*ast.FencedCodeBlock); ok && fc.Info != nil {
				if s := fc.Info.Segment.Start; start < 0 || s < start {
					start = s
				}
			}
		}
		for c := cur.FirstChild(); c != nil; c = c.NextSibling() {
			if c.Type() == ast.TypeBlock {
				stack = append(stack, c)
			}
		}
	}
	if start >= 0 {
		if t, ok := n.(*ast.Heading); ok && t.Lines().Len() == 0 {
			return start, end
		}
	}
	return start, end
}

// trimEnd moves end back over trailing whitespace.
func trimEnd(src []byte, end int) int {
	for end > 0 && (src[end-1] == '\n' || src[end-1] == '\r' || src[end-1] == ' ' || src[end-1] == '\t') {
		end--
	}
	return end
}

// sortChildren puts every unit's children in document order.
func sortChildren(units []*KU) {
	start := make(map[string]int, len(units))
	for _, u := range units {
		start[u.ID] = u.CharStart
	}
	for _, u := range units {
		if len(u.ChildUnitIDs) > 1 {
			sort.SliceStable(u.ChildUnitIDs, func(i, j int) bool {
				return start[u.ChildUnitIDs[i]] < start[u.ChildUnitIDs[j]]
			})
		}
	}
}

// CodeTooDeep marks a file whose nesting is too deep to parse as Markdown in
// reasonable time; it is read as plain paragraphs instead.
const CodeTooDeep = "md_too_deep"

// deepLevel and deepLines bound nesting: more than deepLines lines nested
// deeper than deepLevel make Markdown parsing superlinear (each line is
// matched against every open block), so such files are read as plain text.
const (
	deepLevel = 64
	deepLines = 64
)

// tooDeep reports whether src nests too deep for Markdown parsing, and the
// first offending line.
func tooDeep(src []byte) (int, bool) {
	count, first, line := 0, 0, 1
	for i := 0; i < len(src); {
		depth, width := 0, 0
		j := i
	prefix:
		for ; j < len(src); j++ {
			switch c := src[j]; c {
			case ' ':
				width++
			case '\t':
				width += 4
			case '>':
				depth++
			case '-', '*', '+':
				if j+1 < len(src) && (src[j+1] == ' ' || src[j+1] == '\t') {
					depth++
				} else {
					break prefix
				}
			default:
				break prefix
			}
		}
		depth += width / 2
		if depth > deepLevel {
			if count == 0 {
				first = line
			}
			count++
			if count > deepLines {
				return first, true
			}
		}
		k := bytes.IndexByte(src[j:], '\n')
		if k < 0 {
			break
		}
		i = j + k + 1
		line++
	}
	return 0, false
}

// plainPieces splits text into paragraphs at blank lines, for files read as
// plain text. Consecutive short paragraphs are packed into one piece of up
// to leafMin bytes, so a file of tiny paragraphs costs a few times its size.
func plainPieces(src []byte) []unit {
	var out []unit
	var buf []byte
	start, pieceStart, pieceEnd := -1, -1, 0
	flush := func() {
		if len(buf) > 0 {
			out = appendSplitText(out, unit{start: pieceStart, end: pieceEnd, text: string(buf), kind: kindParagraph})
		}
		buf, pieceStart = buf[:0], -1
	}
	emit := func(end int) {
		if start < 0 {
			return
		}
		para := src[start:end]
		start = -1
		if len(bytes.TrimSpace(para)) == 0 {
			return
		}
		if pieceStart >= 0 && len(buf)+len(para) > leafMin {
			flush()
		}
		if pieceStart < 0 {
			pieceStart = end - len(para)
		} else {
			buf = append(buf, "\n\n"...)
		}
		buf = appendFields(buf, para)
		pieceEnd = trimEnd(src, end)
	}
	for i := 0; i < len(src); {
		k := bytes.IndexByte(src[i:], '\n')
		end := len(src)
		if k >= 0 {
			end = i + k
		}
		if len(bytes.TrimSpace(src[i:end])) == 0 {
			emit(i)
		} else if start < 0 {
			start = i
		}
		if k < 0 {
			break
		}
		i = end + 1
	}
	emit(len(src))
	flush()
	return out
}

// appendFields appends the words of p (ASCII-whitespace separated) to buf,
// separated by single spaces: strings.Join(strings.Fields(p), " ") without
// the slice of words.
func appendFields(buf, p []byte) []byte {
	space := false
	for _, c := range p {
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' {
			space = true
			continue
		}
		if space && len(buf) > 0 && buf[len(buf)-1] != '\n' {
			buf = append(buf, ' ')
		}
		space = false
		buf = append(buf, c)
	}
	return buf
}

// posAfterPrevious estimates where a node without source lines (an empty
// heading) starts: on the line after the previous block with text.
func (r *reader) posAfterPrevious(n ast.Node) int {
	for p := n.PreviousSibling(); p != nil; p = p.PreviousSibling() {
		if _, end := r.extent(p); end >= 0 {
			if i := bytes.IndexByte(r.src[end:], '\n'); i >= 0 && end+i+1 < len(r.src) {
				return end + i + 1
			}
			return end
		}
	}
	return 0
}
