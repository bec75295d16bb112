package lexicon

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"fmt"
	"strings"
	"sync"
)

// Kind is how a relative relates to a term, strongest first.
type Kind uint8

const (
	// Synonym: a lemma of one of the term's most frequent senses.
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
var table []byte

var (
	once sync.Once
	rows map[string][]Relative
	bad  error
)

// Related returns the relatives of an analysed term, strongest first, or
// nil when the table has none. The slice is shared: do not modify it.
func Related(term string) []Relative {
	once.Do(load)
	if bad != nil {
		return nil
	}
	return rows[term]
}

func load() { rows, bad = parse(table) }

// Err reports a table that could not be read (a build that embedded a
// damaged file); Related then returns nothing.
func Err() error {
	once.Do(load)
	return bad
}

// parse reads the table: one row per term, "term<TAB>K:rel rel ...<TAB>...",
// K one of S, D, H.
func parse(b []byte) (map[string][]Relative, error) {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("lexicon: %w", err)
	}
	defer zr.Close()
	out := make(map[string][]Relative, 1<<16)
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		fields := strings.Split(sc.Text(), "\t")
		if len(fields) < 2 || fields[0] == "" {
			return nil, fmt.Errorf("lexicon: line %d: want a term and its relatives", n)
		}
		var rel []Relative
		for _, f := range fields[1:] {
			if len(f) < 3 || f[1] != ':' {
				return nil, fmt.Errorf("lexicon: line %d: bad group %q", n, f)
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
				return nil, fmt.Errorf("lexicon: line %d: unknown kind %q", n, f[:1])
			}
			for i, t := range strings.Fields(f[2:]) {
				rel = append(rel, Relative{Term: t, Kind: k, Rank: i})
			}
		}
		out[fields[0]] = rel
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("lexicon: %w", err)
	}
	return out, nil
}
