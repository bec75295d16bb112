package sop

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ArgKind tells what an argument is.
type ArgKind int

// Argument kinds.
const (
	ArgAtom   ArgKind = iota + 1 // a bare word
	ArgRef                       // $id; Value holds the id without $
	ArgString                    // a double-quoted string; Value holds the unescaped text
	ArgList                      // [a b c]; Items holds the elements
)

// String names the kind: atom, ref, string or list.
func (k ArgKind) String() string {
	switch k {
	case ArgAtom:
		return "atom"
	case ArgRef:
		return "ref"
	case ArgString:
		return "string"
	case ArgList:
		return "list"
	}
	return "ArgKind(" + strconv.Itoa(int(k)) + ")"
}

// Arg is one argument of a statement.
type Arg struct {
	Kind  ArgKind
	Value string // atom text, referenced id (without $), or unescaped string
	Items []Arg  // list elements (atoms, refs or strings), for ArgList
	Col   int    // 1-based byte column where the argument starts; 0 when built by hand
}

// Atom returns an atom argument. The caller makes sure s is a valid atom (see
// [IsAtom]); [Text] chooses between an atom and a string.
func Atom(s string) Arg { return Arg{Kind: ArgAtom, Value: s} }

// Ref returns a $id reference argument; id is given without the $.
func Ref(id string) Arg { return Arg{Kind: ArgRef, Value: id} }

// Str returns a double-quoted string argument holding s.
func Str(s string) Arg { return Arg{Kind: ArgString, Value: s} }

// Text returns an atom when s is a safe atom and a string otherwise; both
// read back as the same value.
func Text(s string) Arg {
	if IsAtom(s) {
		return Atom(s)
	}
	return Str(s)
}

// List returns a list argument.
func List(items ...Arg) Arg { return Arg{Kind: ArgList, Items: items} }

// String renders the argument as SOP source.
func (a Arg) String() string {
	var b strings.Builder
	a.write(&b)
	return b.String()
}

func (a Arg) write(b *strings.Builder) {
	switch a.Kind {
	case ArgAtom:
		b.WriteString(a.Value)
	case ArgRef:
		b.WriteByte('$')
		b.WriteString(a.Value)
	case ArgString:
		b.WriteString(Quote(a.Value))
	case ArgList:
		b.WriteByte('[')
		for i, it := range a.Items {
			if i > 0 {
				b.WriteByte(' ')
			}
			it.write(b)
		}
		b.WriteByte(']')
	default:
		b.WriteString(Quote(a.Value))
	}
}

// Statement is one `@id command arg...` line.
type Statement struct {
	Line    int // 1-based source line; 0 when built by hand
	ID      string
	Command string
	Args    []Arg
}

// String renders the statement as one line of SOP source (no newline).
func (s Statement) String() string {
	var b strings.Builder
	s.write(&b)
	return b.String()
}

func (s Statement) write(b *strings.Builder) {
	b.WriteByte('@')
	b.WriteString(s.ID)
	b.WriteByte(' ')
	b.WriteString(s.Command)
	for _, a := range s.Args {
		b.WriteByte(' ')
		a.write(b)
	}
}

// Program is a parsed document: its statements in source order.
type Program struct {
	Statements []Statement
}

// String renders the program as SOP source, one statement a line.
func (p *Program) String() string {
	var b strings.Builder
	for _, s := range p.Statements {
		s.write(&b)
		b.WriteByte('\n')
	}
	return b.String()
}

// Limits bounds what a document may hold, to keep pathological input cheap.
// A zero field means "no limit" except where noted.
type Limits struct {
	MaxBytes      int // whole document
	MaxLineBytes  int // one line
	MaxStatements int // statements (comments and blank lines do not count)
	MaxListItems  int // elements of one list
	MaxErrors     int // errors collected before giving up (then sop_too_many_errors)
}

// DefaultLimits are the limits used by [Parse] and [Interpret]: 8 MiB a
// document, 1 MiB a line, 50,000 statements, 4,096 list items, 50 errors.
var DefaultLimits = Limits{
	MaxBytes:      8 << 20,
	MaxLineBytes:  1 << 20,
	MaxStatements: 50000,
	MaxListItems:  4096,
	MaxErrors:     50,
}

// Parse parses src with [DefaultLimits].
func Parse(src string) (*Program, error) { return DefaultLimits.Parse(src) }

// Parse parses src into a Program. Lines that fail to parse are reported and
// left out; the returned Program holds the others, so err (an [Errors]) and a
// non-nil Program can come together. Parse checks only the shape of lines;
// ids, references and fields are checked by [Limits.Run].
func (l Limits) Parse(src string) (*Program, error) {
	c := &collector{max: l.MaxErrors}
	p, _ := l.parse(src, c)
	return p, c.err()
}

// parse also returns the ids of lines that failed to parse but whose @id
// could be read, so that the interpreter does not report references to them.
func (l Limits) parse(src string, c *collector) (*Program, map[string]bool) {
	p := &Program{}
	broken := map[string]bool{}
	if l.MaxBytes > 0 && len(src) > l.MaxBytes {
		c.fatal(0, "", CodeTooLarge, "document is %d bytes, the limit is %d", len(src), l.MaxBytes)
		return p, broken
	}
	src = strings.TrimPrefix(src, "\ufeff")
	n := strings.Count(src, "\n") + 1
	if l.MaxStatements > 0 && n > l.MaxStatements+1 {
		n = l.MaxStatements + 1
	}
	p.Statements = make([]Statement, 0, n)
	// Arguments of all statements share one backing array.
	arena := make([]Arg, 0, 3*n)
	lineNo := 0
	for len(src) > 0 && !c.full {
		lineNo++
		var line string
		if i := strings.IndexByte(src, '\n'); i >= 0 {
			line, src = src[:i], src[i+1:]
		} else {
			line, src = src, ""
		}
		line = strings.TrimSuffix(line, "\r")
		if l.MaxLineBytes > 0 && len(line) > l.MaxLineBytes {
			id := leadingID(line)
			if id != "" {
				broken[id] = true
			}
			c.add(lineNo, 1, id, CodeTooLarge, "line is %d bytes, the limit is %d", len(line), l.MaxLineBytes)
			continue
		}
		lx := lexer{line: line, lineNo: lineNo, maxItems: l.MaxListItems, arena: arena}
		st, ok := lx.statement()
		arena = lx.arena
		if !ok {
			if lx.err != nil {
				c.add(lx.err.Line, lx.err.Col, lx.err.ID, lx.err.Code, "%s", lx.err.Msg)
				if lx.err.ID != "" {
					broken[lx.err.ID] = true
				}
			}
			continue
		}
		if l.MaxStatements > 0 && len(p.Statements) >= l.MaxStatements {
			c.fatal(lineNo, st.ID, CodeTooLarge, "more than %d statements", l.MaxStatements)
			break
		}
		p.Statements = append(p.Statements, st)
	}
	return p, broken
}

// leadingID reads the @id at the start of a line, if any.
func leadingID(line string) string {
	s := strings.TrimLeft(line, " \t")
	if !strings.HasPrefix(s, "@") {
		return ""
	}
	n := 1
	for n < len(s) && isIDByte(s[n]) {
		n++
	}
	return s[1:n]
}

func isIDByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '_' || c == ':' || c == '-'
}

// IsID reports whether s is a legal statement id ([A-Za-z0-9_:-]+).
func IsID(s string) bool { return allBytes(s, isIDByte) }

// allBytes reports whether s is not empty and ok holds for each of its
// bytes.
func allBytes(s string, ok func(byte) bool) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !ok(s[i]) {
			return false
		}
	}
	return true
}

// isAtomByte reports bytes that [Text] may leave unquoted.
func isAtomByte(c byte) bool {
	return isIDByte(c) || c == '.' || c == '/' || c == '+' || c == '=' || c == ','
}

// IsAtom reports whether s can be written as a bare atom and read back
// unchanged. It is deliberately narrower than what the parser accepts:
// letters, digits and _ : - . / + = , only.
func IsAtom(s string) bool { return allBytes(s, isAtomByte) }

type lexer struct {
	line     string
	lineNo   int
	pos      int
	id       string
	maxItems int
	err      *Error
	arena    []Arg // backing store for statement arguments
}

func (lx *lexer) fail(col int, code Code, format string, args ...any) {
	if lx.err == nil {
		lx.err = &Error{Line: lx.lineNo, Col: col, ID: lx.id, Code: code, Msg: fmt.Sprintf(format, args...)}
	}
}

func (lx *lexer) skipSpace() {
	for lx.pos < len(lx.line) && (lx.line[lx.pos] == ' ' || lx.line[lx.pos] == '\t') {
		lx.pos++
	}
}

// atEnd reports whether the rest of the line is empty or a comment.
func (lx *lexer) atEnd() bool {
	return lx.pos >= len(lx.line) || lx.line[lx.pos] == '#'
}

// statement lexes one line. ok is false for blank lines, comments and errors
// (lx.err set).
func (lx *lexer) statement() (Statement, bool) {
	if !utf8.ValidString(lx.line) {
		lx.id = leadingID(lx.line)
		lx.fail(1, CodeBadEncoding, "line is not valid UTF-8")
		return Statement{}, false
	}
	lx.skipSpace()
	if lx.atEnd() {
		return Statement{}, false
	}
	for i := 0; i < len(lx.line); i++ {
		if c := lx.line[i]; c < 0x20 && c != '\t' || c == 0x7f {
			lx.id = leadingID(lx.line)
			lx.fail(i+1, CodeSyntax, "control character %U (write \\n, \\t or \\uXXXX inside a string)", rune(c))
			return Statement{}, false
		}
	}
	if lx.line[lx.pos] != '@' {
		lx.fail(lx.pos+1, CodeSyntax, "a statement starts with @id, found %s", snippet(lx.line[lx.pos:]))
		return Statement{}, false
	}
	lx.pos++
	start := lx.pos
	for lx.pos < len(lx.line) && isIDByte(lx.line[lx.pos]) {
		lx.pos++
	}
	if lx.pos == start {
		lx.fail(start+1, CodeSyntax, "missing id after @ (ids match [A-Za-z0-9_:-]+)")
		return Statement{}, false
	}
	st := Statement{Line: lx.lineNo, ID: lx.line[start:lx.pos]}
	lx.id = st.ID
	if lx.pos < len(lx.line) && lx.line[lx.pos] != ' ' && lx.line[lx.pos] != '\t' {
		lx.fail(lx.pos+1, CodeSyntax, "bad character %q in id (ids match [A-Za-z0-9_:-]+)", lx.line[lx.pos])
		return Statement{}, false
	}
	lx.skipSpace()
	if lx.atEnd() {
		lx.fail(lx.pos+1, CodeSyntax, "missing command after @%s", st.ID)
		return Statement{}, false
	}
	start = lx.pos
	for lx.pos < len(lx.line) && (lx.line[lx.pos] >= 'a' && lx.line[lx.pos] <= 'z' || lx.line[lx.pos] == '_' ||
		lx.line[lx.pos] >= 'A' && lx.line[lx.pos] <= 'Z' || lx.line[lx.pos] >= '0' && lx.line[lx.pos] <= '9') {
		lx.pos++
	}
	if lx.pos == start || !lx.sep() {
		lx.fail(start+1, CodeSyntax, "bad command %s (a command is a word such as intent or set)", snippet(lx.line[start:]))
		return Statement{}, false
	}
	st.Command = lx.line[start:lx.pos]
	first := len(lx.arena)
	for {
		lx.skipSpace()
		if lx.atEnd() {
			break
		}
		a, ok := lx.arg(false)
		if !ok {
			lx.arena = lx.arena[:first]
			return Statement{}, false
		}
		lx.arena = append(lx.arena, a)
	}
	if len(lx.arena) > first {
		st.Args = lx.arena[first:len(lx.arena):len(lx.arena)]
	}
	return st, true
}

// sep reports whether the current position ends a token outside a list.
func (lx *lexer) sep() bool {
	return lx.pos >= len(lx.line) || lx.line[lx.pos] == ' ' || lx.line[lx.pos] == '\t'
}

// sepIn reports whether the current position ends a token inside a list.
func (lx *lexer) sepIn() bool {
	return lx.sep() || lx.line[lx.pos] == ']'
}

func (lx *lexer) endsToken(inList bool) bool {
	if inList {
		return lx.sepIn()
	}
	return lx.sep()
}

func (lx *lexer) arg(inList bool) (Arg, bool) {
	col := lx.pos + 1
	switch c := lx.line[lx.pos]; c {
	case '"':
		s, ok := lx.str()
		if !ok {
			return Arg{}, false
		}
		if !lx.endsToken(inList) {
			lx.fail(lx.pos+1, CodeSyntax, "text right after a closing quote; separate arguments with spaces")
			return Arg{}, false
		}
		return Arg{Kind: ArgString, Value: s, Col: col}, true
	case '[':
		if inList {
			lx.fail(col, CodeSyntax, "lists cannot be nested")
			return Arg{}, false
		}
		return lx.list()
	case ']':
		lx.fail(col, CodeSyntax, "] without [")
		return Arg{}, false
	case '$':
		lx.pos++
		start := lx.pos
		for lx.pos < len(lx.line) && isIDByte(lx.line[lx.pos]) {
			lx.pos++
		}
		if lx.pos == start || !lx.endsToken(inList) {
			lx.fail(col, CodeSyntax, "bad reference %s (write $id, ids match [A-Za-z0-9_:-]+)", snippet(lx.line[col-1:]))
			return Arg{}, false
		}
		return Arg{Kind: ArgRef, Value: lx.line[start:lx.pos], Col: col}, true
	case '@':
		lx.fail(col, CodeSyntax, "@ inside a statement: one statement a line, and text containing @ must be quoted")
		return Arg{}, false
	default:
		start := lx.pos
		for lx.pos < len(lx.line) && !lx.sepIn() && lx.line[lx.pos] != '"' && lx.line[lx.pos] != '[' {
			lx.pos++
		}
		if !lx.endsToken(inList) {
			if lx.pos < len(lx.line) && lx.line[lx.pos] == ']' {
				lx.fail(lx.pos+1, CodeSyntax, "] without [")
			} else {
				lx.fail(lx.pos+1, CodeSyntax, "%q inside a bare word; quote text that contains quotes or brackets", lx.line[lx.pos])
			}
			return Arg{}, false
		}
		return Arg{Kind: ArgAtom, Value: lx.line[start:lx.pos], Col: col}, true
	}
}

func (lx *lexer) list() (Arg, bool) {
	col := lx.pos + 1
	lx.pos++ // [
	a := Arg{Kind: ArgList, Col: col}
	for {
		lx.skipSpace()
		if lx.pos >= len(lx.line) {
			lx.fail(col, CodeUnterminatedList, "list opened here has no closing ]")
			return Arg{}, false
		}
		if lx.line[lx.pos] == ']' {
			lx.pos++
			if !lx.sep() {
				lx.fail(lx.pos+1, CodeSyntax, "text right after ]; separate arguments with spaces")
				return Arg{}, false
			}
			return a, true
		}
		if lx.maxItems > 0 && len(a.Items) >= lx.maxItems {
			lx.fail(col, CodeTooLarge, "list has more than %d items", lx.maxItems)
			return Arg{}, false
		}
		it, ok := lx.arg(true)
		if !ok {
			return Arg{}, false
		}
		a.Items = append(a.Items, it)
	}
}

// str reads a double-quoted string starting at lx.pos.
func (lx *lexer) str() (string, bool) {
	col := lx.pos + 1
	lx.pos++ // opening quote
	// Fast path: no escapes.
	if i := strings.IndexAny(lx.line[lx.pos:], "\"\\"); i >= 0 && lx.line[lx.pos+i] == '"' {
		s := lx.line[lx.pos : lx.pos+i]
		lx.pos += i + 1
		return s, true
	}
	var b strings.Builder
	for lx.pos < len(lx.line) {
		c := lx.line[lx.pos]
		switch c {
		case '"':
			lx.pos++
			return b.String(), true
		case '\\':
			if lx.pos+1 >= len(lx.line) {
				lx.fail(col, CodeUnterminatedString, "string opened here has no closing quote on this line")
				return "", false
			}
			e := lx.line[lx.pos+1]
			switch e {
			case '"', '\\':
				b.WriteByte(e)
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'u':
				if lx.pos+6 > len(lx.line) {
					lx.fail(lx.pos+1, CodeBadEscape, "\\u needs four hex digits")
					return "", false
				}
				v, err := strconv.ParseUint(lx.line[lx.pos+2:lx.pos+6], 16, 32)
				if err != nil || v >= 0xd800 && v < 0xe000 {
					lx.fail(lx.pos+1, CodeBadEscape, "bad escape \\u%s (four hex digits, no surrogates)", lx.line[lx.pos+2:lx.pos+6])
					return "", false
				}
				b.WriteRune(rune(v))
				lx.pos += 4
			default:
				r, _ := utf8.DecodeRuneInString(lx.line[lx.pos+1:])
				lx.fail(lx.pos+1, CodeBadEscape, "unknown escape \\%c (use \\\" \\\\ \\n \\r \\t or \\uXXXX)", r)
				return "", false
			}
			lx.pos += 2
		default:
			b.WriteByte(c)
			lx.pos++
		}
	}
	lx.fail(col, CodeUnterminatedString, "string opened here has no closing quote on this line")
	return "", false
}

// snippet quotes the start of s for a message.
func snippet(s string) string {
	const max = 24
	if len(s) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "..."
	}
	return strconv.Quote(s)
}

// Quote returns s as a double-quoted SOP string: \ and " are escaped, \n \r
// \t are written as escapes, other control characters and the Unicode line
// separators U+0085, U+2028, U+2029 as \uXXXX, and invalid UTF-8 is replaced
// by U+FFFD. The result is one line whatever s holds, so quoted text cannot
// start a statement of its own.
func Quote(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\ufffd")
	}
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == '\t':
			b.WriteString(`\t`)
		case c < 0x20 || c == 0x7f:
			fmt.Fprintf(&b, `\u%04x`, c)
		case c == 0xc2 && i+1 < len(s) && s[i+1] == 0x85: // U+0085 NEL
			b.WriteString(`\u0085`)
			i++
		case c == 0xe2 && i+2 < len(s) && s[i+1] == 0x80 && (s[i+2] == 0xa8 || s[i+2] == 0xa9): // U+2028, U+2029
			fmt.Fprintf(&b, `\u%04x`, 0x2000|rune(s[i+2]-0x80))
			i += 2
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}
