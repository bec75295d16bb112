package gssymbolic

import (
	"regexp"
	"strings"
)

// minCommentSentenceWords is how many words a comment in documentation
// code must have to state something as a sentence does.
const minCommentSentenceWords = 5

// commentStatements reads the comments inside the code blocks of ss as
// sentences, each introducing the code under it (commentedCode):
// documentation code says why it is written so in its comments ("Exact routes are resolved before
// param routes, regardless of the order they were defined."), which
// answer a question of why or of what a call gives as the page's prose
// does, while the block around them is a program to read. A comment of
// fewer than minCommentSentenceWords words only labels its code. The code
// blocks read are those standing on their own and those a statement
// introduces ("... an API for encoding and decoding configuration data:"
// over the block declaring it); of the latter only a comment over a
// declaration counts (declares): it documents what it declares, where the
// others narrate the program the prose introduced.
func commentStatements(ss []statement) []statement {
	var out []statement
	for _, s := range ss {
		lines := fencedCode(s)
		introduced := s.kind != kindCode
		if len(lines) < 2 {
			continue
		}
		open := strings.TrimSpace(lines[0])
		for i := 1; i < len(lines); i++ {
			if !codeComment(lines[i]) || fenceLine(lines[i]) {
				continue
			}
			var words []string
			j := i
			for ; j < len(lines) && codeComment(lines[j]) && !fenceLine(lines[j]); j++ {
				words = append(words, strings.TrimSpace(strings.TrimSuffix(strings.TrimLeft(strings.TrimSpace(lines[j]), "/#* "), "*/")))
			}
			code := commentedCode(lines[j:])
			i = j - 1
			said := strings.Join(words, " ")
			if len(strings.Fields(said)) < minCommentSentenceWords || introduced && (len(code) == 0 || !declares(code[0])) {
				continue
			}
			st := statement{kind: kindSentence, text: said, md: []string{said}}
			if len(code) > 0 {
				st.block = append(append([]string{open}, trimBlock(code)...), open[:3])
			}
			out = append(out, st)
		}
	}
	return out
}

// declarationRE opens a line of code that declares a named thing (a
// type, function, variable or class).
var declarationRE = regexp.MustCompile(`^(?:export\s+)?(?:pub\s+)?(?:type|func|fn|var|const|let|class|interface|struct|def)\s+\w`)

// declares reports whether a line of code declares a named thing.
func declares(line string) bool { return declarationRE.MatchString(strings.TrimSpace(line)) }

// fencedCode is the fenced code block of s, fences included: s itself
// when it is one, else the block s introduces when that is one; nil
// otherwise.
func fencedCode(s statement) []string {
	lines := s.block
	if s.kind == kindCode {
		lines = s.md
	}
	if len(lines) == 0 || !fenceLine(strings.TrimSpace(lines[0])) {
		return nil
	}
	return lines
}

// commentedCode is the code a comment stands over, from lines (what
// follows the comment): up to the next blank line, comment or fence, at
// most three lines, or more to close a statement that spans several (up
// to maxCommentCode); nothing when the statement is not closed by then,
// as a statement cut short shows nothing whole.
func commentedCode(lines []string) []string {
	var code []string
	depth := 0 // brackets the statements open and have not closed
	for _, raw := range lines {
		l := strings.TrimSpace(raw)
		if len(code) >= 3 && depth <= 0 || len(code) >= maxCommentCode || depth <= 0 && (l == "" || codeComment(l)) || fenceLine(l) {
			break
		}
		code = append(code, raw)
		depth += strings.Count(l, "(") + strings.Count(l, "{") + strings.Count(l, "[") - strings.Count(l, ")") - strings.Count(l, "}") - strings.Count(l, "]")
	}
	if depth > 0 {
		return nil
	}
	return code
}
