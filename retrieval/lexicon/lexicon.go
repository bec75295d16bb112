package lexicon

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"fmt"
	"io"
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

//go:embed wordnet.tsv.gz
var embedded []byte

// table is the decompressed relation table: one row per term,
// "term<TAB>K:rel rel ...<TAB>...", K one of S, D, H, rows sorted by term
// (bytewise). Rows are found by binary search and read when asked for, so
// loading costs one decompression and one pass over the line ends.
type table struct {
	data   []byte
	starts []uint32 // offset of each row
}

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

// Err reports a table that could not be read (a build that embedded a
// damaged file); Related then returns nothing.
func Err() error {
	once.Do(load)
	return bad
}

// readTable decompresses the table and indexes its rows, checking that
// each has a term and relatives and that the terms are sorted.
func readTable(b []byte) (*table, error) {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("lexicon: %w", err)
	}
	defer zr.Close()
	data, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("lexicon: %w", err)
	}
	if len(data) > 1<<31 {
		return nil, fmt.Errorf("lexicon: table of %d bytes is too large", len(data))
	}
	t := &table{data: data, starts: make([]uint32, 0, bytes.Count(data, []byte{'\n'})+1)}
	var prev []byte
	for off, n := 0, 1; off < len(data); n++ {
		end := bytes.IndexByte(data[off:], '\n')
		if end < 0 {
			end = len(data) - off
		}
		line := data[off : off+end]
		tabAt := bytes.IndexByte(line, '\t')
		if tabAt <= 0 || tabAt == len(line)-1 {
			return nil, fmt.Errorf("lexicon: line %d: want a term and its relatives", n)
		}
		if key := line[:tabAt]; prev != nil && bytes.Compare(prev, key) >= 0 {
			return nil, fmt.Errorf("lexicon: line %d: terms out of order", n)
		} else {
			prev = key
		}
		t.starts = append(t.starts, uint32(off))
		off += end + 1
	}
	return t, nil
}

// line returns row i without its newline.
func (t *table) line(i int) []byte {
	l := t.data[t.starts[i]:]
	if j := bytes.IndexByte(l, '\n'); j >= 0 {
		l = l[:j]
	}
	return l
}

func (t *table) related(term string) []Relative {
	i := sort.Search(len(t.starts), func(i int) bool {
		l := t.line(i)
		return string(l[:bytes.IndexByte(l, '\t')]) >= term
	})
	if i == len(t.starts) {
		return nil
	}
	l := t.line(i)
	k := bytes.IndexByte(l, '\t')
	if string(l[:k]) != term {
		return nil
	}
	rel, err := parseRow(string(l[k+1:]))
	if err != nil {
		return nil
	}
	return rel
}

// parseRow reads a row's relatives: tab-separated groups "K:rel rel ...".
func parseRow(s string) ([]Relative, error) {
	var rel []Relative
	for _, f := range strings.Split(s, "\t") {
		if len(f) < 3 || f[1] != ':' {
			return nil, fmt.Errorf("lexicon: bad group %q", f)
		}
		var k Kind
		switch f[0] {
		case 'S':
			k = Synonym
		case 'D':
			k = Derived
		case 'H':
			k = Broader
		default:
			return nil, fmt.Errorf("lexicon: unknown kind %q", f[:1])
		}
		for i, t := range strings.Fields(f[2:]) {
			rel = append(rel, Relative{Term: t, Kind: k, Rank: i})
		}
	}
	return rel, nil
}
