package bm25

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"
	"testing"
)

// readerTerm is the lookup blockTerm replaces: a blockReader walk.
func readerTerm(v []byte, term string) ([]byte, bool) {
	r := newBlockReader(v)
	for {
		t, post, ok := r.next()
		if !ok {
			break
		}
		if string(t) == term {
			return post, true
		} else if string(t) > term {
			return nil, true
		}
	}
	return nil, !r.d.Bad
}

func TestBlockTerm(t *testing.T) {
	var terms []string
	for i := range 300 {
		terms = append(terms, fmt.Sprintf("%c%03d", 'b'+i%7*3, i)) // sorted below
	}
	terms = append(terms, "")
	slices.Sort(terms)
	var body []byte
	for i, term := range terms {
		body = binary.AppendUvarint(body, uint64(len(term)))
		body = append(body, term...)
		post := bytes.Repeat([]byte{byte(i)}, i%200) // some lengths need two bytes
		body = binary.AppendUvarint(body, uint64(len(post)))
		body = append(body, post...)
	}
	block := append(binary.AppendUvarint(nil, uint64(len(terms))), body...)
	probes := append([]string{"a", "zzz", "b0005", "e", "c"}, terms...)
	for _, p := range probes {
		want, wantOK := readerTerm(block, p)
		got, ok := blockTerm(block, p)
		if ok != wantOK || !bytes.Equal(got, want) || (got == nil) != (want == nil) {
			t.Fatalf("blockTerm(%q) = %v, %v; want %v, %v", p, got, ok, want, wantOK)
		}
	}
	if got, ok := blockTerm(block, terms[5]); !ok || len(got) != 5 {
		t.Fatalf("blockTerm(%q) = %d bytes, %v; want 5 bytes", terms[5], len(got), ok)
	}
	// Cut blocks: corrupt before the term is reached, found before the cut.
	for cut := 0; cut < len(block); cut += 97 {
		for _, p := range []string{terms[0], terms[150], "zzz"} {
			want, wantOK := readerTerm(block[:cut], p)
			got, ok := blockTerm(block[:cut], p)
			if ok != wantOK || !bytes.Equal(got, want) {
				t.Fatalf("cut %d: blockTerm(%q) = %v, %v; want %v, %v", cut, p, got, ok, want, wantOK)
			}
		}
	}
}
