package thinkingdb

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The reference extractor is Extractor.Sentences as first written: every
// word of the text lowercased into a slice of words, then sentence by
// sentence, with the cue, boundary and determiner words looked up by
// string. The extractor's optimisations must not change a single fact.

// refCues maps the first word of every cue phrase to its cues, longest
// first.
var refCues = func() map[string][]cue {
	m := map[string][]cue{}
	for _, c := range cueList {
		w := strings.Fields(c.phrase)
		m[w[0]] = append(m[w[0]], cue{words: w, rel: c.rel, inverse: c.inverse, conf: c.conf})
	}
	for k, cs := range m {
		for i := 1; i < len(cs); i++ {
			for j := i; j > 0 && len(cs[j].words) > len(cs[j-1].words); j-- {
				cs[j], cs[j-1] = cs[j-1], cs[j]
			}
		}
		m[k] = cs
	}
	return m
}()

// refWord is a lowercased word of a sentence, or a punctuation mark.
type refWord struct {
	w     string // lowercased
	raw   string
	punct bool
}

var refBoundary = map[string]bool{
	"that": true, "which": true, "who": true, "whom": true, "whose": true, "where": true, "when": true,
	"while": true, "whereas": true, "but": true, "although": true, "because": true, "since": true,
	"if": true, "than": true, "however": true, "thus": true, "therefore": true, "and": false,
	"in": true, "on": true, "at": true, "by": true, "for": true, "from": true, "with": true, "without": true,
	"through": true, "via": true, "during": true, "after": true, "before": true, "among": true, "under": true,
	"not": true, "also": true, "may": true, "might": true, "could": true, "would": true, "should": true,
	"to": true, "into": true, "as": true, "we": true, "it": true, "they": true, "this": true, "these": true,
	"there": true, "here": true, "significantly": true, "strongly": true, "directly": true,
}

var refDeterminers = map[string]bool{"a": true, "an": true, "the": true, "its": true, "their": true, "this": true,
	"these": true, "that": true, "those": true, "some": true, "both": true}

// refSentences extracts the facts of a text, sentence by sentence.
func refSentences(e *Extractor, s string) []Fact {
	var out []Fact
	ws := refSplitWords(s)
	start := 0
	for i := 0; i <= len(ws); i++ {
		if i < len(ws) && !(ws[i].punct && strings.ContainsAny(ws[i].w, ".!?;\n")) {
			continue
		}
		out = append(out, refSentence(e, ws[start:i])...)
		start = i + 1
	}
	return out
}

// refSentence extracts the facts of one sentence: at every cue, the noun
// phrase right before it relates to the noun phrase right after it.
func refSentence(e *Extractor, ws []refWord) []Fact {
	var out []Fact
	for i := 0; i < len(ws); i++ {
		if ws[i].punct {
			continue
		}
		for _, c := range refCues[ws[i].w] {
			if !refMatchAt(ws, i, c.words) {
				continue
			}
			subj := refPhraseBefore(ws, i)
			obj := refPhraseAfter(ws, i+len(c.words))
			if subj == "" || obj == "" {
				break
			}
			f := Fact{Subject: subj, Relation: c.rel, Object: obj, Confidence: c.conf}
			if c.inverse {
				f.Subject, f.Object = f.Object, f.Subject
			}
			f.SubjectKey, f.ObjectKey = e.Key(f.Subject), e.Key(f.Object)
			if f.SubjectKey != "" && f.ObjectKey != "" && f.SubjectKey != f.ObjectKey {
				out = append(out, f)
			}
			i += len(c.words) - 1
			break
		}
	}
	return out
}

func refMatchAt(ws []refWord, i int, phrase []string) bool {
	if i+len(phrase) > len(ws) {
		return false
	}
	for k, p := range phrase {
		if ws[i+k].punct || ws[i+k].w != p {
			return false
		}
	}
	return true
}

// refPhraseBefore returns up to maxPhrase words ending just before ws[i],
// stopping at punctuation, boundary words and other cues.
func refPhraseBefore(ws []refWord, i int) string {
	j := i
	for j > 0 && i-j < maxPhrase {
		w := ws[j-1]
		if w.punct || refBoundary[w.w] || refStartsCue(ws, j-1) {
			break
		}
		j--
	}
	return refJoinRaw(ws[j:i])
}

// refStartsCue reports whether a cue phrase starts at ws[i].
func refStartsCue(ws []refWord, i int) bool {
	for _, c := range refCues[ws[i].w] {
		if refMatchAt(ws, i, c.words) {
			return true
		}
	}
	return false
}

// refPhraseAfter returns up to maxPhrase words starting at ws[i], skipping a
// leading determiner.
func refPhraseAfter(ws []refWord, i int) string {
	for i < len(ws) && !ws[i].punct && refDeterminers[ws[i].w] {
		i++
	}
	j := i
	for j < len(ws) && j-i < maxPhrase {
		w := ws[j]
		if w.punct || refBoundary[w.w] || refStartsCue(ws, j) {
			break
		}
		j++
	}
	return refJoinRaw(ws[i:j])
}

func refJoinRaw(ws []refWord) string {
	// Drop leading determiners and dangling conjunctions.
	for len(ws) > 0 && refDeterminers[ws[0].w] {
		ws = ws[1:]
	}
	for len(ws) > 0 && (ws[len(ws)-1].w == "and" || ws[len(ws)-1].w == "or") {
		ws = ws[:len(ws)-1]
	}
	for len(ws) > 0 && (ws[0].w == "and" || ws[0].w == "or") {
		ws = ws[1:]
	}
	parts := make([]string, len(ws))
	for k, w := range ws {
		parts[k] = w.raw
	}
	return strings.Join(parts, " ")
}

// refSplitWords splits text into words (letters, digits and inner - _ ' .)
// and punctuation marks; newlines count as sentence ends.
func refSplitWords(s string) []refWord {
	out := make([]refWord, 0, len(s)/6+1)
	i := 0
	for i < len(s) {
		if c := s[i]; c < utf8.RuneSelf {
			switch {
			case refASCIIAlnum[c]:
				j := refWordEnd(s, i+1)
				raw := s[i:j]
				out = append(out, refWord{w: strings.ToLower(raw), raw: raw})
				i = j
			case refASCIIPunct[c]:
				out = append(out, refWord{w: s[i : i+1], raw: s[i : i+1], punct: true})
				i++
			default:
				i++
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			j := refWordEnd(s, i+size)
			raw := s[i:j]
			out = append(out, refWord{w: strings.ToLower(raw), raw: raw})
			i = j
			continue
		}
		i += size
	}
	return out
}

// refWordEnd returns the end of the refWord whose rest starts at s[j]: letters,
// digits and marks, and - _ ' . between them and a letter or digit.
func refWordEnd(s string, j int) int {
	for j < len(s) {
		c := s[j]
		if c < utf8.RuneSelf {
			if refASCIIAlnum[c] {
				j++
				continue
			}
			if (c == '-' || c == '_' || c == '\'' || c == '.') && j+1 < len(s) {
				if n := s[j+1]; n < utf8.RuneSelf {
					if refASCIIAlnum[n] {
						j++
						continue
					}
				} else if r3, _ := utf8.DecodeRuneInString(s[j+1:]); unicode.IsLetter(r3) || unicode.IsDigit(r3) {
					j++
					continue
				}
			}
			return j
		}
		r, size := utf8.DecodeRuneInString(s[j:])
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsMark(r) {
			return j
		}
		j += size
	}
	return j
}

// refASCIIAlnum marks the ASCII letters and digits; refASCIIPunct the
// marks refSplitWords keeps.
var refASCIIAlnum, refASCIIPunct = func() (alnum, punct [utf8.RuneSelf]bool) {
	for c := range alnum {
		alnum[c] = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
	}
	for _, c := range ".!?;:,()[]{}\"\n" {
		punct[c] = true
	}
	return
}()
