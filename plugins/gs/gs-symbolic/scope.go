package gssymbolic

import (
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

// namedScope is the word of task that names a folder of the workspace the
// question is confined to ("gin" of "stop gin from logging requests", the
// documentation of gin living under gin/), with that folder: a task term
// that is a word of the folder's name, when at least half of the evidence
// units from that folder say the word in their title or text (a library's
// pages call their subject by its name; "linux/", a folder of pages on
// many programs, does not make "linux" the scope of "on Linux"). It is
// the rule val-symbolic checks an answer's sources by. "" when task names
// no such folder.
func namedScope(task string, ev []plugin.ScoredKU) (word, folder string) {
	key := symbolic.TermSet(strings.Join(symbolic.ContentTerms(task), " "))
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

// inScope reports whether unit k can speak for a question confined to
// folder by word: it lies in the folder or says the word itself.
func inScope(k *kus.KU, word, folder string) bool {
	return word == "" || folderOf(k.SourceID) == folder || symbolic.TermSet(k.Title + "\n" + k.Text())[word]
}
