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
// word that is a word of the folder's name, when an evidence unit from
// that folder says the word in its text too (the folder's pages call
// their subject by it, as library documentation does; a folder of
// unrelated pages, "linux/", does not make "linux" the question's scope
// unless its pages say so). "" when target names no such folder.
func namedScope(target string, ev []plugin.ScoredKU) (word, folder string) {
	key := map[string]bool{}
	for _, t := range symbolic.ContentTerms(target) {
		if !filler[t] {
			key[t] = true
		}
	}
	for _, e := range ev {
		if e.KU == nil {
			continue
		}
		f := folderOf(e.KU.SourceID)
		if f == "" {
			continue
		}
		for _, t := range text.Terms(strings.NewReplacer("-", " ", "_", " ", ".", " ").Replace(f)) {
			if key[t] && symbolic.TermSet(e.KU.Title + "\n" + e.KU.Text())[t] {
				return t, f
			}
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
