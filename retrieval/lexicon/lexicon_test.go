package lexicon

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func has(rel []Relative, term string, kind Kind) bool {
	return slices.ContainsFunc(rel, func(r Relative) bool { return r.Term == term && r.Kind == kind })
}

// The embedded table reads, is keyed by analysed terms and holds the
// relations retrieval relies on.
func TestEmbeddedTable(t *testing.T) {
	require.NoError(t, Err())
	assert.True(t, has(Related("capit"), "uppercas", Synonym), "capital letter: uppercase")
	assert.True(t, has(Related("processor"), "cpu", Synonym), "processor: CPU (a sense not in the tagged corpus)")
	assert.True(t, has(Related("run"), "execut", Synonym), "run a program: execute (a late sense)")
	assert.True(t, has(Related("processor"), "process", Derived))
	assert.Nil(t, Related("nosuchtermanywhere"))
	for _, r := range Related("capit") {
		assert.NotEqual(t, "capit", r.Term, "a term is not its own relative")
	}
}

// textTable returns the text form of the table, wordnet.tsv.gz.
func textTable(t *testing.T) []byte {
	gz, err := os.ReadFile("wordnet.tsv.gz")
	require.NoError(t, err)
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	require.NoError(t, err)
	var b bytes.Buffer
	_, err = b.ReadFrom(zr)
	require.NoError(t, err)
	return b.Bytes()
}

// The embedded compact form is what Compile makes of the text form, and
// every row of the text form reads back from it as written: its relatives
// in order, grouped by kind, ranked from 0 within their group.
func TestEmbeddedTableIsTheTextForm(t *testing.T) {
	text := textTable(t)
	var compiled bytes.Buffer
	require.NoError(t, Compile(bytes.NewReader(text), &compiled))
	require.True(t, compiled.String() == embedded, "wordnet.bin is not the compact form of wordnet.tsv.gz: run the generator again (see gen/doc.go)")

	require.NoError(t, Err())
	sc := bufio.NewScanner(bytes.NewReader(text))
	sc.Buffer(nil, maxLine)
	rows := 0
	for sc.Scan() {
		term, want, _ := strings.Cut(sc.Text(), "\t")
		pos := ""
		if i := strings.LastIndex(want, "P:"); i >= 0 {
			want, pos = strings.TrimSuffix(want[:i], "\t"), want[i+2:]
		}
		assert.Equal(t, want, format(Related(term)), term)
		all, main := PartsOfSpeech(term)
		assert.Equal(t, pos, formatPOS(all, main, pos), term)
		assert.Equal(t, senseTotal(pos), Senses(term), term)
		rows++
	}
	require.NoError(t, sc.Err())
	assert.Equal(t, tab.nRows, rows)
}

// format writes relatives back in the text form, checking their ranks.
func format(rel []Relative) string {
	var b strings.Builder
	for i, r := range rel {
		switch {
		case i > 0 && r.Kind == rel[i-1].Kind && r.Rank == rel[i-1].Rank+1:
			b.WriteByte(' ')
		case (i == 0 || r.Kind != rel[i-1].Kind) && r.Rank == 0:
			if i > 0 {
				b.WriteByte('\t')
			}
			b.WriteString(string("SDH"[r.Kind]) + ":")
		default:
			b.WriteString("<bad rank>")
		}
		b.WriteString(r.Term)
	}
	return b.String()
}

// formatPOS checks the parts of speech read back against the sense
// counts of the text form ("n3 a2") and returns the counts when they
// agree.
func formatPOS(all, main PartOfSpeech, counts string) string {
	most := 0
	n := map[PartOfSpeech]int{}
	for f := range strings.FieldsSeq(counts) {
		c, _ := strconv.Atoi(f[1:])
		n[PartOfSpeech(1)<<strings.IndexByte("nvar", f[0])] = c
		most = max(most, c)
	}
	for p := Noun; p <= Adverb; p <<= 1 {
		if (all&p != 0) != (n[p] > 0) || (main&p != 0) != (n[p] == most) {
			return fmt.Sprintf("<read %04b/%04b>", all, main)
		}
	}
	return counts
}

// senseTotal is the number of senses of the sense counts of the text
// form ("n3 a2": 5), at most 255.
func senseTotal(counts string) int {
	n := 0
	for f := range strings.FieldsSeq(counts) {
		c, _ := strconv.Atoi(f[1:])
		n += c
	}
	return min(n, 255)
}

func compile(t *testing.T, text string) (string, error) {
	t.Helper()
	var b bytes.Buffer
	err := Compile(strings.NewReader(text), &b)
	return b.String(), err
}

func TestCompile(t *testing.T) {
	bin, err := compile(t, "capit\tS:uppercas majuscul\tH:charact\nzip\tS:compress zip-fastener\tD:capit\n")
	require.NoError(t, err)
	tab, err := readTable(bin)
	require.NoError(t, err)
	assert.Equal(t, []Relative{{"uppercas", Synonym, 0}, {"majuscul", Synonym, 1}, {"charact", Broader, 0}}, tab.related("capit"))
	assert.Equal(t, []Relative{{"compress", Synonym, 0}, {"zip-fastener", Synonym, 1}, {"capit", Derived, 0}}, tab.related("zip"))
	for _, none := range []string{"capi", "zzz", "", "uppercas", "charact"} {
		assert.Nil(t, tab.related(none), "%q has no row", none)
	}
	for _, bad := range []string{"capit\tP:\n", "capit\tP:x1\n", "capit\tP:n0\n", "capit\tP:n1 n2\n", "capit\tP:n1\tS:a\n", "capit\n", "capit\t\n", "\tS:foo\n", "zip\tS:a\ncapit\tS:b\n", "a\tS:b\na\tS:c\n",
		"capit\tX:foo\n", "capit\tS\n", "capit\tS:\n", "capit\tS:a\tH:b\tS:c\n"} {
		_, err := compile(t, bad)
		assert.Error(t, err, "%q", bad)
	}
}

// A row's parts of speech read back from the compact form: all it has,
// and those it has the most senses in; a row may hold them alone.
func TestCompilePartsOfSpeech(t *testing.T) {
	bin, err := compile(t, "deep\tS:profound\tP:n3 a15 r3\nhuge\tP:a1\npublic\tP:n2 a2\nzip\tS:compress\n")
	require.NoError(t, err)
	tab, err := readTable(bin)
	require.NoError(t, err)
	for term, want := range map[string][2]PartOfSpeech{
		"deep":   {Noun | Adjective | Adverb, Adjective},
		"huge":   {Adjective, Adjective},
		"public": {Noun | Adjective, Noun | Adjective},
		"zip":    {0, 0},
		"nosuch": {0, 0},
	} {
		all, main := tab.partsOfSpeech(term)
		assert.Equal(t, want, [2]PartOfSpeech{all, main}, term)
	}
	assert.Equal(t, []Relative{{"profound", Synonym, 0}}, tab.related("deep"))
	assert.Nil(t, tab.related("huge"), "a row of parts of speech alone has no relatives")
}

// A row's number of senses over its parts of speech reads back from the
// compact form, capped at 255; a row without a "P:" group, and a term
// without a row, has none.
func TestCompileSenses(t *testing.T) {
	bin, err := compile(t, "cut\tS:trim\tP:n30 v41 a12 r1\nhuge\tP:a1\nmany\tP:n200 v100\nzip\tS:compress\n")
	require.NoError(t, err)
	tab, err := readTable(bin)
	require.NoError(t, err)
	for term, want := range map[string]int{"cut": 84, "huge": 1, "many": 255, "zip": 0, "nosuch": 0} {
		assert.Equal(t, want, tab.senses(term), term)
	}
}

// The embedded table counts the senses of a term over its parts of
// speech: "cut" has many, "gorilla" one.
func TestEmbeddedSenses(t *testing.T) {
	assert.Greater(t, Senses("cut"), 40)
	assert.Equal(t, 1, Senses("gorilla"))
	assert.Zero(t, Senses("nosuchtermanywhere"))
}

// The embedded table knows the parts of speech of analysed terms: "ad" is
// only a noun, "huge" mostly an adjective, "stop" a noun and a verb.
func TestEmbeddedPartsOfSpeech(t *testing.T) {
	for term, want := range map[string]PartOfSpeech{"ad": Noun, "stop": Noun | Verb, "deepli": Adverb} {
		all, _ := PartsOfSpeech(term)
		assert.Equal(t, want, all&want, term)
	}
	all, _ := PartsOfSpeech("ad")
	assert.Zero(t, all&Verb, "ad is no verb")
	_, main := PartsOfSpeech("huge")
	assert.Equal(t, Adjective, main&(Noun|Verb|Adjective))
	all, main = PartsOfSpeech("nosuchtermanywhere")
	assert.Zero(t, all|main)
}

// HasVerbSense is whether PartsOfSpeech holds Verb: "stop" has a verb
// sense, "ad" and an unknown term have none.
func TestHasVerbSense(t *testing.T) {
	assert.True(t, HasVerbSense("stop"))
	assert.False(t, HasVerbSense("ad"))
	assert.False(t, HasVerbSense("nosuchtermanywhere"))
}

// A damaged compact table is refused when its header or sizes are wrong,
// and a lookup that meets a number out of range finds nothing rather than
// failing.
func TestReadTableRejectsDamage(t *testing.T) {
	bin, err := compile(t, "capit\tS:uppercas majuscul\tH:charact\nzip\tS:compress\n")
	require.NoError(t, err)
	for name, b := range map[string]string{
		"empty":        "",
		"not a table":  "capit\tS:uppercas\n",
		"truncated":    bin[:len(bin)-1],
		"longer":       bin + "x",
		"header only":  bin[:headerSize],
		"more rows":    bin[:len(magic)+4] + "\x09\x00\x00\x00" + bin[len(magic)+8:],
		"more words":   bin[:len(magic)] + "\xff\x00\x00\x00" + bin[len(magic)+4:],
		"huge counts":  bin[:len(magic)] + "\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff" + bin[headerSize:],
		"cut in words": bin[:len(bin)-3],
	} {
		_, err := readTable(b)
		assert.Error(t, err, name)
	}
	// The first relative of row 0 names word 1000.
	relAt := headerSize + 4*(6+2) // 6 words, 2 rows
	damaged := bin[:relAt] + "\xa0\x0f\x00\x00" + bin[relAt+4:]
	tab, err := readTable(damaged)
	require.NoError(t, err)
	assert.Nil(t, tab.related("capit"))
	assert.Equal(t, []Relative{{"compress", Synonym, 0}}, tab.related("zip"))
}

func BenchmarkRelated(b *testing.B) {
	words := []string{"capit", "processor", "run", "execut", "stop", "nosuch", "archiv", "extract", "file", "compress"}
	require.NoError(b, Err())
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		Related(words[i%len(words)])
	}
}
