package valsymbolic

import (
	"fmt"
	"strings"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugin/text"
	"github.com/mrpvm/mrpvm/plugins/internal/symbolic"
)

// folderOf is the first folder of a source path ("gin" of
// "gin/docs/doc.md"), "" for a source at the top or outside the
// workspace's files ("plugin::gs-llm-fast").
func folderOf(sourceID string) string {
	if strings.Contains(sourceID, "::") {
		return ""
	}
	if i := strings.IndexByte(sourceID, '/'); i > 0 {
		return sourceID[:i]
	}
	return ""
}

// namedScope is the word of target that names a folder of the workspace
// the question is confined to ("gin" of "serve static files with gin",
// the documentation of gin living under gin/), with that folder: a key
// word that is a word of the folder's name, when most of the evidence
// units from that folder say the word in their title or text too (the
// folder's pages call their subject by it, as a library's documentation
// does; "linux/", a folder of pages on many programs, does not make
// "linux" the scope of a question that says "on Linux", though some of
// its pages say it). "" when target names no such folder.
func namedScope(target string, ev []plugin.ScoredKU) (word, folder string) {
	key := map[string]bool{}
	for _, t := range symbolic.ContentTerms(target) {
		if !filler[t] {
			key[t] = true
		}
	}
	type tally struct{ units, say int }
	counts := map[[2]string]*tally{}
	var order [][2]string
	for _, e := range ev {
		if e.KU == nil {
			continue
		}
		f := folderOf(e.KU.SourceID)
		if f == "" {
			continue
		}
		for _, t := range text.Terms(strings.NewReplacer("-", " ", "_", " ", ".", " ").Replace(f)) {
			if !key[t] {
				continue
			}
			c := counts[[2]string{t, f}]
			if c == nil {
				c = &tally{}
				counts[[2]string{t, f}] = c
				order = append(order, [2]string{t, f})
			}
			c.units++
			if symbolic.TermSet(e.KU.Title + "\n" + e.KU.Text())[t] {
				c.say++
			}
		}
	}
	for _, tf := range order {
		if c := counts[tf]; c.say > 0 && 2*c.say >= c.units {
			return tf[0], tf[1]
		}
	}
	return "", ""
}

// outOfScope is the reason a source an answer cites (lead) fails the
// folder target names (namedScope), or "" when it lies in that folder,
// says the word itself, or target names no folder: a page of mux's
// documentation does not say how gin serves static files.
func outOfScope(target string, ev []plugin.ScoredKU, lead *kus.KU, rc plugin.RunContext) string {
	word, folder := namedScope(target, ev)
	if word == "" || lead == nil || folderOf(lead.SourceID) == folder {
		return ""
	}
	if symbolic.TermSet(citedText([]*kus.KU{lead}, rc))[word] {
		return ""
	}
	return fmt.Sprintf("the question asks about %q (the pages under %s/), and a source the answer cites, %s, is not about it", word, folder, lead.SourceID)
}
