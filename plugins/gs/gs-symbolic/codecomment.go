package gssymbolic

import "strings"

// minCommentSentenceWords is how many words a comment in documentation
// code must have to state something as a sentence does.
const minCommentSentenceWords = 5

// commentStatements reads the comments inside the code blocks of ss as
// sentences, each introducing the code under it (commentedCode):
// documentation code says
// why it is written so in its comments ("Exact routes are resolved before
// param routes, regardless of the order they were defined."), which
// answer a question of why or of what a call gives as the page's prose
// does, while the block around them is a program to read. A comment of
// fewer than minCommentSentenceWords words only labels its code.
func commentStatements(ss []statement) []statement {
	var out []statement
	for _, s := range ss {
		if s.kind != kindCode || len(s.md) < 2 {
			continue
		}
		open := strings.TrimSpace(s.md[0])
		if !fenceLine(open) {
			continue
		}
		for i := 1; i < len(s.md); i++ {
			if !codeComment(s.md[i]) || fenceLine(s.md[i]) {
				continue
			}
			var words []string
			j := i
			for ; j < len(s.md) && codeComment(s.md[j]) && !fenceLine(s.md[j]); j++ {
				words = append(words, strings.TrimSpace(strings.TrimSuffix(strings.TrimLeft(strings.TrimSpace(s.md[j]), "/#* "), "*/")))
			}
			code := commentedCode(s.md[j:])
			i = j - 1
			said := strings.Join(words, " ")
			if len(strings.Fields(said)) < minCommentSentenceWords {
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
