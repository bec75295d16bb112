package kus

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"
)

// blockText extracts the readable text of a block: inline text without
// markup, list items prefixed with "- " or "N. ", code and HTML verbatim,
// table cells separated by " | ", blocks separated by newlines.
func blockText(n ast.Node, src []byte) string {
	size := 0
	if l := n.Lines(); l.Len() > 0 {
		size = l.At(l.Len()-1).Stop - l.At(0).Start
	}
	return blockTextSized(n, src, size)
}

// blockTextSized is blockText with a guess of the text's size.
func blockTextSized(n ast.Node, src []byte, size int) string {
	var b strings.Builder
	if size > 0 {
		b.Grow(size + 16)
	}
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			switch c.(type) {
			case *extast.TableRow, *extast.TableHeader:
				b.WriteByte('\n')
			}
			return ast.WalkContinue, nil
		}
		switch v := c.(type) {
		case *ast.Text:
			b.Write(v.Segment.Value(src))
			if v.HardLineBreak() {
				b.WriteByte('\n')
			} else if v.SoftLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(v.Value)
		case *ast.AutoLink:
			b.Write(v.URL(src))
			return ast.WalkSkipChildren, nil
		case *ast.RawHTML:
			return ast.WalkSkipChildren, nil
		case *ast.FencedCodeBlock, *ast.CodeBlock, *ast.HTMLBlock:
			newline(&b)
			lines := c.Lines()
			for i := 0; i < lines.Len(); i++ {
				seg := lines.At(i)
				b.Write(seg.Value(src))
			}
			return ast.WalkSkipChildren, nil
		case *ast.ListItem:
			newline(&b)
			if l, ok := v.Parent().(*ast.List); ok && l.IsOrdered() {
				idx := l.Start
				for p := v.PreviousSibling(); p != nil; p = p.PreviousSibling() {
					idx++
				}
				b.WriteString(strconv.Itoa(idx))
				b.WriteString(". ")
			} else {
				b.WriteString("- ")
			}
		case *extast.TableCell:
			if c.PreviousSibling() != nil {
				b.WriteString(" | ")
			}
		case *ast.Paragraph, *ast.Heading, *ast.TextBlock, *ast.Blockquote, *ast.List:
			if _, inItem := c.Parent().(*ast.ListItem); inItem && c.PreviousSibling() == nil {
				break // the item's marker already started the line
			}
			if c.PreviousSibling() != nil || c != n {
				newline(&b)
			}
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// inlineText is the plain text of an inline container such as a heading.
func inlineText(n ast.Node, src []byte) string { return blockText(n, src) }

func newline(b *strings.Builder) {
	if b.Len() == 0 {
		return
	}
	s := b.String()
	if s[len(s)-1] != '\n' {
		b.WriteByte('\n')
	}
}

// lineIndex maps byte offsets to 1-based lines and columns.
// Offsets are int32 and the slice is sized exactly: a file of short lines
// must not cost many times its size (inputs are far below 2 GiB).
type lineIndex []int32 // byte offset of the start of each line

func newLineIndex(src []byte) lineIndex {
	idx := make(lineIndex, 1, bytes.Count(src, []byte{'\n'})+1)
	for i := 0; ; {
		j := bytes.IndexByte(src[i:], '\n')
		if j < 0 {
			return idx
		}
		i += j + 1
		idx = append(idx, int32(i))
	}
}

// line returns the 0-based line holding offset off.
func (l lineIndex) line(off int) int {
	if off <= 0 {
		return 0
	}
	return sort.Search(len(l), func(i int) bool { return int(l[i]) > off }) - 1
}

func (l lineIndex) lineStartOf(off int) int { return int(l[l.line(off)]) }

// rangeOf converts the byte range [start, end) to a Range. Columns count bytes.
func (l lineIndex) rangeOf(src []byte, start, end int) Range {
	if start < 0 {
		start = 0
	}
	if end < start {
		end = start
	}
	if end > len(src) {
		end = len(src)
	}
	sl := l.line(start)
	last := end - 1
	if last < start {
		last = start
	}
	el := l.line(last)
	return Range{StartLine: sl + 1, StartCol: start - int(l[sl]) + 1, EndLine: el + 1, EndCol: end - int(l[el]) + 1}
}

// firstSentence returns the first sentence of text, at most max bytes long
// (cut at a word boundary with an ellipsis).
func firstSentence(text string, max int) string {
	text = strings.TrimSpace(text)
	text = strings.TrimLeft(text, "-*+> \t")
	if text == "" {
		return ""
	}
	end := len(text)
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c == '\n' && i+1 < len(text) && text[i+1] == '\n' {
			end = i
			break
		}
		if (c == '.' || c == '!' || c == '?') && (i+1 == len(text) || text[i+1] == ' ' || text[i+1] == '\n') {
			// Skip common abbreviations and decimals such as "e.g." or "v1.2".
			if c == '.' && isAbbrev(text[:i]) {
				continue
			}
			end = i + 1
			break
		}
		if i > max*2 {
			break
		}
	}
	// A copy: a substring would keep the whole text alive as long as the
	// sentence (a plugin may hold on to claims).
	return strings.Clone(truncate(joinFields(text[:end]), max))
}

// joinFields is strings.Join(strings.Fields(s), " "), returning s itself
// when its words are already separated by single spaces.
func joinFields(s string) string {
	space := true // a space here would start or double a separator
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch c {
			case ' ':
				if space {
					return strings.Join(strings.Fields(s), " ")
				}
				space = true
			case '\t', '\n', '\v', '\f', '\r':
				return strings.Join(strings.Fields(s), " ")
			default:
				space = false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if unicode.IsSpace(r) {
			return strings.Join(strings.Fields(s), " ")
		}
		space = false
		i += size
	}
	if space && len(s) > 0 { // a trailing space
		return strings.Join(strings.Fields(s), " ")
	}
	return s
}

func isAbbrev(before string) bool {
	w := before
	if i := strings.LastIndexAny(before, " \n(\t"); i >= 0 {
		w = before[i+1:]
	}
	switch strings.ToLower(w) {
	case "e.g", "i.e", "etc", "vs", "cf", "fig", "al", "dr", "mr", "mrs", "ms", "no", "st":
		return true
	}
	return len(w) == 1 && unicode.IsUpper(rune(w[0]))
}

// sentenceCount estimates the number of sentences in text.
func sentenceCount(text string) int {
	n := 0
	for i := 0; i < len(text); i++ {
		c := text[i]
		if (c == '.' || c == '!' || c == '?') && (i+1 == len(text) || text[i+1] == ' ' || text[i+1] == '\n') {
			n++
		}
	}
	if n == 0 && strings.TrimSpace(text) != "" {
		n = 1
	}
	return n
}

// truncate shortens s to at most max bytes at a word boundary, adding "…".
func truncate(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	if i := strings.LastIndexAny(s[:cut], " \n\t"); i > max/2 {
		cut = i
	}
	return strings.TrimSpace(s[:cut]) + "…"
}

// actsByRole derives utility acts from a KU's role: the intent acts a unit
// of that role serves (docs/contracts.md, Knowledge Units).
var actsByRole = map[string][]string{
	"Comparison":  {"compare", "evaluate"},
	"Explanation": {"explain", "describe"},
	"Procedure":   {"implement"},
	"Definition":  {"define", "identify"},
	"Evaluation":  {"evaluate", "recommend"},
	"Diagnostic":  {"diagnose", "verify"},
	"Constraint":  {"verify"},
	"Narrative":   {"explain", "describe"},
	"Description": {"describe", "identify"},
}

// ActsForRole returns the utility acts a KU of the given role serves when it
// declares none; unknown roles serve "describe".
func ActsForRole(role string) []string {
	if a, ok := actsByRole[role]; ok {
		return append([]string(nil), a...)
	}
	return []string{"describe"}
}

// classify picks a role for text under a heading from cheap cues: block
// kinds, heading words and the opening of the text.
func classify(title, text string, kinds blockKind) string {
	var tbuf, hbuf [256]byte
	lt := lowerASCII(tbuf[:0], title)
	head := text
	if len(head) > 240 {
		head = head[:240]
	}
	lh := lowerASCII(hbuf[:0], head)
	t := titleCues.match(lt)
	h := headCues.match(lh)
	switch {
	case t&cueProcedure != 0,
		kinds&kindOrderedList != 0,
		kinds&kindCode != 0 && kinds&^(kindCode|kindParagraph) == 0 && strings.HasSuffix(strings.TrimSpace(firstSentence(text, 400)), ":"):
		return "Procedure"
	case t&cueComparison != 0, h&cueComparison != 0:
		return "Comparison"
	case t&cueDiagnostic != 0, h&cueDiagnostic != 0:
		return "Diagnostic"
	case t&cueDefinition != 0, isDefinition(lh):
		return "Definition"
	case t&cueConstraint != 0, h&cueConstraint != 0:
		return "Constraint"
	case t&cueEvaluation != 0:
		return "Evaluation"
	case t&cueExplanation != 0, h&cueExplanation != 0:
		return "Explanation"
	}
	return "Description"
}

// Cue groups of classify, one bit each.
const (
	cueProcedure uint8 = 1 << iota
	cueComparison
	cueDiagnostic
	cueDefinition
	cueConstraint
	cueEvaluation
	cueExplanation
)

// titleCues and headCues are the words classify looks for in a lower-case
// heading and in the lower-case opening of the text.
var (
	titleCues = newCueSet(map[uint8][]string{
		cueProcedure: {"how to", "install", "setup", "set up", "steps", "getting started", "quick start", "quickstart",
			"usage", "tutorial", "build", "configure", "procedure"},
		cueComparison:  {" vs", "versus", "compar", "difference", "trade-off", "tradeoff", "alternatives"},
		cueDiagnostic:  {"error", "troubleshoot", "problem", "debug", "fix", "issue", "faq", "pitfall"},
		cueDefinition:  {"definition", "what is", "glossary", "terminology", "concept"},
		cueConstraint:  {"rule", "constraint", "requirement", "limit", "policy"},
		cueEvaluation:  {"evaluat", "benchmark", "performance", "result", "measure"},
		cueExplanation: {"why", "how it works", "overview", "architecture", "design", "background", "introduction"},
	})
	headCues = newCueSet(map[uint8][]string{
		cueComparison:  {" versus ", "compared to", "compared with", " whereas "},
		cueDiagnostic:  {"fails", "error:", "if you see", "crash"},
		cueConstraint:  {" must ", " must not ", " never ", " is required", " are required", " should not "},
		cueExplanation: {" because ", " therefore ", " so that ", " which means "},
	})
)

// cueSet finds which groups of words occur in a text in one pass over it
// (instead of one substring search per word).
type cueSet struct {
	bucket  [1 << 16]uint8 // first two bytes of a word -> 1 + index in cues
	buckets [][]cue
}

type cue struct {
	word  string // at least two bytes
	group uint8
}

func newCueSet(groups map[uint8][]string) *cueSet {
	cs := &cueSet{}
	for g, words := range groups {
		for _, w := range words {
			k := uint16(w[0])<<8 | uint16(w[1])
			if cs.bucket[k] == 0 {
				cs.buckets = append(cs.buckets, nil)
				cs.bucket[k] = uint8(len(cs.buckets))
			}
			b := cs.bucket[k] - 1
			cs.buckets[b] = append(cs.buckets[b], cue{word: w, group: g})
		}
	}
	return cs
}

// match returns the groups with a word occurring in s.
func (cs *cueSet) match(s []byte) uint8 {
	var m uint8
	for i := 0; i+1 < len(s); i++ {
		b := cs.bucket[uint16(s[i])<<8|uint16(s[i+1])]
		if b == 0 {
			continue
		}
		for _, c := range cs.buckets[b-1] {
			if m&c.group == 0 && len(s)-i >= len(c.word) && string(s[i:i+len(c.word)]) == c.word {
				m |= c.group
			}
		}
	}
	return m
}

// lowerASCII appends strings.ToLower(s) to dst, without allocating when s
// is ASCII and fits dst's capacity.
func lowerASCII(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return append(dst, strings.ToLower(s)...)
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

// definitionCues open a definition ("X is a ...") when they come early.
var definitionCues = [...]string{" is a ", " is an ", " are a ", " is the ", " refers to ", " means "}

// isDefinition spots "X is a/an/the ..." openings with a short subject.
func isDefinition(head []byte) bool {
	punct := bytes.IndexAny(head, ".,;:")
	for _, cue := range definitionCues {
		// The first occurrence counts; one before byte 60 lies in this prefix.
		h := head
		if n := 59 + len(cue); len(h) > n {
			h = h[:n]
		}
		if i := bytes.Index(h, []byte(cue)); i > 0 && i < 60 && (punct < 0 || punct >= i) {
			return true
		}
	}
	return false
}

// HashKU returns the hex SHA-256 of a KU's content and symbolic fields.
func HashKU(k *KU) string {
	bp := hashBufs.Get().(*[]byte)
	b := (*bp)[:0]
	for _, s := range [...]string{k.ID, k.KUType, k.Title, k.Role, k.Topic, k.Claim, k.Procedure, k.Condition, k.TextBody,
		k.SymbolicSubject, k.SymbolicRelation, k.SymbolicObject} {
		b = append(b, s...)
		b = append(b, 0x1f)
	}
	for _, l := range [...][]string{k.UtilityActs, k.PhaseScopes} {
		for i, s := range l {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, s...)
		}
		b = append(b, 0x1f)
	}
	sum := sha256.Sum256(b)
	if cap(b) <= 64<<10 {
		*bp = b
		hashBufs.Put(bp)
	}
	var hx [2 * sha256.Size]byte
	hex.Encode(hx[:], sum[:])
	return string(hx[:])
}

// hashBufs recycles HashKU's buffers.
var hashBufs = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}
