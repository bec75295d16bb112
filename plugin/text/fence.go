package text

import "strings"

// Fences follows fenced code blocks (opened by ``` or ~~~) through a
// Markdown text read line by line. Its zero value is outside any block.
type Fences struct{ open string }

// FenceLine says where a line stands relative to fenced code blocks.
type FenceLine int

const (
	// Prose is a line outside every fenced code block.
	Prose FenceLine = iota
	// Opening is the fence that opens a block.
	Opening
	// Inside is a line of code between the two fences.
	Inside
	// Closing is the fence that closes a block.
	Closing
)

// Read reads the next line and says where it stands. A block closes at
// the first line that starts, after white space, with the three
// characters that opened it.
func (f *Fences) Read(line string) FenceLine {
	t := strings.TrimSpace(line)
	if f.open != "" {
		if strings.HasPrefix(t, f.open) {
			f.open = ""
			return Closing
		}
		return Inside
	}
	if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
		f.open = t[:3]
		return Opening
	}
	return Prose
}

// Step reads the next line and reports whether it belongs to a fenced
// code block: an opening fence, a line inside one, or its closing fence.
func (f *Fences) Step(line string) bool { return f.Read(line) != Prose }

// Open reports whether a block is open after the lines read so far.
func (f *Fences) Open() bool { return f.open != "" }
