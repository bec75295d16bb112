package text

import "strings"

// Fences follows fenced code blocks (opened by ``` or ~~~) through a
// Markdown text read line by line. Its zero value is outside any block.
type Fences struct{ open string }

// Step reads the next line and reports whether it belongs to a fenced
// code block: an opening fence, a line inside one, or its closing fence.
// A block closes at the first line that starts, after white space, with
// the three characters that opened it.
func (f *Fences) Step(line string) bool {
	t := strings.TrimSpace(line)
	if f.open != "" {
		if strings.HasPrefix(t, f.open) {
			f.open = ""
		}
		return true
	}
	if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
		f.open = t[:3]
		return true
	}
	return false
}

// Open reports whether a block is open after the lines read so far.
func (f *Fences) Open() bool { return f.open != "" }
