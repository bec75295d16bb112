package gssymbolic

import (
	"strings"

	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins/internal/symbolic"
)

// subjectTerm is the word of a how-to task that says what it is about on
// the page p is a section of: the rarest in the knowledge base (by the
// sources holding it, per c; the first of equals) of the task's terms
// other than its action ("write" says what to do, not what about) and the
// words of p's page's headings above it (the product every section of the
// page is about). "" without a corpus or such a term.
func subjectTerm(p procedure, want []string, action string, c plugin.Corpus) string {
	if c == nil || c.Documents() == 0 {
		return ""
	}
	own := symbolic.TermSet(strings.Join(ancestors(p.ku), " "))
	subject, least := "", 0
	for _, w := range want {
		if w == action || own[w] {
			continue
		}
		if df := c.DocFreq(w); df > 0 && (subject == "" || df < least) {
			subject, least = w, df
		}
	}
	return subject
}

// headedSubject is the index in secs of the section of p's page whose
// heading names what the task is about, when p's own heading does not: a
// long page's section that shares the most words with the task (a
// "Using middleware" section whose code happens to name a "testing"
// group) answers it less than the section the page gives to what it asks
// (a "Testing" section, for a question about checking logs in a test). The
// subject is subjectTerm's. It is -1 when p's
// heading names it, the headings of p's page among secs name it under no
// heading or several, or that section's best example holds less of the
// task (plain) than p's (pPlain) or less than minOverlap: the heading
// decides between passages that answer alike.
func headedSubject(p procedure, pPlain float64, want []string, action string, secs []procedure, plain []float64, c plugin.Corpus) int {
	if p.ku == nil {
		return -1
	}
	subject := subjectTerm(p, want, action, c)
	if subject == "" || symbolic.TermSet(p.ku.Title)[subject] {
		return -1
	}
	named, titles := -1, map[string]bool{}
	for i, s := range secs {
		if s.ku == nil || s.ku.SourceID != p.ku.SourceID || !symbolic.TermSet(s.ku.Title)[subject] {
			continue
		}
		if named < 0 {
			named = i // secs are ranked: the first unit of the section
		}
		titles[s.ku.Title] = true
	}
	if named < 0 || len(titles) > 1 || plain[named] < max(minOverlap, pPlain) {
		return -1
	}
	return named
}
