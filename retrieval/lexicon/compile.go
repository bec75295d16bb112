package lexicon

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// The compact form of the table, as Compile writes it and the package
// embeds it:
//
//	magic                 "mrpvm-lexicon-2\n"
//	words, rows, rels     three little-endian uint32s: the counts below
//	wordEnd [words]uint32 end of word i in the words section (it starts
//	                      where word i-1 ends)
//	relEnd  [rows]uint32  end of row i's relatives in rel
//	rel     [rels]uint32  a relative: its word number << 2 | its Kind
//	pos     [rows]byte    row i's parts of speech: the PartOfSpeech bits
//	                      it has any sense in, and, shifted left by 4,
//	                      those it has the most senses in
//	senses  [rows]byte    row i's number of senses over all its parts of
//	                      speech, at most 255
//	words                 the words, concatenated
//
// Word i, for i below rows, is the term of row i: the terms come first,
// sorted bytewise, then the words that are only relatives, sorted. A row's
// relatives are in the order of the text form, grouped by kind, so a
// relative's rank is its place in its kind's run.
const magic = "mrpvm-lexicon-3\n"

const (
	headerSize = len(magic) + 12
	maxWords   = 1 << 30 // a word number and a kind share a uint32
	maxRels    = 1 << 30
	maxLine    = 1 << 20 // bounds a row of the text form
)

// Compile reads the relation table in its text form and writes it in the
// compact form the package embeds. The text form has one row per term,
// "term<TAB>K:rel rel ...<TAB>...", K one of S (synonyms), D (derived
// forms) and H (broader terms), each at most once in a row, the relatives
// of a group in rank order, the rows sorted bytewise by term. A row may
// end with a group "P:n3 v1 a2 r1", the number of senses the term has as
// a noun, verb, adjective and adverb (those it has none as left out); a
// row may have that group alone.
func Compile(text io.Reader, w io.Writer) error {
	type rel struct {
		word string
		kind Kind
	}
	var (
		terms  []string
		rows   [][]rel
		parts  []byte
		senses []byte
	)
	sc := bufio.NewScanner(text)
	sc.Buffer(nil, maxLine)
	for n := 1; sc.Scan(); n++ {
		term, rest, ok := strings.Cut(sc.Text(), "\t")
		if !ok || term == "" || rest == "" {
			return fmt.Errorf("lexicon: line %d: want a term and its relatives", n)
		}
		if len(terms) > 0 && term <= terms[len(terms)-1] {
			return fmt.Errorf("lexicon: line %d: terms out of order", n)
		}
		var row []rel
		var seen [Broader + 1]bool
		groups := strings.Split(rest, "\t")
		var pos, count byte
		if last := groups[len(groups)-1]; strings.HasPrefix(last, "P:") {
			p, c, err := parsePOS(last[2:])
			if err != nil {
				return fmt.Errorf("lexicon: line %d: %w", n, err)
			}
			pos, count, groups = p, c, groups[:len(groups)-1]
		}
		for _, g := range groups {
			if len(g) < 3 || g[1] != ':' {
				return fmt.Errorf("lexicon: line %d: bad group %q", n, g)
			}
			k := Kind(strings.IndexByte("SDH", g[0]))
			if k > Broader {
				return fmt.Errorf("lexicon: line %d: unknown kind %q", n, g[:1])
			}
			if seen[k] {
				return fmt.Errorf("lexicon: line %d: kind %q twice", n, g[:1])
			}
			seen[k] = true
			for f := range strings.FieldsSeq(g[2:]) {
				row = append(row, rel{f, k})
			}
		}
		terms = append(terms, term)
		rows = append(rows, row)
		parts = append(parts, pos)
		senses = append(senses, count)
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("lexicon: %w", err)
	}

	id := make(map[string]uint32, len(terms))
	for i, t := range terms {
		id[t] = uint32(i)
	}
	var extra []string
	nRels := 0
	for _, row := range rows {
		nRels += len(row)
		for _, r := range row {
			if _, ok := id[r.word]; !ok {
				id[r.word] = 0
				extra = append(extra, r.word)
			}
		}
	}
	slices.Sort(extra)
	words := append(terms, extra...)
	for i, x := range extra {
		id[x] = uint32(len(terms) + i)
	}
	if len(words) > maxWords || nRels > maxRels {
		return fmt.Errorf("lexicon: %d words and %d relatives are too many", len(words), nRels)
	}

	out := make([]byte, 0, headerSize+4*(len(words)+len(rows)+nRels)+2*len(rows))
	out = append(out, magic...)
	for _, v := range []int{len(words), len(rows), nRels} {
		out = binary.LittleEndian.AppendUint32(out, uint32(v))
	}
	end := 0
	for _, x := range words {
		end += len(x)
		if uint64(end) > math.MaxUint32 {
			return errors.New("lexicon: words too long")
		}
		out = binary.LittleEndian.AppendUint32(out, uint32(end))
	}
	end = 0
	for _, row := range rows {
		end += len(row)
		out = binary.LittleEndian.AppendUint32(out, uint32(end))
	}
	for _, row := range rows {
		for _, r := range row {
			out = binary.LittleEndian.AppendUint32(out, id[r.word]<<2|uint32(r.kind))
		}
	}
	out = append(out, parts...)
	out = append(out, senses...)
	for _, x := range words {
		out = append(out, x...)
	}
	if _, err := w.Write(out); err != nil {
		return fmt.Errorf("lexicon: %w", err)
	}
	return nil
}

// parsePOS reads the sense counts of a "P:" group ("n3 a2") into the
// bytes the compact form stores: the parts of speech with any sense, and,
// shifted left by 4, those with the most; and the number of senses over
// all of them, at most 255.
func parsePOS(g string) (pos, senses byte, err error) {
	var count [4]int
	for f := range strings.FieldsSeq(g) {
		i := strings.IndexByte(posLetters, f[0])
		n, err := strconv.Atoi(f[1:])
		if i < 0 || err != nil || n <= 0 || count[i] != 0 {
			return 0, 0, fmt.Errorf("bad part of speech %q", f)
		}
		count[i] = n
	}
	most := slices.Max(count[:])
	if most == 0 {
		return 0, 0, errors.New("empty parts of speech")
	}
	total := 0
	for i, n := range count {
		if n > 0 {
			pos |= 1 << i
		}
		if n == most {
			pos |= 1 << (4 + i)
		}
		total += n
	}
	return pos, byte(min(total, math.MaxUint8)), nil
}

// posLetters name the parts of speech in the text form, in the order of
// their PartOfSpeech bits.
const posLetters = "nvar"
