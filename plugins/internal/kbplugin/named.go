package kbplugin

import (
	"regexp"
	"slices"
	"strings"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugin/text"
	"github.com/mrpvm/mrpvm/plugins/internal/symbolic"
)

// namedShare is the score of a gathered section relative to the overview
// it was gathered for: it ranks just below it.
const namedShare = 0.9

// withNamedSection adds, for a how-to task, the section of a page whose
// heading names what the task is about, when the evidence holds only the
// page's overview of it. An overview ("Why Viper?") lists many things a
// page offers, one item each, so a task about one of them matches it on
// the page's name and the item's few words, while the section the page
// gives that thing ("Setting Overrides") repeats less of the task's
// wording and ranks lower. What the task is about is its rarest term (the
// highest idf among terms) that is not a word of the overview's own
// heading or of the headings above it: those name the page, which every
// section of it is about.
//
// The section is gathered when the overview holds at least
// symbolic.MinOverviewItems items, the term is in its text, no evidence unit's
// heading names the term yet, and exactly one heading of the page names
// it. The evidence stays within k units: the section takes the place of
// the weakest unit other than the overview.
func withNamedSection(evidence []plugin.ScoredKU, k int, terms []string, idf []float64, an *text.Analyzer, r plugin.KUReader) []plugin.ScoredKU {
	if k < 2 || len(terms) == 0 || len(idf) != len(terms) || r == nil {
		return evidence
	}
	termsOf := func(s string) map[string]bool {
		out := map[string]bool{}
		an.Each(s, func(t text.Token) { out[t.Term] = true })
		return out
	}
	var over plugin.ScoredKU
	for _, e := range evidence {
		if listLines(e.KU.TextBody, true) >= symbolic.MinOverviewItems {
			over = e
			break
		}
	}
	if over.KU == nil {
		return evidence
	}
	heads := []string{over.KU.Title}
	root := over.KU
	for len(root.ParentUnitIDs) > 0 {
		p, err := r.KU(root.ParentUnitIDs[0])
		if err != nil || p == nil {
			break
		}
		heads = append(heads, p.Title)
		root = p
	}
	own := termsOf(strings.Join(heads, " ") + " " + over.KU.SourceName)
	body := termsOf(over.KU.TextBody)
	rare, most := "", 0.0
	for i, t := range terms {
		if !own[t] && body[t] && (rare == "" || idf[i] > most) {
			rare, most = t, idf[i]
		}
	}
	if rare == "" {
		return evidence
	}
	for _, e := range evidence {
		if termsOf(e.KU.Title)[rare] {
			return evidence
		}
	}
	var named *kus.KU
	titles := map[string]bool{}
	var walk func(u *kus.KU)
	walk = func(u *kus.KU) {
		if u != over.KU && u.SourceID == over.KU.SourceID && u.Title != over.KU.Title && termsOf(u.Title)[rare] {
			if named == nil && levelOf(u) == kus.LevelLeaf {
				named = u // the section's first unit of text, which states its how-to
			}
			titles[u.Title] = true
		}
		for _, id := range u.ChildUnitIDs {
			if c, err := r.KU(id); err == nil && c != nil {
				walk(c)
			}
		}
	}
	walk(root)
	if named == nil || len(titles) > 1 {
		return evidence
	}
	out := append([]plugin.ScoredKU(nil), evidence...)
	if len(out) >= k {
		// The weakest unit other than the overview makes room.
		for i := len(out) - 1; i >= 0; i-- {
			if out[i].KU.ID != over.KU.ID {
				out = slices.Delete(out, i, i+1)
				break
			}
		}
	}
	return append(out, plugin.ScoredKU{KU: named, Score: over.Score * namedShare, Level: levelOf(named), Strategy: over.Strategy, Why: "named by the task in " + over.KU.Title})
}

// numberedRE matches the first line of a numbered list item.
var numberedRE = regexp.MustCompile(`^\d{1,3}[.)]\s`)

// listLines counts the table rows (cells joined by " | ") and bulleted
// list items of a unit's text, and its numbered items when numbered is
// set.
func listLines(body string, numbered bool) int {
	n := 0
	for l := range strings.SplitSeq(body, "\n") {
		l = strings.TrimSpace(l)
		if strings.Contains(l, " | ") || strings.HasPrefix(l, "- ") || strings.HasPrefix(l, "* ") || (numbered && numberedRE.MatchString(l)) {
			n++
		}
	}
	return n
}
