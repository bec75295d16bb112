package kus

import (
	"bytes"
	"context"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// goldmark's parser has three paths whose cost grows faster than its input,
// all reachable from a single file under the ingest size cap:
//
//   - emphasis: every closing delimiter scans back over every earlier
//     delimiter of its block (no "openers bottom"), so a paragraph of
//     `*a_*a_...` costs the square of its delimiter count;
//   - links: every `](` scans forward for the destination to the end of the
//     line, so a line of `[a](` repeated costs the square of its length;
//   - nesting: each container opened on one line measures its column from
//     the line start, so `> > > ...` or `1. 1. 1. ...` on one line costs
//     the square of its depth, and link reference definitions re-read the
//     rest of their paragraph once per definition.
//
// The guard below wraps goldmark's own parsers and stops feeding these paths
// past fixed per-block bounds (the excess markup is read as literal text,
// which only changes which punctuation appears in a KU's text), and bounds
// the inline markup nodes of a whole file by its size so memory stays a
// constant multiple of the input. It also makes a parse stop early when its
// context is cancelled: every wrapped parser then declines, and goldmark
// finishes in one linear pass over what is left.
const (
	// blockDelimiterCap bounds emphasis and strikethrough delimiter runs per
	// block: the delimiter matching costs at most its square per block.
	blockDelimiterCap = 64
	// destScanFactor and destScanBase bound the bytes the `](` link
	// destination scans of a block may read: destScanBase plus
	// destScanFactor times the block's size. A scan is charged the bytes
	// goldmark's destination parser reads (destScanCost), which it reads
	// slowly: a block's destinations are part of it, so twice its size is
	// room for every real link and a failed attempt or two.
	destScanFactor = 2
	destScanBase   = 4096
	// blockLabelCap bounds `[` and `![` link openers per block.
	blockLabelCap = 256
	// nestCap bounds how deep block quotes and list items nest; deeper
	// markers are read as text of the innermost container.
	nestCap = 64
	// refDefLineCap is the paragraph length, in lines, above which its
	// leading link reference definitions are not extracted.
	refDefLineCap = 256
	// inlineBudgetBase and inlineBudgetPerByte set how many inline markup
	// nodes a file may create: base + len(src)/perByte.
	inlineBudgetBase    = 1024
	inlineBudgetPerByte = 48
	// blockBudgetBase and blockBudgetPerByte bound the blocks a file may
	// open; past them the whole file is read as plain paragraphs (goldmark
	// keeps a few hundred bytes per block, so a file of tiny blocks would
	// otherwise cost hundreds of times its size).
	blockBudgetBase    = 1024
	blockBudgetPerByte = 32
	// lineBudgetBase and lineBudgetPerByte bound the lines of a file parsed
	// as Markdown; past them it is read as plain paragraphs.
	lineBudgetBase    = 2048
	lineBudgetPerByte = 16
	// wrapBudgetBase and wrapBudgetPerByte bound the wrapped lines of
	// paragraphs (a line continuing the paragraph of the line before, code
	// blocks aside): goldmark keeps a text node of a few hundred bytes per
	// such line, so past one per 32 bytes a file would cost more than 20
	// times its size; such a file is read as plain paragraphs.
	wrapBudgetBase    = 1024
	wrapBudgetPerByte = 32
)

// CodeTooComplex marks a file with more markup than the reader's budget: the
// markup past the budget is read as literal text.
const CodeTooComplex = "md_too_complex"

type inlineKind uint8

const (
	inlineOther     inlineKind = iota // code spans, autolinks, raw HTML, task boxes
	inlineDelimiter                   // emphasis and strikethrough runs
	inlineLink                        // [ ! ]
)

// guard is the per-parse state shared by the wrapped parsers through the
// goldmark parser.Context.
type guard struct {
	ctx       context.Context
	cancelled bool
	calls     int
	// inlineLeft is the number of inline markup nodes the file may still create.
	inlineLeft int
	// exhaustedAt is the source offset where the inline budget ran out, or -1.
	exhaustedAt int
	// blocksLeft is the number of blocks the file may still open; below
	// zero the parse was abandoned.
	blocksLeft int

	block                ast.Node // block whose counters follow
	delims, labels       int
	destBytes, destLimit int
}

var guardKey = parser.NewContextKey()

func newGuard(ctx context.Context, size int) *guard {
	return &guard{ctx: ctx, inlineLeft: inlineBudgetBase + size/inlineBudgetPerByte, exhaustedAt: -1,
		blocksLeft: blockBudgetBase + size/blockBudgetPerByte}
}

// stopped reports whether the parse was cancelled, checking the context
// every 256 calls (cheap enough for a per-trigger hook).
func (g *guard) stopped() bool {
	if g.cancelled {
		return true
	}
	g.calls++
	if g.calls&255 == 0 && g.ctx.Err() != nil {
		g.cancelled = true
	}
	return g.cancelled
}

func guardOf(pc parser.Context) *guard {
	g, _ := pc.Get(guardKey).(*guard)
	return g
}

// allowInline decides whether the wrapped inline parser may run at the
// current position of block, inside the block parent.
func (g *guard) allowInline(kind inlineKind, parent ast.Node, block text.Reader) bool {
	if g.stopped() || g.blocksLeft < 0 {
		return false
	}
	if g.inlineLeft <= 0 {
		return false
	}
	if parent != g.block {
		g.block, g.delims, g.labels, g.destBytes = parent, 0, 0, 0
		g.destLimit = destScanBase + destScanFactor*blockSize(parent)
	}
	switch kind {
	case inlineDelimiter:
		if g.delims >= blockDelimiterCap {
			return false
		}
		g.delims++
	case inlineLink:
		line, _ := block.PeekLine()
		if len(line) > 0 && line[0] == ']' {
			if len(line) > 1 && line[1] == '(' {
				cost := destScanCost(line, g.destLimit-g.destBytes+1)
				if g.destBytes+cost > g.destLimit {
					return false
				}
				g.destBytes += cost
			}
		} else {
			if g.labels >= blockLabelCap {
				return false
			}
			g.labels++
		}
	}
	g.inlineLeft--
	if g.inlineLeft == 0 {
		_, seg := block.Position()
		g.exhaustedAt = seg.Start
	}
	return true
}

// blockSize is the number of source bytes in a block's lines.
func blockSize(n ast.Node) int {
	size := 0
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		size += seg.Stop - seg.Start
	}
	return size
}

// guardedInline runs an inline parser only while the guard allows it.
type guardedInline struct {
	parser.InlineParser
	kind inlineKind
}

func (w *guardedInline) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	if g := guardOf(pc); g != nil && !g.allowInline(w.kind, parent, block) {
		return nil
	}
	return w.InlineParser.Parse(parent, block, pc)
}

// guardedCloser is guardedInline for parsers that clean up at block end
// (the link parser turns unmatched openers back into text there).
type guardedCloser struct{ guardedInline }

func (w *guardedCloser) CloseBlock(parent ast.Node, block text.Reader, pc parser.Context) {
	w.InlineParser.(parser.CloseBlocker).CloseBlock(parent, block, pc)
}

func guardInline(p parser.InlineParser, kind inlineKind) parser.InlineParser {
	if _, ok := p.(parser.CloseBlocker); ok {
		return &guardedCloser{guardedInline{p, kind}}
	}
	return &guardedInline{p, kind}
}

// guardedBlock declines to open blocks once the parse is cancelled (goldmark
// then stops reading), and caps container nesting when nests is set.
type guardedBlock struct {
	parser.BlockParser
	nests bool
}

func (w *guardedBlock) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	g := guardOf(pc)
	if g == nil {
		return w.BlockParser.Open(parent, reader, pc)
	}
	if g.stopped() || g.blocksLeft < 0 {
		return nil, parser.NoChildren
	}
	if w.nests && nestDepth(parent) >= nestCap {
		return nil, parser.NoChildren
	}
	n, st := w.BlockParser.Open(parent, reader, pc)
	if n != nil {
		g.blocksLeft--
	}
	return n, st
}

func (w *guardedBlock) Continue(node ast.Node, reader text.Reader, pc parser.Context) parser.State {
	if g := guardOf(pc); g != nil && (g.cancelled || g.blocksLeft < 0) {
		return parser.Close
	}
	return w.BlockParser.Continue(node, reader, pc)
}

// nestDepth counts the block quotes and list items enclosing n, stopping
// past nestCap.
func nestDepth(n ast.Node) int {
	d := 0
	for ; n != nil && d <= nestCap; n = n.Parent() {
		switch n.Kind() {
		case ast.KindBlockquote, ast.KindListItem:
			d++
		}
	}
	return d
}

// guardedRefDefs skips link reference definitions in very long paragraphs.
type guardedRefDefs struct{ parser.ParagraphTransformer }

func (w *guardedRefDefs) Transform(node *ast.Paragraph, reader text.Reader, pc parser.Context) {
	if node.Lines().Len() > refDefLineCap {
		return
	}
	if g := guardOf(pc); g != nil && g.stopped() {
		return
	}
	w.ParagraphTransformer.Transform(node, reader, pc)
}

// newMarkdown builds the goldmark instance: CommonMark with tables,
// strikethrough and task lists, every parser wrapped by the guard.
func newMarkdown() goldmark.Markdown {
	var blocks []util.PrioritizedValue
	for _, v := range parser.DefaultBlockParsers() {
		bp := v.Value.(parser.BlockParser)
		blocks = append(blocks, util.Prioritized(&guardedBlock{BlockParser: bp, nests: isContainerParser(bp)}, v.Priority))
	}
	var inlines []util.PrioritizedValue
	for _, v := range parser.DefaultInlineParsers() {
		ip := v.Value.(parser.InlineParser)
		inlines = append(inlines, util.Prioritized(guardInline(ip, inlineKindOf(ip)), v.Priority))
	}
	inlines = append(inlines,
		util.Prioritized(guardInline(extension.NewStrikethroughParser(), inlineDelimiter), 500),
		util.Prioritized(guardInline(extension.NewTaskCheckBoxParser(), inlineOther), 0))
	var paras []util.PrioritizedValue
	for _, v := range parser.DefaultParagraphTransformers() {
		pt := v.Value.(parser.ParagraphTransformer)
		if pt == parser.LinkReferenceParagraphTransformer {
			pt = &guardedRefDefs{pt}
		}
		paras = append(paras, util.Prioritized(pt, v.Priority))
	}
	p := parser.NewParser(parser.WithBlockParsers(blocks...), parser.WithInlineParsers(inlines...), parser.WithParagraphTransformers(paras...))
	return goldmark.New(goldmark.WithParser(p), goldmark.WithExtensions(extension.Table))
}

// isContainerParser reports whether bp opens block quotes or lists (the
// parsers triggered by '>' or by ordered-list digits).
func isContainerParser(bp parser.BlockParser) bool {
	for _, c := range bp.Trigger() {
		if c == '>' || c >= '0' && c <= '9' {
			return true
		}
	}
	return false
}

func inlineKindOf(ip parser.InlineParser) inlineKind {
	for _, c := range ip.Trigger() {
		switch c {
		case '*', '_', '~':
			return inlineDelimiter
		case '[', ']', '!':
			return inlineLink
		}
	}
	return inlineOther
}

// wrappedLines counts the lines of src that continue a paragraph begun on
// the line before, outside fenced and indented code blocks.
func wrappedLines(src []byte) int {
	n, prevText, fence := 0, false, false
	for line := range bytes.SplitSeq(src, []byte("\n")) {
		t := bytes.TrimLeft(line, " ")
		switch {
		case bytes.HasPrefix(t, []byte("```")) || bytes.HasPrefix(t, []byte("~~~")):
			fence = !fence
			prevText = false
		case fence || len(bytes.TrimSpace(line)) == 0 || len(line)-len(t) >= 4 || (len(line) > 0 && line[0] == '\t'):
			prevText = false
		default:
			if prevText {
				n++
			}
			prevText = true
		}
	}
	return n
}

// destScanCost is how many bytes goldmark's link-destination parser reads
// after the "](" that starts line: to a '>' for a <...> destination, else
// to the ')' that closes the parentheses opened in the destination, a
// space or control byte, or the end of the line. It reads at most limit
// bytes and then answers limit, so pricing a scan costs no more than the
// budget it is charged against.
func destScanCost(line []byte, limit int) int {
	rest := line[2:]
	if len(rest) > limit {
		rest = rest[:limit]
	}
	if len(rest) > 0 && rest[0] == '<' {
		if i := bytes.IndexByte(rest, '>'); i >= 0 {
			return i + 1
		}
		return len(rest)
	}
	depth := 0
	for i := 0; i < len(rest); i++ {
		switch c := rest[i]; {
		case c == '\\':
			i++
		case c == '(':
			depth++
		case c == ')':
			if depth == 0 {
				return i + 1
			}
			depth--
		case c <= ' ':
			return i + 1
		}
	}
	return len(rest)
}
