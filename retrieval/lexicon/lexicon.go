package lexicon

import (
	_ "embed"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
)

// Kind is how a relative relates to a term, strongest first.
type Kind uint8

const (
	// Synonym: a lemma of one of the term's senses.
	Synonym Kind = iota
	// Derived: a derivationally related form, pertainym or participle of
	// the term ("executable" and "execute" share a term already;
	// "processor" and "process" do not).
	Derived
	// Broader: a lemma of a direct hypernym of one of the term's senses
	// (or, for adjectives, of a similar adjective).
	Broader
)

// Relative is one term related to another.
type Relative struct {
	Term string
	Kind Kind
	// Rank is the relative's place among the term's relatives of its
	// kind, 0 first: earlier relatives come from more frequent senses.
	Rank int
}

// PartOfSpeech is a set of parts of speech.
type PartOfSpeech uint8

const (
	Noun PartOfSpeech = 1 << iota
	Verb
	Adjective
	Adverb
)

// embedded is the table in its compact form (see Compile), made from
// wordnet.tsv.gz. It is read where it lies in the binary: nothing is
// decompressed or copied, and only the pages a lookup touches are read in.
//
//go:embed wordnet.bin
var embedded string

var (
	once sync.Once
	tab  *table
	bad  error
)

func load() { tab, bad = readTable(embedded) }

// Related returns the relatives of an analysed term, strongest first, or
// nil when the table has none (or cannot be read: see Err).
func Related(term string) []Relative {
	once.Do(load)
	if bad != nil {
		return nil
	}
	return tab.related(term)
}

// PartsOfSpeech returns the parts of speech an analysed term has a sense
// in (of any of the lemmas it is the term of: "nest" of "nest" and
// "nested"), and those of them it has the most senses in (several on a
// tie); both are empty for a term the table does not know.
func PartsOfSpeech(term string) (all, main PartOfSpeech) {
	once.Do(load)
	if bad != nil {
		return 0, 0
	}
	return tab.partsOfSpeech(term)
}

// HasVerbSense reports whether the analysed term has a sense as a verb
// (PartsOfSpeech holds Verb): "stop" does, "ad" does not.
func HasVerbSense(term string) bool {
	all, _ := PartsOfSpeech(term)
	return all&Verb != 0
}

// Senses returns the number of senses an analysed term has over all its
// parts of speech (of any of the lemmas it is the term of: "cut" as a
// noun, a verb, an adjective and an adverb, 84), at most 255; 0 for a term
// the table does not know. A word of many senses names a different thing
// in each of many contexts ("turn", "run", "cut"); one of few names one
// thing.
func Senses(term string) int {
	once.Do(load)
	if bad != nil {
		return 0
	}
	return tab.senses(term)
}

// Err reports a table that could not be read (a build that embedded a
// damaged file); Related then returns nothing.
func Err() error {
	once.Do(load)
	return bad
}

// table is a view of the compact form. readTable checks its header and
// section sizes only; every lookup checks the offsets and numbers it reads
// and treats one out of range as a term without relatives, so a damaged
// table cannot make a lookup fail.
type table struct {
	wordEnd, relEnd, rel string // sections of little-endian uint32s
	pos, nSenses         string // a byte per row each
	words                string
	nWords, nRows        int
}

// readTable reads the header of a table in compact form.
func readTable(b string) (*table, error) {
	if !strings.HasPrefix(b, magic) || len(b) < headerSize {
		return nil, errors.New("lexicon: not a compact relation table")
	}
	w, r, n := le32(b, len(magic)/4), le32(b, len(magic)/4+1), le32(b, len(magic)/4+2)
	if r > w || w > maxWords || n > maxRels {
		return nil, fmt.Errorf("lexicon: bad header (%d words, %d rows, %d relatives)", w, r, n)
	}
	nWords, nRows, nRels := int(w), int(r), int(n)
	if room := (len(b) - headerSize) / 4; nWords > room || nRows > room-nWords || nRels > room-nWords-nRows {
		return nil, errors.New("lexicon: table is truncated")
	}
	t := &table{nWords: nWords, nRows: nRows}
	rest := b[headerSize:]
	take := func(n int) (string, bool) {
		if n > len(rest) {
			return "", false
		}
		s := rest[:n]
		rest = rest[n:]
		return s, true
	}
	var ok1, ok2, ok3, ok4, ok5 bool
	t.wordEnd, ok1 = take(4 * nWords)
	t.relEnd, ok2 = take(4 * nRows)
	t.rel, ok3 = take(4 * nRels)
	t.pos, ok4 = take(nRows)
	t.nSenses, ok5 = take(nRows)
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 {
		return nil, errors.New("lexicon: table is truncated")
	}
	size := 0
	if nWords > 0 {
		size = int(le32(t.wordEnd, nWords-1))
	}
	if size != len(rest) {
		return nil, fmt.Errorf("lexicon: words take %d bytes, the table holds %d", size, len(rest))
	}
	t.words = rest
	return t, nil
}

// le32 returns the i-th little-endian uint32 of s.
func le32(s string, i int) uint32 {
	j := 4 * i
	return uint32(s[j]) | uint32(s[j+1])<<8 | uint32(s[j+2])<<16 | uint32(s[j+3])<<24
}

// word returns word i, or false for a number or offsets out of range.
func (t *table) word(i uint32) (string, bool) {
	if int64(i) >= int64(t.nWords) {
		return "", false
	}
	start := uint32(0)
	if i > 0 {
		start = le32(t.wordEnd, int(i)-1)
	}
	end := le32(t.wordEnd, int(i))
	if start > end || int64(end) > int64(len(t.words)) {
		return "", false
	}
	return t.words[start:end], true
}

// row returns the row of term.
func (t *table) row(term string) (int, bool) {
	// Row i is the row of word i; rows are sorted by their word.
	return sort.Find(t.nRows, func(i int) int {
		w, _ := t.word(uint32(i))
		return strings.Compare(term, w)
	})
}

func (t *table) partsOfSpeech(term string) (all, main PartOfSpeech) {
	i, found := t.row(term)
	if !found {
		return 0, 0
	}
	b := t.pos[i]
	return PartOfSpeech(b & 0xf), PartOfSpeech(b >> 4)
}

func (t *table) senses(term string) int {
	i, found := t.row(term)
	if !found {
		return 0
	}
	return int(t.nSenses[i])
}

func (t *table) related(term string) []Relative {
	i, found := t.row(term)
	if !found {
		return nil
	}
	start := uint32(0)
	if i > 0 {
		start = le32(t.relEnd, i-1)
	}
	end := le32(t.relEnd, i)
	if start >= end || int64(end) > int64(len(t.rel)/4) {
		return nil
	}
	out := make([]Relative, 0, end-start)
	for j := start; j < end; j++ {
		r := le32(t.rel, int(j))
		k := Kind(r & 3)
		w, ok := t.word(r >> 2)
		if !ok || k > Broader {
			return nil
		}
		rank := 0
		if n := len(out); n > 0 && out[n-1].Kind == k {
			rank = out[n-1].Rank + 1
		}
		out = append(out, Relative{Term: w, Kind: k, Rank: rank})
	}
	return out
}
