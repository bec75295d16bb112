package links

import (
	"net/url"
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf16"
)

// Span is a range on one line: 0-based line, UTF-16 columns [Start, End).
type Span struct {
	Line       int
	Start, End int
}

// Heading is one ATX heading.
type Heading struct {
	Level  int
	Text   string // the heading's text, trailing #s removed
	Anchor string // GitHub-style, unique in its file (-1, -2 suffixes)
	Line   int
	Span   Span // of Text
	// EndLine is the last line of the heading's section (before the next
	// heading of the same or a higher level, trailing blank lines excluded).
	EndLine int
}

// Kind is the syntax of a link.
type Kind int

// Link kinds.
const (
	Inline Kind = iota // [text](target#anchor)
	RefDef             // [label]: target#anchor
	Wiki               // [[target#anchor|alias]]
)

// Link is one link in a file.
type Link struct {
	Kind Kind
	// Target is the link's file part as written (URL-decoded for inline and
	// reference links; "" for a link to an anchor of the same file).
	Target string
	// Anchor is the part after '#' ("" when none); HasAnchor tells an empty
	// anchor from none.
	Anchor    string
	HasAnchor bool
	Alias     string // the |alias of a wiki link
	// Whole is the whole link; TargetSpan the target as written (file part);
	// AnchorSpan the anchor (after '#', valid when HasAnchor).
	Whole, TargetSpan, AnchorSpan Span
}

// File is one parsed Markdown file.
type File struct {
	Rel   string // slash path relative to the workspace root
	Title string // the first level-1 heading, else the first heading, else ""
	// TitleLower is Title in lower case (completion filters by it).
	TitleLower string
	Headings   []Heading
	Links      []Link
	Lines      int
}

var (
	inlineRe = regexp.MustCompile(`!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*(<[^>\n]*>|[^)\s]*)(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)`)
	refDefRe = regexp.MustCompile(`^ {0,3}\[([^\]]+)\]:\s*(<[^>\n]*>|\S+)`)
	wikiRe   = regexp.MustCompile(`\[\[([^\[\]\n]+?)\]\]`)
	atxRe    = regexp.MustCompile(`^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$`)
)

// Parse indexes the text of the file at rel (a slash path). A leading BOM
// is not part of the text an editor shows, so it is dropped; CRLF line
// ends are handled. The File holds copies of the strings it keeps, never
// substrings of text, so an index of files does not keep their texts.
func Parse(rel, text string) *File {
	text = strings.TrimPrefix(text, "\uFEFF")
	f := &File{Rel: rel}
	lines := strings.Split(text, "\n")
	f.Lines = len(lines)
	var fence string
	seen := map[string]int{}
	for i, line := range lines {
		line = strings.TrimSuffix(line, "\r")
		if fence != "" {
			if closesFence(line, fence) {
				fence = ""
			}
			continue
		}
		if fc, ok := openFence(line); ok {
			fence = fc
			continue
		}
		if strings.HasPrefix(line, "    ") || strings.HasPrefix(line, "\t") {
			continue // indented code
		}
		if m := atxRe.FindStringSubmatchIndex(line); m != nil {
			txt := ""
			ts, te := len(line), len(line)
			if m[4] >= 0 {
				ts, te = m[4], m[5]
				raw := line[ts:te]
				// A closing sequence of #s preceded by a space is not text.
				trimmed := strings.TrimRight(raw, "#")
				if trimmed != raw && (trimmed == "" || strings.HasSuffix(trimmed, " ") || strings.HasSuffix(trimmed, "\t")) {
					raw = strings.TrimRight(trimmed, " \t")
					te = ts + len(raw)
				}
				txt = strings.Clone(raw)
			}
			a := Slug(txt)
			if n := seen[a]; n > 0 {
				seen[a] = n + 1
				a = a + "-" + itoa(n)
			} else {
				seen[a] = 1
			}
			f.Headings = append(f.Headings, Heading{Level: m[3] - m[2], Text: txt, Anchor: a, Line: i,
				Span: Span{Line: i, Start: col(line, ts), End: col(line, te)}})
			if f.Title == "" && m[3]-m[2] == 1 {
				f.Title = txt
			}
		}
		if m := refDefRe.FindStringSubmatchIndex(line); m != nil {
			f.addURLLink(RefDef, line, i, m[0], m[1], m[4], m[5])
			continue
		}
		code := codeSpans(line)
		for _, m := range wikiRe.FindAllStringSubmatchIndex(line, -1) {
			if inSpans(code, m[0]) {
				continue
			}
			f.addWiki(line, i, m)
		}
		for _, m := range inlineRe.FindAllStringSubmatchIndex(line, -1) {
			if inSpans(code, m[0]) || strings.HasPrefix(line[m[0]:], "[[") {
				continue
			}
			f.addURLLink(Inline, line, i, m[0], m[1], m[2], m[3])
		}
	}
	sort.SliceStable(f.Links, func(i, j int) bool {
		a, b := f.Links[i].Whole, f.Links[j].Whole
		return a.Line < b.Line || a.Line == b.Line && a.Start < b.Start
	})
	if f.Title == "" && len(f.Headings) > 0 {
		f.Title = f.Headings[0].Text
	}
	f.TitleLower = strings.ToLower(f.Title)
	// Section ends.
	for i := range f.Headings {
		end := len(lines) - 1
		for j := i + 1; j < len(f.Headings); j++ {
			if f.Headings[j].Level <= f.Headings[i].Level {
				end = f.Headings[j].Line - 1
				break
			}
		}
		for end > f.Headings[i].Line && strings.TrimSpace(lines[end]) == "" {
			end--
		}
		f.Headings[i].EndLine = end
	}
	return f
}

// addURLLink records an inline link or a reference definition whose
// destination is line[ts:te].
func (f *File) addURLLink(kind Kind, line string, ln, ws, we, ts, te int) {
	dest := line[ts:te]
	if strings.HasPrefix(dest, "<") && strings.HasSuffix(dest, ">") {
		ts++
		te--
		dest = line[ts:te]
	}
	if !isLocal(dest) {
		return
	}
	l := Link{Kind: kind, Whole: Span{ln, col(line, ws), col(line, we)}}
	file, anchor, has := strings.Cut(dest, "#")
	if q := strings.IndexByte(file, '?'); q >= 0 {
		file = file[:q]
	}
	l.TargetSpan = Span{ln, col(line, ts), col(line, ts+len(file))}
	if u, err := url.PathUnescape(file); err == nil {
		file = u
	}
	l.Target = strings.Clone(file)
	if has {
		l.HasAnchor = true
		l.Anchor = strings.Clone(anchor)
		as := ts + len(dest) - len(anchor)
		l.AnchorSpan = Span{ln, col(line, as), col(line, te)}
	}
	f.Links = append(f.Links, l)
}

// addWiki records [[target#anchor|alias]].
func (f *File) addWiki(line string, ln int, m []int) {
	inner := line[m[2]:m[3]]
	l := Link{Kind: Wiki, Whole: Span{ln, col(line, m[0]), col(line, m[1])}}
	body := inner
	if i := strings.IndexByte(inner, '|'); i >= 0 {
		body = inner[:i]
		l.Alias = strings.Clone(strings.TrimSpace(inner[i+1:]))
	}
	target, anchor, has := strings.Cut(body, "#")
	l.Target = strings.TrimSpace(target)
	ts := m[2] + strings.Index(body, l.Target)
	l.Target = strings.Clone(l.Target)
	if l.Target == "" {
		ts = m[2]
	}
	l.TargetSpan = Span{ln, col(line, ts), col(line, ts+len(l.Target))}
	if has {
		l.HasAnchor = true
		l.Anchor = strings.TrimSpace(anchor)
		as := m[2] + len(target) + 1 + strings.Index(anchor, l.Anchor)
		l.AnchorSpan = Span{ln, col(line, as), col(line, as+len(l.Anchor))}
		l.Anchor = strings.Clone(l.Anchor)
	}
	if l.Target == "" && !has {
		return
	}
	f.Links = append(f.Links, l)
}

// isLocal reports whether a link destination names a file or anchor of
// the workspace (not a URL with a scheme, not an absolute path).
func isLocal(t string) bool {
	if t == "" || strings.HasPrefix(t, "/") || strings.HasPrefix(t, "//") {
		return false
	}
	if i := strings.IndexByte(t, ':'); i >= 0 && !strings.ContainsAny(t[:i], "/#") {
		return false // http:, mailto:, ...
	}
	return true
}

// Slug is the GitHub-style anchor of a heading text: lower case, markup
// and punctuation other than '-' and '_' removed, spaces turned into '-'.
func Slug(text string) string {
	text = stripInline(text)
	var b strings.Builder
	for _, r := range strings.ToLower(text) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

var mdLinkInHeading = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)

// stripInline removes inline link syntax, keeping the link text.
func stripInline(s string) string {
	return mdLinkInHeading.ReplaceAllString(s, "$1")
}

// col is the UTF-16 column of byte offset off in line.
func col(line string, off int) int {
	n := 0
	for _, r := range line[:min(off, len(line))] {
		if k := utf16.RuneLen(r); k > 0 {
			n += k
		} else {
			n++
		}
	}
	return n
}

func openFence(line string) (string, bool) {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 || len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return "", false
	}
	n := 0
	for n < len(t) && t[n] == t[0] {
		n++
	}
	if n < 3 || (t[0] == '`' && strings.Contains(t[n:], "`")) {
		return "", false
	}
	return t[:n], true
}

func closesFence(line, fence string) bool {
	t := strings.TrimSpace(line)
	return len(t) >= len(fence) && t[0] == fence[0] && strings.Trim(t, fence[:1]) == ""
}

// codeSpans returns the byte ranges of the inline code spans of a line.
func codeSpans(line string) [][2]int {
	if !strings.Contains(line, "`") {
		return nil
	}
	var out [][2]int
	for i := 0; i < len(line); {
		if line[i] != '`' {
			i++
			continue
		}
		n := 0
		for i+n < len(line) && line[i+n] == '`' {
			n++
		}
		tick := line[i : i+n]
		j := strings.Index(line[i+n:], tick)
		if j < 0 {
			break
		}
		out = append(out, [2]int{i, i + n + j + n})
		i += n + j + n
	}
	return out
}

func inSpans(sp [][2]int, off int) bool {
	for _, s := range sp {
		if off >= s[0] && off < s[1] {
			return true
		}
	}
	return false
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}
