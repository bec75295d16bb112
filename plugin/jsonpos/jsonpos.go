package jsonpos

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
)

// Node is one value of a JSON document.
type Node struct {
	Pointer   string          // JSON Pointer of the value; "" for the root
	KeyOffset int             // byte offset of the member's key, or of the value for array elements and the root
	Offset    int             // byte offset of the value's first byte
	Raw       json.RawMessage // the value's text
}

// Index holds the nodes of one document in document order.
type Index struct {
	src   []byte
	lines []int // offset of the start of each line
	Nodes []Node
	byPtr map[string]int
}

// ErrInvalid is returned by Parse for text that is not valid JSON.
var ErrInvalid = errors.New("invalid JSON")

// Parse indexes a JSON document. It fails with ErrInvalid when src is not
// valid JSON; use SyntaxPos to locate the problem.
func Parse(src []byte) (*Index, error) {
	if !json.Valid(src) {
		return nil, ErrInvalid
	}
	ix := &Index{src: src, lines: lineStarts(src), byPtr: map[string]int{}}
	w := walker{src: src, ix: ix}
	w.skipSpace()
	w.value("", w.pos)
	return ix, nil
}

// Lookup returns the node at a JSON Pointer.
func (ix *Index) Lookup(ptr string) (Node, bool) {
	i, ok := ix.byPtr[ptr]
	if !ok {
		return Node{}, false
	}
	return ix.Nodes[i], true
}

// LineCol returns the 1-based line and column (in bytes) of an offset.
func (ix *Index) LineCol(off int) (line, col int) { return lineCol(ix.lines, off) }

// KeyPos returns the line and column of the member key (or element) at ptr,
// falling back to the nearest indexed ancestor, then to 1:1.
func (ix *Index) KeyPos(ptr string) (line, col int) {
	for {
		if n, ok := ix.Lookup(ptr); ok {
			return ix.LineCol(n.KeyOffset)
		}
		if ptr == "" {
			return 1, 1
		}
		ptr = ptr[:strings.LastIndexByte(ptr, '/')]
	}
}

// LineCol returns the 1-based line and column of a byte offset in src.
func LineCol(src []byte, off int) (line, col int) { return lineCol(lineStarts(src), off) }

// ErrorPos locates an error returned by encoding/json for src: syntax errors
// and type errors carry an offset. ok is false for other errors.
func ErrorPos(src []byte, err error) (line, col int, ok bool) {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off := int(se.Offset)
		// The offset is just past the offending byte; point at it.
		if off > 0 {
			off--
		}
		line, col = LineCol(src, off)
		return line, col, true
	case errors.As(err, &te):
		line, col = LineCol(src, valueStart(src, int(te.Offset)))
		return line, col, true
	}
	return 0, 0, false
}

// SyntaxPos checks src and returns the position and message of its first
// syntax error; ok is false when src is valid JSON.
func SyntaxPos(src []byte) (line, col int, msg string, ok bool) {
	var v any
	err := json.Unmarshal(src, &v)
	if err == nil {
		return 0, 0, "", false
	}
	if l, c, found := ErrorPos(src, err); found {
		return l, c, err.Error(), true
	}
	// Unexpected end of input carries no offset.
	l, c := LineCol(src, len(src))
	return l, c, err.Error(), true
}

// Pointer joins reference tokens into a JSON Pointer, escaping ~ and /.
func Pointer(tokens ...string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		t = strings.ReplaceAll(t, "~", "~0")
		b.WriteString(strings.ReplaceAll(t, "/", "~1"))
	}
	return b.String()
}

// Tokens splits a JSON Pointer into its unescaped reference tokens.
func Tokens(ptr string) []string {
	if ptr == "" {
		return nil
	}
	parts := strings.Split(ptr[1:], "/")
	for i, p := range parts {
		p = strings.ReplaceAll(p, "~1", "/")
		parts[i] = strings.ReplaceAll(p, "~0", "~")
	}
	return parts
}

// valueStart moves back from the end of a value reported by a type error to
// the start of the value, so the position names the value, not what follows.
func valueStart(src []byte, end int) int {
	if end > len(src) {
		end = len(src)
	}
	i := end - 1
	for i > 0 && isSpace(src[i]) {
		i--
	}
	if i < 0 {
		return 0
	}
	switch src[i] {
	case '"':
		for j := i - 1; j >= 0; j-- {
			if src[j] == '"' && !escaped(src, j) {
				return j
			}
		}
	case '}', ']':
		depth := 0
		for j := i; j >= 0; j-- {
			switch src[j] {
			case '}', ']':
				depth++
			case '{', '[':
				depth--
				if depth == 0 {
					return j
				}
			}
		}
	default:
		j := i
		for j > 0 && !isSpace(src[j-1]) && src[j-1] != ':' && src[j-1] != ',' && src[j-1] != '[' {
			j--
		}
		return j
	}
	return i
}

func escaped(src []byte, quote int) bool {
	n := 0
	for k := quote - 1; k >= 0 && src[k] == '\\'; k-- {
		n++
	}
	return n%2 == 1
}

func lineStarts(src []byte) []int {
	starts := []int{0}
	for i, c := range src {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

func lineCol(lines []int, off int) (int, int) {
	lo, hi := 0, len(lines)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if lines[mid] <= off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo + 1, off - lines[lo] + 1
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// walker indexes a document already known to be valid JSON.
type walker struct {
	src []byte
	pos int
	ix  *Index
}

func (w *walker) skipSpace() {
	for w.pos < len(w.src) && isSpace(w.src[w.pos]) {
		w.pos++
	}
}

func (w *walker) value(ptr string, keyOff int) {
	start := w.pos
	idx := len(w.ix.Nodes)
	w.ix.Nodes = append(w.ix.Nodes, Node{Pointer: ptr, KeyOffset: keyOff, Offset: start})
	w.ix.byPtr[ptr] = idx
	switch w.src[w.pos] {
	case '{':
		w.members('}', func(int) {
			kOff := w.pos
			key := w.str()
			w.skipSpace()
			w.pos++ // ':'
			w.skipSpace()
			w.value(ptr+Pointer(key), kOff)
		})
	case '[':
		w.members(']', func(i int) { w.value(ptr+"/"+strconv.Itoa(i), w.pos) })
	case '"':
		w.str()
	default:
		for w.pos < len(w.src) && !isSpace(w.src[w.pos]) && !bytes.ContainsRune([]byte(",]}"), rune(w.src[w.pos])) {
			w.pos++
		}
	}
	w.ix.Nodes[idx].Raw = json.RawMessage(w.src[start:w.pos])
}

// members reads the members of the object or array that starts at w.pos
// and ends with the byte end, calling member with the index of each, at its
// first byte; member reads it.
func (w *walker) members(end byte, member func(i int)) {
	w.pos++
	w.skipSpace()
	if w.src[w.pos] == end {
		w.pos++
		return
	}
	for i := 0; ; i++ {
		w.skipSpace()
		member(i)
		w.skipSpace()
		c := w.src[w.pos]
		w.pos++
		if c == end {
			return
		}
	}
}

// str reads a string token and returns its decoded value.
func (w *walker) str() string {
	start := w.pos
	w.pos++
	for w.src[w.pos] != '"' {
		if w.src[w.pos] == '\\' {
			w.pos++
		}
		w.pos++
	}
	w.pos++
	var s string
	_ = json.Unmarshal(w.src[start:w.pos], &s)
	return s
}
