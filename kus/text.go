package kus

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"
)

// blockText extracts the readable text of a block: inline text without
// markup, list items prefixed with "- " or "N. ", code and HTML verbatim,
// table cells separated by " | ", blocks separated by newlines.
func blockText(n ast.Node, src []byte) string {
	var b strings.Builder
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
type lineIndex []int // byte offset of the start of each line

func newLineIndex(src []byte) lineIndex {
	idx := make(lineIndex, 1, len(src)/40+1)
	for i, c := range src {
		if c == '\n' {
			idx = append(idx, i+1)
		}
	}
	return idx
}

// line returns the 0-based line holding offset off.
func (l lineIndex) line(off int) int {
	if off <= 0 {
		return 0
	}
	return sort.Search(len(l), func(i int) bool { return l[i] > off }) - 1
}

func (l lineIndex) lineStartOf(off int) int { return l[l.line(off)] }

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
	return Range{StartLine: sl + 1, StartCol: start - l[sl] + 1, EndLine: el + 1, EndCol: end - l[el] + 1}
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
	s := strings.Join(strings.Fields(text[:end]), " ")
	return truncate(s, max)
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

// actsByRole derives utility acts from a KU's role (DS030).
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
	lt := strings.ToLower(title)
	head := text
	if len(head) > 240 {
		head = head[:240]
	}
	head = strings.ToLower(head)
	has := func(s string, words ...string) bool {
		for _, w := range words {
			if strings.Contains(s, w) {
				return true
			}
		}
		return false
	}
	switch {
	case has(lt, "how to", "install", "setup", "set up", "steps", "getting started", "quick start", "quickstart", "usage", "tutorial", "build", "configure", "procedure"),
		kinds&kindOrderedList != 0,
		kinds&kindCode != 0 && kinds&^(kindCode|kindParagraph) == 0 && strings.HasSuffix(strings.TrimSpace(firstSentence(text, 400)), ":"):
		return "Procedure"
	case has(lt, " vs", "versus", "compar", "difference", "trade-off", "tradeoff", "alternatives"),
		has(head, " versus ", "compared to", "compared with", " whereas "):
		return "Comparison"
	case has(lt, "error", "troubleshoot", "problem", "debug", "fix", "issue", "faq", "pitfall"),
		has(head, "fails", "error:", "if you see", "crash"):
		return "Diagnostic"
	case has(lt, "definition", "what is", "glossary", "terminology", "concept"), isDefinition(head):
		return "Definition"
	case has(lt, "rule", "constraint", "requirement", "limit", "policy"),
		has(head, " must ", " must not ", " never ", " is required", " are required", " should not "):
		return "Constraint"
	case has(lt, "evaluat", "benchmark", "performance", "result", "measure"):
		return "Evaluation"
	case has(lt, "why", "how it works", "overview", "architecture", "design", "background", "introduction"),
		has(head, " because ", " therefore ", " so that ", " which means "):
		return "Explanation"
	}
	return "Description"
}

// isDefinition spots "X is a/an/the ..." openings with a short subject.
func isDefinition(head string) bool {
	for _, cue := range []string{" is a ", " is an ", " are a ", " is the ", " refers to ", " means "} {
		if i := strings.Index(head, cue); i > 0 && i < 60 && !strings.ContainsAny(head[:i], ".,;:") {
			return true
		}
	}
	return false
}

// HashKU returns the hex SHA-256 of a KU's content and symbolic fields.
func HashKU(k *KU) string {
	h := sha256.New()
	for _, s := range []string{k.ID, k.KUType, k.Title, k.Role, k.Topic, k.Claim, k.Procedure, k.Condition, k.TextBody,
		k.SymbolicSubject, k.SymbolicRelation, k.SymbolicObject, strings.Join(k.UtilityActs, ","), strings.Join(k.PhaseScopes, ",")} {
		h.Write([]byte(s))
		h.Write([]byte{0x1f})
	}
	return hex.EncodeToString(h.Sum(nil))
}
