// Package analysis shares the analysis of KU texts between the retrieval
// cores. An ingest indexes every source with BM25 and then encodes the same
// texts (titles, leaf bodies) as hypervectors; both run the same analyzer
// over the same strings, so the second one takes the terms the first one
// produced instead of analysing the text again.
package analysis

import (
	"sync"

	"github.com/mrpvm/mrpvm/plugins/sdk/text"
)

// Text is the analysis of one string.
type Text struct {
	// All is every term, compound parts included (Analyzer.Append).
	All []string
	// Main leaves the compound parts out (the tokens whose Part is false);
	// it shares All's array when the text has no parts.
	Main []string
	// IDs holds the Token.ID of each term of All (0: not numbered).
	IDs []uint32
}

// Analyse analyses s with a and keeps the result for Lookup. The returned
// slices are shared and must not be modified.
func Analyse(a *text.Analyzer, s string) *Text {
	n := len(s)/8 + 4
	t := &Text{All: make([]string, 0, n), IDs: make([]uint32, 0, n)}
	var parts []int32 // positions in All of the compound parts
	a.Each(s, func(tok text.Token) {
		if tok.Part {
			parts = append(parts, int32(len(t.All)))
		}
		t.All = append(t.All, tok.Term)
		t.IDs = append(t.IDs, tok.ID)
	})
	if len(parts) == 0 {
		t.Main = t.All
	} else {
		t.Main = make([]string, 0, len(t.All)-len(parts))
		for i, term := range t.All {
			if len(parts) > 0 && parts[0] == int32(i) {
				parts = parts[1:]
				continue
			}
			t.Main = append(t.Main, term)
		}
	}
	recent.put(a, s, t)
	return t
}

// Lookup returns the analysis of s by a if one of the last Recent texts
// analysed was s.
func Lookup(a *text.Analyzer, s string) (*Text, bool) {
	return recent.get(a, s)
}

// Recent is the number of analysed texts kept: a few sources' worth per
// ingest worker, since the cores handle a source one after the other.
const Recent = 512

type key struct {
	a *text.Analyzer
	s string
}

// ring is a FIFO-bounded map.
type ring struct {
	mu   sync.Mutex
	m    map[key]*Text
	keys []key
	next int
}

var recent = ring{m: make(map[key]*Text, Recent)}

func (r *ring) get(a *text.Analyzer, s string) (*Text, bool) {
	r.mu.Lock()
	t, ok := r.m[key{a, s}]
	r.mu.Unlock()
	return t, ok
}

func (r *ring) put(a *text.Analyzer, s string, t *Text) {
	k := key{a, s}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.m[k]; ok {
		r.m[k] = t
		return
	}
	if len(r.keys) < Recent {
		r.keys = append(r.keys, k)
	} else {
		delete(r.m, r.keys[r.next])
		r.keys[r.next] = k
		r.next = (r.next + 1) % Recent
	}
	r.m[k] = t
}
