package gssymbolic

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugins/internal/symbolic"
	"github.com/mrpvm/mrpvm/plugins/sdk"
)

var (
	// compareLeadRE is the opening of a comparison's target that names no
	// item ("the difference between", "differences of").
	compareLeadRE = regexp.MustCompile(`(?i)^(?:what\s+(?:is|are)\s+)?(?:the\s+)?(?:main\s+)?(?:differences?|distinction|comparison)\s+(?:between|of)\s+`)
	// itemSepRE separates the compared items.
	itemSepRE = regexp.MustCompile(`(?i)\s*(?:,|\bversus\b|\bvs\.?\s|\band\b|\bor\b)\s*`)
	// itemScopeRE is a trailing scope of the last item ("Bind in gin").
	itemScopeRE = regexp.MustCompile(`(?i)\s+(?:in|with|for|on|of|from)\s+\S.*$`)
)

// comparedItems reads the items a comparison target names: "scp and
// rsync", "kill or killall: which one stops processes by name", "ShouldBind
// and Bind in gin". Fewer than two items is not a comparison of items.
func comparedItems(target string) []string {
	t := compareLeadRE.ReplaceAllString(strings.TrimSpace(target), "")
	if i := strings.IndexAny(t, ":?"); i >= 0 {
		t = t[:i]
	}
	t = strings.TrimPrefix(strings.TrimSpace(t), "compare ")
	var items []string
	for _, part := range itemSepRE.Split(t, -1) {
		part = strings.Trim(itemScopeRE.ReplaceAllString(strings.TrimSpace(part), ""), " `\"'")
		if part == "" || len(strings.Fields(part)) > 4 {
			continue
		}
		items = append(items, part)
	}
	if len(items) < 2 || len(items) > 5 {
		return nil
	}
	return items
}

// about reports whether text names item as a word of its own.
func about(text, item string) bool {
	re, err := regexp.Compile(`(?i)(?:^|[^\w-])` + regexp.QuoteMeta(item) + `(?:$|[^\w-])`)
	return err == nil && re.MatchString(text)
}

// compareRows builds a comparison as one row per item, each from that
// item's own source: a unit titled by the item, else a statement that
// names it; a row says so when the evidence has nothing on its item. It
// also returns a statement that says which to pick when one does. ok is
// false when the target names no items.
func compareRows(ev []sdk.ScoredKU, target string, want []string, num func(*kus.KU) int) (string, bool) {
	items := comparedItems(target)
	if items == nil {
		return "", false
	}
	var b strings.Builder
	b.WriteString("| item | what the sources say |\n| --- | --- |\n")
	found := 0
	used := map[string]bool{}
	labels := map[string]bool{}
	for _, e := range ev {
		if e.KU != nil {
			labels[label(e.KU.Topic)], labels[label(e.KU.Title)] = true, true
		}
	}
	delete(labels, "")
	for _, item := range items {
		var best *kus.KU
		var bestText string
		bestScore := -1.0
		// Prose first: a command line or code names the item without
		// saying what it is.
		for _, prose := range []bool{true, false} {
			if best != nil {
				break
			}
			for _, e := range ev {
				k := e.KU
				if k == nil {
					continue
				}
				own := strings.EqualFold(strings.TrimSpace(k.Title), item)
				for _, s := range symbolic.Sentences(withoutCovers(k.Text())) {
					if used[s] || labels[label(s)] || (prose && symbolic.Actionable(s)) {
						continue
					}
					if !own && !about(s, item) {
						continue
					}
					sc := symbolic.Overlap(want, symbolic.TermSet(s)) + e.Score
					if own {
						sc += 2 // the item's own page speaks for it first
					}
					if sc > bestScore {
						best, bestText, bestScore = k, s, sc
					}
					break // a unit's first sentence about the item speaks for it
				}
			}
		}
		if best == nil {
			fmt.Fprintf(&b, "| %s | the evidence says nothing about %s |\n", escapeCell(item), escapeCell(item))
			continue
		}
		found++
		used[bestText] = true
		fmt.Fprintf(&b, "| %s | %s [%d] |\n", escapeCell(item), escapeCell(strings.TrimSpace(bestText)), num(best))
	}
	if found == 0 {
		return "", false
	}
	if k, s := whichToPick(ev, items); k != nil && !used[s] {
		fmt.Fprintf(&b, "\n%s [%d]\n", strings.TrimSpace(s), num(k))
	}
	return b.String(), true
}

// pickRE finds a statement that says which to choose.
var pickRE = regexp.MustCompile(`(?i)\b(?:use|prefer|choose|pick)\b.*\b(?:when|if|for|instead|rather)\b|\binstead of\b|\brather than\b|\bbetter\b`)

// whichToPick is the first evidence statement that names an item and says
// when to choose it; nil when none does.
func whichToPick(ev []sdk.ScoredKU, items []string) (*kus.KU, string) {
	for _, e := range ev {
		if e.KU == nil {
			continue
		}
		for _, s := range symbolic.Sentences(withoutCovers(e.KU.Text())) {
			if !pickRE.MatchString(s) {
				continue
			}
			for _, it := range items {
				if about(s, it) {
					return e.KU, s
				}
			}
		}
	}
	return nil, ""
}
