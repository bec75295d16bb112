package valsymbolic

import (
	"regexp"
	"strings"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugin/text"
	"github.com/mrpvm/mrpvm/plugins/internal/symbolic"
	"github.com/mrpvm/mrpvm/retrieval/lexicon"
)

// subjectWord is the key word of a "what is X" target that unit k is not
// about (see about), or "" when k is about what target asks. That is its
// rarest key word, unless the word names the page k stands in (its title
// or path: "gorilla" for a section of the README titled "gorilla/mux"):
// then the question is confined to that page's subject, as "the Walk
// function of gorilla/mux" is, and k must be about the rarest of its other
// key words. A target whose key words all name the page asks what the
// page's subject is, and k must be about the word itself.
func subjectWord(target string, k *kus.KU, said []string, rc plugin.RunContext, rar symbolic.Rarity) string {
	w := rarest(target, rar)
	if w == "" || about(w, k, said, rar) || runsAsked(w, target, said) || namedWithKind(w, target, said) || glossed(w, target, said) {
		return ""
	}
	page := pageNames(k, rc)
	if !covered(w, page, rar) {
		return w
	}
	best, bestW := "", -1.0
	for _, t := range keyTokens(target, true) {
		if covered(t.term, page, rar) {
			continue
		}
		if wt := rar.Weight(t.term); wt > bestW {
			best, bestW = t.term, wt
		}
	}
	switch {
	case best == "":
		return w
	case about(best, k, said, rar):
		return ""
	}
	return best
}

// pageNames are the terms that name the page unit k stands in: the words
// of its path and of the page's title (pageTitle).
func pageNames(k *kus.KU, rc plugin.RunContext) map[string]bool {
	names := symbolic.TermSet(pathWords(k.SourceID))
	for t := range symbolic.TermSet(pageTitle(k, rc)) {
		names[t] = true
	}
	return names
}

// pathWords are the words of a source path ("mux README" of
// "mux/README.md").
func pathWords(sourceID string) string {
	return strings.NewReplacer("/", " ", "-", " ", "_", " ", ".md", " ").Replace(sourceID)
}

var (
	// frontMatterRE matches a page's front matter, its title in group 1
	// when it has one.
	frontMatterRE = regexp.MustCompile(`(?m)\A---\n(?s:.*?)(?:^title:[ \t]*["']?([^"'\n]+)["']?[ \t]*\n(?s:.*?))?^---[ \t]*\n`)
	// pageHeadingRE matches a top-level ATX heading, its text in group 1.
	pageHeadingRE = regexp.MustCompile(`(?m)^#[ \t]+(.+?)[ \t#]*$`)
	// markupRE matches HTML tags, and images and links (keeping a link's
	// text in group 1), in a heading.
	markupRE = regexp.MustCompile(`<[^>]*>|!\[[^\]]*\]\([^)]*\)|\[([^\]]*)\]\([^)]*\)`)
)

// pageTitle is the title of the page unit k stands in, as its source
// gives it: the title of its front matter, else its first top-level
// heading without markup ("gorilla/mux"); "" when the corpus does not
// hold the source or it has neither.
func pageTitle(k *kus.KU, rc plugin.RunContext) string {
	if k == nil || rc.Corpus == nil {
		return ""
	}
	src := string(rc.Corpus.SourceText(k.SourceID))
	if m := frontMatterRE.FindStringSubmatch(src); m != nil {
		if m[1] != "" {
			return strings.TrimSpace(m[1])
		}
		src = src[len(m[0]):]
	}
	m := pageHeadingRE.FindStringSubmatch(src)
	if m == nil {
		return ""
	}
	return strings.TrimSpace(markupRE.ReplaceAllString(m[1], "$1"))
}

// runsAsked reports whether a quoted command line among said runs the
// subcommand target asks about, under the program target names with it:
// its first two words are key words of target, and w is one of them
// ("`cryptsetup luksDump {{/dev/sdXY}}`" for "cryptsetup luksDump"). The
// example the line stands in says what that subcommand does, as a
// glossary's entry says what its word means.
func runsAsked(w, target string, said []string) bool {
	key := map[string]bool{}
	for _, t := range keyTokens(target, false) {
		key[t.term] = true
	}
	for _, line := range strings.Split(strings.Join(said, "\n"), "\n") {
		line = strings.TrimSpace(line)
		f := strings.Fields(strings.Trim(line, "`"))
		if !strings.HasPrefix(line, "`") || len(f) < 2 {
			continue
		}
		program, sub := text.Terms(f[0]), text.Terms(f[1])
		if len(program) == 1 && len(sub) == 1 && key[program[0]] && key[sub[0]] && (w == program[0] || w == sub[0]) {
			return true
		}
	}
	return false
}

// namedWithKind reports whether w is an identifier target names
// (identifiers) and a sentence of prose among said holds it with another
// key word of target ("a single hint `doc_too_large`" for "the doc_too_large
// hint"): an identifier names one thing, and a sentence that gives it the
// kind the question gives it says what that thing is.
func namedWithKind(w, target string, said []string) bool {
	others := map[string]bool{}
	for _, t := range keyTokens(target, false) {
		if t.term != w && !identifierPart(t.term, w) {
			others[t.term] = true
		}
	}
	return proseSaysIdentifier(w, target, said, func(line string) bool {
		for _, sent := range symbolic.Sentences(line) {
			terms := symbolic.TermSet(sent)
			if !terms[w] {
				continue
			}
			for o := range others {
				if terms[o] {
					return true
				}
			}
		}
		return false
	})
}

// glossRE matches a code span or a reference link followed by a
// parenthesis, the span's text in group 1, the link's in group 2:
// "`llm_not_found` (404: model name wrong)", "[GetClientIP] (string)". A
// link's text right before a parenthesis is an inline link
// ("[GetClientIP](https://...)"), no gloss: the reference link needs
// space before it.
var glossRE = regexp.MustCompile("(?:`([^`\\n]+)`[ \\t]*|\\[([^\\]\\n]+)\\][ \\t]+)\\(")

// appositionRE matches code spans in parentheses right after a word, the
// word in group 1 and the parentheses' text in group 2: "decorators for
// an existing logger (`test.NewLocal` and `test.NewGlobal`)", where the
// noun before says what the spans are (namesKind).
var appositionRE = regexp.MustCompile("(\\w+)[ \\t]*\\(([^()\\n]*`[^()\\n]*)\\)")

// namesKind reports whether word can name a kind of thing: no past
// participle, and the general lexicon knows it mainly as a noun, or not at
// all. "refused (`doc_too_large`)" names what happens, not what the code
// is. The participle is told by its form (participle), since the
// lexicon's stems join it with its noun ("replaced" and "replacement").
func namesKind(word string) bool {
	t := text.Terms(word)
	if len(t) != 1 || participle(strings.ToLower(word)) {
		return false
	}
	all, main := lexicon.PartsOfSpeech(t[0])
	return all == 0 || main&lexicon.Noun != 0
}

// participle reports whether w reads as a verb's past participle: it ends
// in "-ed" and, without "d" or "ed", is a word the lexicon knows as a
// verb ("replaced", "refused"; not "speed").
func participle(w string) bool {
	if len(w) <= 4 || !strings.HasSuffix(w, "ed") {
		return false
	}
	for _, stem := range []string{w[:len(w)-1], w[:len(w)-2]} {
		if t := text.Terms(stem); len(t) == 1 && lexicon.HasVerbSense(t[0]) {
			return true
		}
	}
	return false
}

// glossed reports whether w is an identifier target names and a line of
// prose among said glosses it: writes it as code followed by a
// parenthesis, which is how documentation says what a code, flag or name
// means inside a list of them. A gloss says what the identifier is, so it
// is not a mention in passing.
func glossed(w, target string, said []string) bool {
	return proseSaysIdentifier(w, target, said, func(line string) bool {
		for _, m := range glossRE.FindAllStringSubmatch(line, -1) {
			if symbolic.TermSet(m[1] + " " + m[2])[w] {
				return true
			}
		}
		for _, m := range appositionRE.FindAllStringSubmatch(line, -1) {
			if symbolic.TermSet(m[2])[w] && namesKind(m[1]) {
				return true
			}
		}
		return false
	})
}

// proseSaysIdentifier reports whether w is an identifier target names
// (identifiers) and says holds for a line of prose among said. Command
// lines are skipped: they run things, they do not say what they are.
func proseSaysIdentifier(w, target string, said []string, says func(line string) bool) bool {
	if !identifiers(target)[w] {
		return false
	}
	for _, line := range said {
		if !strings.HasPrefix(strings.TrimSpace(line), "`") && says(line) {
			return true
		}
	}
	return false
}

// identifierPart reports whether term t is one of the words identifier
// term id is written with ("workspac" of "outside_workspace").
func identifierPart(t, id string) bool {
	for _, p := range text.Terms(strings.NewReplacer("_", " ", "-", " ", ".", " ").Replace(id)) {
		if p == t {
			return true
		}
	}
	return false
}
