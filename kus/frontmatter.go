package kus

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
	"go.yaml.in/yaml/v3"
)

// Front matter diagnostic codes.
const (
	// CodeFrontMatterInvalid is a front matter block that does not parse
	// (its title and tags are not used; the body is read as usual).
	CodeFrontMatterInvalid = "md_front_matter_invalid"
	// CodeFrontMatterTooLarge is a front matter block over
	// MaxFrontMatterBytes, left unread.
	CodeFrontMatterTooLarge = "md_front_matter_too_large"
)

// MaxFrontMatterBytes caps the front matter block handed to the YAML or
// TOML parser: metadata is a few lines, and a parser given megabytes of
// nested or aliased values costs time and memory out of proportion.
const MaxFrontMatterBytes = 64 << 10

// frontMatterFormat is one kind of front matter block.
type frontMatterFormat struct {
	name   string
	open   string   // the opening delimiter line
	closes []string // the lines that end the block
}

var frontMatterFormats = []frontMatterFormat{
	{name: "YAML", open: "---", closes: []string{"---", "..."}},
	{name: "TOML", open: "+++", closes: []string{"+++"}},
}

// fields are the front matter keys the reader uses.
type frontMatterFields struct {
	Title any `yaml:"title" toml:"title"`
	Tags  any `yaml:"tags" toml:"tags"`
}

// readFrontMatter reads a leading YAML (---) or TOML (+++) front matter
// block, after an optional UTF-8 byte order mark, with LF or CRLF line
// ends. It returns the title, the tags and the offset where the Markdown
// body starts (0 when there is no block; the caller blanks the block but
// keeps its newlines, so offsets and lines stay those of the file). A
// block that does not parse, or is too large, is reported as a warning at
// its line and yields no title or tags; the body is read all the same. An
// opening delimiter with no closing one is not front matter.
func (r *reader) readFrontMatter() (title string, tags []string, bodyStart int) {
	src := r.src
	start := 0
	if bytes.HasPrefix(src, []byte("\ufeff")) {
		start = 3
	}
	first, pos, ok := nextLine(src, start)
	if !ok {
		return "", nil, 0
	}
	var format *frontMatterFormat
	for i := range frontMatterFormats {
		if strings.TrimRight(first, " \t") == frontMatterFormats[i].open {
			format = &frontMatterFormats[i]
		}
	}
	if format == nil {
		return "", nil, 0
	}
	blockStart := pos
	for pos < len(src) {
		line, next, _ := nextLine(src, pos)
		for _, c := range format.closes {
			if strings.TrimRight(line, " \t") == c {
				title, tags = r.parseFrontMatter(format, src[blockStart:pos])
				return title, tags, next
			}
		}
		pos = next
	}
	return "", nil, 0
}

// nextLine returns the line starting at pos without its line end, and the
// offset of the next line; ok is false when the line has no line end.
func nextLine(src []byte, pos int) (line string, next int, ok bool) {
	end := bytes.IndexByte(src[pos:], '\n')
	if end < 0 {
		return strings.TrimSuffix(string(src[pos:]), "\r"), len(src), false
	}
	return strings.TrimSuffix(string(src[pos:pos+end]), "\r"), pos + end + 1, true
}

// yamlLine finds the line number in a YAML error message.
var yamlLine = regexp.MustCompile(`line (\d+)`)

// parseFrontMatter decodes the block (which starts on the file's line 2)
// and returns its title and tags, reporting a block that does not parse.
func (r *reader) parseFrontMatter(format *frontMatterFormat, block []byte) (string, []string) {
	warn := func(line int, code, format string, args ...any) {
		r.doc.Diagnostics = append(r.doc.Diagnostics, Diagnostic{Line: line, Col: 1, Severity: SeverityWarning, Code: code,
			Message: fmt.Sprintf(format, args...)})
	}
	if len(block) > MaxFrontMatterBytes {
		warn(1, CodeFrontMatterTooLarge, "the %s front matter is %d bytes, over %d: its title and tags are not read",
			format.name, len(block), MaxFrontMatterBytes)
		return "", nil
	}
	if len(bytes.TrimSpace(block)) == 0 {
		return "", nil
	}
	var f frontMatterFields
	var err error
	line := 1
	switch format.name {
	case "YAML":
		var doc yaml.Node
		if err = yaml.Unmarshal(block, &doc); err == nil && len(doc.Content) > 0 && doc.Content[0].Kind != yaml.MappingNode {
			err = fmt.Errorf("the front matter is not a mapping of keys to values")
			line += doc.Content[0].Line
		} else if err == nil {
			err = doc.Decode(&f)
		}
		if m := yamlLine.FindStringSubmatch(fmt.Sprint(err)); m != nil {
			n, _ := strconv.Atoi(m[1])
			line += n
		}
	case "TOML":
		_, err = toml.Decode(string(block), &f)
		var pe toml.ParseError
		if errors.As(err, &pe) {
			line += pe.Position.Line
		}
	}
	if err != nil {
		if line == 1 {
			line = 2
		}
		warn(line, CodeFrontMatterInvalid, "invalid %s front matter: %v; its title and tags are not used", format.name, err)
		return "", nil
	}
	return scalarText(f.Title), tagList(f.Tags)
}

// scalarText is a title value as text: a string, number, boolean or date;
// "" for a list, a map or nothing.
func scalarText(v any) string {
	switch v := v.(type) {
	case nil, []any, map[string]any:
		return ""
	case string:
		return strings.TrimSpace(v)
	default:
		return strings.TrimSpace(fmt.Sprint(v))
	}
}

// tagList reads tags written as a list or as one comma-separated string.
func tagList(v any) []string {
	var out []string
	switch v := v.(type) {
	case []any:
		for _, e := range v {
			if t := scalarText(e); t != "" {
				out = append(out, t)
			}
		}
	case string:
		for t := range strings.SplitSeq(v, ",") {
			if t = strings.TrimSpace(t); t != "" {
				out = append(out, t)
			}
		}
	}
	return out
}
