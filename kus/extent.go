package kus

import (
	"bytes"

	"github.com/yuin/goldmark/ast"
)

// extent returns the byte range of block n as it is written, markup
// included: from the start of the line its first line's markup begins on
// (an opening fence, an indented code block's indentation, a list or quote
// marker, a table's leading pipe, a heading's #s) to the end of its last
// line (a closing fence, a setext underline, a heading's closing #s, a table
// row's closing pipe, an HTML block's closing line), trailing white space
// left out. It is (-1, -1) when n holds no source text (see span). A unit's
// range is the extent of its blocks, so its raw text reads as the Markdown
// it was written as, and its line range spans the lines it came from.
func (r *reader) extent(n ast.Node) (start, end int) {
	start, end = r.span(n)
	if start < 0 {
		return start, end
	}
	if p := n.Pos(); p >= 0 && p < start {
		start = p
	}
	// The block's first line may begin with the markup of the containers
	// the block opens on (a list item's marker, a quote's '>') and their
	// indentation: all of it is the block's, no earlier block ends there.
	if ls := r.lines.lineStartOf(start); onlyContainerMarkup(r.src[ls:start]) {
		start = ls
	}
	end = r.lineEnd(end)
	// The last block (at any depth) may end with a line that holds no
	// text: a closing fence or underline, or an empty list item.
	for c := n; c != nil; c = lastBlockChild(c) {
		switch v := c.(type) {
		case *ast.FencedCodeBlock:
			end = max(end, r.closingFence(v))
		case *ast.Heading:
			end = max(end, r.setextUnderline(v))
		case *ast.HTMLBlock:
			if v.HasClosure() {
				end = max(end, r.lineEnd(v.ClosureLine.Stop))
			}
		}
		if c.Lines().Len() == 0 && c.Pos() >= 0 {
			end = max(end, r.lineEnd(c.Pos()+1))
		}
	}
	return start, end
}

// onlyContainerMarkup reports whether b (the start of a line, before a
// block) holds only indentation, quote markers and list markers.
func onlyContainerMarkup(b []byte) bool {
	return len(bytes.Trim(b, "-*+>0123456789.) \t")) == 0
}

// lastBlockChild returns n's last child when it is a block, else nil.
func lastBlockChild(n ast.Node) ast.Node {
	if c := n.LastChild(); c != nil && c.Type() == ast.TypeBlock {
		return c
	}
	return nil
}

// lineEnd returns the end of the line holding the byte before off (off is
// the exclusive end of some text), trailing white space left out.
func (r *reader) lineEnd(off int) int {
	off = min(off, len(r.src))
	if off > 0 && r.src[off-1] == '\n' {
		off--
	} else if i := bytes.IndexByte(r.src[off:], '\n'); i >= 0 {
		off += i
	} else {
		off = len(r.src)
	}
	return trimEnd(r.src, off)
}

// nextLine returns the start and end (without its newline) of the line
// after the line holding the byte before off, or (-1, -1) at the end of src.
func (r *reader) nextLine(off int) (start, end int) {
	i := bytes.IndexByte(r.src[max(off-1, 0):], '\n')
	if off == 0 || i < 0 {
		return -1, -1
	}
	start = max(off-1, 0) + i + 1
	if start >= len(r.src) {
		return -1, -1
	}
	end = len(r.src)
	if j := bytes.IndexByte(r.src[start:], '\n'); j >= 0 {
		end = start + j
	}
	return start, end
}

// nextBlockPos returns where the block following n in document order
// starts (a later sibling of n or of an enclosing block), or len(src).
func (r *reader) nextBlockPos(n ast.Node) int {
	for c := n; c != nil; c = c.Parent() {
		for s := c.NextSibling(); s != nil; s = s.NextSibling() {
			if p := s.Pos(); p >= 0 {
				return p
			}
			if p, _ := r.span(s); p >= 0 {
				return p
			}
		}
	}
	return len(r.src)
}

// ownLine returns the end of the line after the one holding the byte
// before off when that line belongs to block n (no later block starts on
// it) and, past its container markup, satisfies ok; else -1.
func (r *reader) ownLine(n ast.Node, off int, ok func(line []byte) bool) int {
	ls, le := r.nextLine(off)
	if ls < 0 || le > r.nextBlockPos(n) {
		return -1
	}
	line := bytes.TrimLeft(r.src[ls:le], " \t>")
	if !ok(line) {
		return -1
	}
	return trimEnd(r.src, le)
}

// closingFence returns the end of f's closing fence line, or -1 when the
// block is not closed (it runs to the end of the file or its container).
func (r *reader) closingFence(f *ast.FencedCodeBlock) int {
	open := f.Pos()
	if open < 0 || open >= len(r.src) {
		return -1
	}
	for open < len(r.src) && (r.src[open] == ' ' || r.src[open] == '\t') {
		open++
	}
	if open >= len(r.src) || r.src[open] != '`' && r.src[open] != '~' {
		return -1
	}
	ch := r.src[open]
	width := fenceRun(r.src[open:], ch)
	after := open + width // the opening line, when the block holds no line
	if l := f.Lines(); l.Len() > 0 {
		after = l.At(l.Len() - 1).Stop
	}
	return r.ownLine(f, after, func(line []byte) bool {
		w := fenceRun(line, ch)
		return w >= width && len(bytes.TrimSpace(line[w:])) == 0
	})
}

// fenceRun returns how many times b starts with ch.
func fenceRun(b []byte, ch byte) int {
	n := 0
	for n < len(b) && b[n] == ch {
		n++
	}
	return n
}

// setextUnderline returns the end of h's underline line when h is a setext
// heading, else -1.
func (r *reader) setextUnderline(h *ast.Heading) int {
	l := h.Lines()
	if l.Len() == 0 {
		return -1
	}
	// An ATX heading's line starts with its #s and a space (or ends there).
	ls := r.lines.lineStartOf(l.At(0).Start)
	first := bytes.TrimLeft(r.src[ls:l.At(0).Start], "-*+>0123456789.) \t")
	if bytes.HasPrefix(first, []byte("#")) {
		return -1
	}
	ch := byte('=')
	if h.Level == 2 {
		ch = '-'
	}
	return r.ownLine(h, l.At(l.Len()-1).Stop, func(line []byte) bool {
		w := fenceRun(line, ch)
		return w > 0 && len(bytes.TrimSpace(line[w:])) == 0
	})
}
