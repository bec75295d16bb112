// Package analysis shares the analysis of KU texts between the retrieval
// cores. An ingest indexes every source with BM25 and then encodes the same
// texts (titles, leaf bodies) as hypervectors; both run the same analyzer
// over the same strings, so the second one takes the terms the first one
// produced instead of analysing the text again.
package analysis

import (
	"slices"
	"strings"
	"sync"

	"github.com/mrpvm/mrpvm/plugin/text"
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

	parts []int32 // positions in All of the compound parts
}

// Analyse analyses s with a and keeps the result for Lookup. The returned
// slices are shared and must not be modified.
func Analyse(a *text.Analyzer, s string) *Text {
	t := newText(s)
	t.add(a, s)
	return t.done(a, s)
}

func newText(s string) *Text {
	n := len(s)/8 + 4
	return &Text{All: make([]string, 0, n), IDs: make([]uint32, 0, n)}
}

// add appends the terms of s.
func (t *Text) add(a *text.Analyzer, s string) {
	a.Each(s, func(tok text.Token) {
		if tok.Part {
			t.parts = append(t.parts, int32(len(t.All)))
		}
		t.All = append(t.All, tok.Term)
		t.IDs = append(t.IDs, tok.ID)
	})
}

// addSpan appends the terms from..to of src (which may be t).
func (t *Text) addSpan(src *Text, from, to int32) {
	base := int32(len(t.All)) - from
	i, _ := slices.BinarySearch(src.parts, from)
	for ; i < len(src.parts) && src.parts[i] < to; i++ {
		t.parts = append(t.parts, src.parts[i]+base)
	}
	t.All = append(t.All, src.All[from:to]...)
	t.IDs = append(t.IDs, src.IDs[from:to]...)
}

// done derives Main and keeps t for Lookup.
func (t *Text) done(a *text.Analyzer, s string) *Text {
	if len(t.parts) == 0 {
		t.Main = t.All
	} else {
		t.Main = make([]string, 0, len(t.All)-len(t.parts))
		parts := t.parts
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

// Memo analyses the texts of one source, which repeat one another: a
// summary or a claim repeats the first sentences of a body, a parent its
// children's titles. It splits each text into sentences and analyses each
// distinct sentence once. The split is exact: a sentence ends with '.', '!'
// or '?' followed by ASCII white space, which no token spans and which
// every rule of the tokenizer treats as it treats the start or the end of
// a text, so the terms of a text are the concatenation of its sentences'
// terms. The zero Memo is ready to use; it is not safe for concurrent use.
type Memo struct {
	texts     map[string]*Text
	sentences map[string]span
}

// span is a run of terms of an analysed text.
type span struct {
	t        *Text
	from, to int32
}

// minSentence is the shortest sentence looked up on its own; shorter ones
// join the next.
const minSentence = 24

// Analyse returns the analysis of s by a (as the package's Analyse does),
// reusing the sentences analysed since the last Reset.
func (m *Memo) Analyse(a *text.Analyzer, s string) *Text {
	if t, ok := m.texts[s]; ok {
		return t
	}
	if m.texts == nil {
		m.texts = make(map[string]*Text, 8)
		m.sentences = make(map[string]span, 32)
	}
	t := newText(s)
	for start := 0; start < len(s); {
		end, next := sentenceEnd(s, start)
		sen := s[start:end]
		if sp, ok := m.sentences[sen]; ok {
			t.addSpan(sp.t, sp.from, sp.to)
		} else {
			from := int32(len(t.All))
			t.add(a, sen)
			m.sentences[sen] = span{t: t, from: from, to: int32(len(t.All))}
		}
		start = next
	}
	m.texts[s] = t
	return t.done(a, s)
}

// Reset forgets the texts analysed.
func (m *Memo) Reset() {
	clear(m.texts)
	clear(m.sentences)
}

// sentenceEnd returns the end of the sentence starting at s[start] (at
// least minSentence bytes long unless the text ends first) and the start of
// the next one, after the white space that follows.
func sentenceEnd(s string, start int) (end, next int) {
	for i := start + minSentence; i+1 < len(s); {
		// The first '.', '!' or '?' from s[i] that some byte follows,
		// found with IndexByte (most bytes are none of them).
		seg := s[i : len(s)-1]
		k := strings.IndexByte(seg, '.')
		if k < 0 {
			k = len(seg)
		}
		if j := strings.IndexByte(seg[:k], '!'); j >= 0 {
			k = j
		}
		if j := strings.IndexByte(seg[:k], '?'); j >= 0 {
			k = j
		}
		if k == len(seg) {
			break
		}
		i += k
		if isSpace(s[i+1]) {
			next = i + 2
			for next < len(s) && isSpace(s[next]) {
				next++
			}
			return i + 1, next
		}
		i++
	}
	return len(s), len(s)
}

func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\t' || c == '\r' }

// Lookup returns the analysis of s by a if one of the last Recent texts
// analysed was s.
func Lookup(a *text.Analyzer, s string) (*Text, bool) {
	return recent.get(a, s)
}

// Recent is the number of analysed texts kept: a few sources' worth per
// ingest worker, since the cores handle a source one after the other.
const Recent = 512

// key is what the ring hashes of a text: its analyzer, its length and a
// few of its bytes (hashing whole texts, several times per text analysed,
// cost more than the rest of the bookkeeping). Texts with the same key are
// chained and told apart by comparing them.
type key struct {
	a    *text.Analyzer
	n    int
	head [2]uint64 // the first 16 bytes
	mid  uint64    // 8 bytes from the middle
	tail [2]uint64 // the last 16 bytes
}

// word returns up to 8 bytes of s from s[i], little-endian.
func word(s string, i int) uint64 {
	var w uint64
	for j := 0; j < 8 && i+j < len(s); j++ {
		w |= uint64(s[i+j]) << (8 * j)
	}
	return w
}

func keyOf(a *text.Analyzer, s string) key {
	n := len(s)
	k := key{a: a, n: n}
	k.head = [2]uint64{word(s, 0), word(s, 8)}
	if n > 32 {
		k.mid = word(s, n/2-4)
		k.tail = [2]uint64{word(s, n-16), word(s, n-8)}
	}
	return k
}

// slot holds one text of the ring.
type slot struct {
	k    key
	s    string
	t    *Text
	next int32 // the next slot with the same key, or -1
}

// ring is a FIFO-bounded table of the last Recent texts analysed.
type ring struct {
	mu    sync.Mutex
	m     map[key]int32 // key -> first slot of its chain
	slots []slot
	next  int // the slot to reuse next, once all are used
}

var recent = ring{m: make(map[key]int32, Recent)}

// find returns the slot holding s, or -1.
func (r *ring) find(k key, s string) int32 {
	i, ok := r.m[k]
	if !ok {
		return -1
	}
	for ; i >= 0; i = r.slots[i].next {
		if r.slots[i].s == s {
			return i
		}
	}
	return -1
}

func (r *ring) get(a *text.Analyzer, s string) (*Text, bool) {
	k := keyOf(a, s)
	r.mu.Lock()
	defer r.mu.Unlock()
	if i := r.find(k, s); i >= 0 {
		return r.slots[i].t, true
	}
	return nil, false
}

func (r *ring) put(a *text.Analyzer, s string, t *Text) {
	k := keyOf(a, s)
	r.mu.Lock()
	defer r.mu.Unlock()
	if i := r.find(k, s); i >= 0 {
		r.slots[i].t = t
		return
	}
	var i int32
	if len(r.slots) < Recent {
		i = int32(len(r.slots))
		r.slots = append(r.slots, slot{})
	} else {
		i = int32(r.next)
		r.next = (r.next + 1) % Recent
		r.unlink(i)
	}
	head, ok := r.m[k]
	if !ok {
		head = -1
	}
	r.slots[i] = slot{k: k, s: s, t: t, next: head}
	r.m[k] = i
}

// unlink takes slot i out of its key's chain.
func (r *ring) unlink(i int32) {
	sl := &r.slots[i]
	head := r.m[sl.k]
	switch {
	case head == i && sl.next < 0:
		delete(r.m, sl.k)
	case head == i:
		r.m[sl.k] = sl.next
	default:
		p := head
		for r.slots[p].next != i {
			p = r.slots[p].next
		}
		r.slots[p].next = sl.next
	}
	*sl = slot{}
}
