package lsp

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// clip shortens s to at most n bytes on a rune boundary, marking the cut.
func clip(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func escapeMD(s string) string {
	return strings.NewReplacer("*", `\*`, "_", `\_`, "`", "\\`", "[", `\[`, "]", `\]`).Replace(s)
}

// isWordRune is a rune of a word: a letter, a digit, '_' or '-'.
func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-'
}

// runAround returns the bounds [a, b) of the longest run of runes that in
// accepts around byte offset off of s (a == b == off when there is none).
func runAround(s string, off int, in func(rune) bool) (a, b int) {
	a, b = off, off
	for a > 0 {
		r, size := utf8.DecodeLastRuneInString(s[:a])
		if !in(r) {
			break
		}
		a -= size
	}
	for b < len(s) {
		r, size := utf8.DecodeRuneInString(s[b:])
		if !in(r) {
			break
		}
		b += size
	}
	return a, b
}

// wordAt is the word (letters, digits, '-', '_') at byte offset off.
func wordAt(text string, off int) string {
	a, b := runAround(text, off, isWordRune)
	return strings.Trim(text[a:b], "-_")
}
