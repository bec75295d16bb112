package hdc

import (
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugins/kb/internal/kvtest"
	"github.com/mrpvm/mrpvm/plugins/sdk/text"
)

// The reference encoder below is the definition of the encoding written
// as plainly as possible: analyse the joined content text, generate every
// term's vector from its seed, count every bit in an int and vote. The
// encoder's optimisations (shared analyses, vectors generated inside the
// bundling loop, carry-save counters) must not change a single bit.

func refTerms(a *text.Analyzer, s string) []string {
	var terms []string
	a.Each(s, func(t text.Token) {
		if !t.Part {
			terms = append(terms, t.Term)
		}
	})
	return terms
}

// refContentText is contentText as first written.
func refContentText(u *kus.KU) string {
	var parts []string
	for _, s := range []string{u.Claim, u.Procedure, u.TextBody} {
		if s == "" {
			continue
		}
		dup := false
		for i, p := range parts {
			if strings.Contains(p, s) {
				dup = true
				break
			}
			if strings.Contains(s, p) {
				parts[i], dup = s, true
				break
			}
		}
		if !dup {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, "\n")
}

// refCounter counts the set bits of added vectors bit by bit.
type refCounter struct {
	c [Bits]int
	n int
}

func (r *refCounter) add(v Vector) {
	r.n++
	for i := range Bits {
		if v[i/64]>>(i%64)&1 == 1 {
			r.c[i]++
		}
	}
}

func (r *refCounter) majority() Vector {
	var out Vector
	if r.n == 0 {
		return out
	}
	for i := range Bits {
		bit := r.c[i]*2 > r.n || r.c[i]*2 == r.n && tieVector[i/64]>>(i%64)&1 == 1
		if bit {
			out[i/64] |= 1 << (i % 64)
		}
	}
	return out
}

// refText encodes a text with positions and pairs.
func refText(a *text.Analyzer, s string) Vector {
	var r refCounter
	terms := refTerms(a, s)
	for i, t := range terms {
		v := Symbol("t:" + t)
		pos := Symbol("\x00hdc:pos:" + strconv.Itoa(i%NumPositions))
		r.add(Bind(&v, &pos))
		if i > 0 {
			p := Symbol("t:" + terms[i-1])
			rot := Rotate(&v, 1)
			r.add(Bind(&p, &rot))
		}
	}
	return r.majority()
}

// refEncodeUnits is EncodeUnits over the reference text encoding.
func refEncodeUnits(a *text.Analyzer, units []*kus.KU) []Unit {
	var kept []*kus.KU
	byID := map[string]int{}
	for _, u := range units {
		if u != nil {
			byID[u.ID] = len(kept)
			kept = append(kept, u)
		}
	}
	out := make([]Unit, len(kept))
	done := make([]bool, len(kept))
	enc := func(s string) Vector {
		if s == "" {
			return Vector{}
		}
		return refText(a, s)
	}
	head := func(u *kus.KU) Unit {
		h := Unit{ID: u.ID, Role: roleCode(u.Role)}
		for _, act := range u.UtilityActs {
			for i, known := range kus.Acts {
				if strings.EqualFold(act, known) {
					h.Acts |= 1 << i
				}
			}
		}
		topic := u.Topic
		if topic == "" {
			topic = u.Title
		}
		h.Topic = enc(topic)
		return h
	}
	var visit func(i, depth int)
	visit = func(i, depth int) {
		if done[i] {
			return
		}
		done[i] = true
		u := kept[i]
		var children []int
		if u.KUType == kus.TypeAggregate && depth < 16 {
			for _, c := range u.ChildUnitIDs {
				if j, ok := byID[c]; ok && j != i {
					visit(j, depth+1)
					children = append(children, j)
				}
			}
		}
		out[i] = head(u)
		if len(children) == 0 {
			out[i].Content = enc(refContentText(u))
			return
		}
		var r refCounter
		for _, j := range children {
			if out[j].Content != (Vector{}) {
				r.add(out[j].Content)
			}
		}
		out[i].Content = r.majority()
	}
	for i := range kept {
		visit(i, 0)
	}
	return out
}

// repoDocs parses the Markdown files of this repository: real technical
// text, with context units that have claims and procedures.
func repoDocs(t *testing.T) []*kus.Document {
	t.Helper()
	var docs []*kus.Document
	for _, f := range kvtest.RepoMarkdown(t) {
		if f.Doc != nil {
			docs = append(docs, f.Doc)
		}
	}
	require.NotEmpty(t, docs)
	sort.Slice(docs, func(i, j int) bool { return docs[i].Source.SourceID < docs[j].Source.SourceID })
	return docs
}

// wsDocs returns up to n documents of the benchmark workspace, if any.
func wsDocs(t *testing.T, n int) []*kus.Document {
	if testing.Short() {
		return nil
	}
	if _, err := os.Stat(benchWorkspace()); err != nil {
		return nil
	}
	docs := parseDir(t, benchWorkspace())
	return docs[:min(n, len(docs))]
}

func TestEncodeUnitsMatchesReference(t *testing.T) {
	a := text.English()
	e := DefaultParams().Encoder
	docs := append(repoDocs(t), wsDocs(t, 200)...)
	units, multi := 0, 0
	for _, d := range docs {
		// Half of the sources with their texts analysed by BM25 first (as
		// at ingest), half without.
		if len(d.Units)%2 == 0 {
			analyseLikeBM25(d.Units)
		}
		got := e.EncodeUnits(d.Units)
		want := refEncodeUnits(a, d.Units)
		require.Equal(t, len(want), len(got), d.Source.SourceID)
		for i := range want {
			require.Equal(t, want[i], got[i], "%s unit %s", d.Source.SourceID, want[i].ID)
		}
		// The stored record, encoded in pooled memory that held the
		// previous source's units.
		require.Equal(t, encodeUnits(want), e.record(d.Units), d.Source.SourceID)
		for _, u := range d.Units {
			n := 0
			for _, s := range []string{u.Claim, u.Procedure, u.TextBody} {
				if s != "" {
					n++
				}
			}
			if n > 1 {
				multi++
			}
		}
		units += len(want)
	}
	t.Logf("%d sources, %d units (%d with several content parts)", len(docs), units, multi)
	require.Positive(t, multi, "the texts exercise joined content")
}

// TestTermsOfJoinedParts checks what the content encoding relies on: the
// terms of texts joined by a newline are the texts' terms one after the
// other, whatever the texts end and start with.
func TestTermsOfJoinedParts(t *testing.T) {
	a := text.English()
	edges := []string{"", "x", "kb-", "-", "--", "--flag", "-v", "[e]dit", "e[x]", "[x", "x]", "]", "1,", "000",
		"1.", ".5", "it'", "'s", "’s", "TNF-α", "α", "κB", "x86-64", "snake_", "_case", "東京", "ไทย", "é", "\u0301",
		"word.", "(", "\"", "=", "https://x.y/z", "3.14", "1,000", "v1.2.3"}
	texts := edges
	for _, d := range repoDocs(t) {
		for _, u := range d.Units {
			texts = append(texts, u.Claim, u.Procedure, u.TextBody)
		}
	}
	for i, x := range texts {
		for j, y := range texts {
			if i >= len(edges) && j >= len(edges) && (i+j)%97 != 0 {
				continue // every edge pair, a sample of the real pairs
			}
			if x == "" || y == "" {
				continue
			}
			want := refTerms(a, x+"\n"+y)
			got := append(append([]string(nil), refTerms(a, x)...), refTerms(a, y)...)
			require.Equal(t, want, got, "%q + %q", x, y)
		}
	}
}

// TestRecordConcurrent encodes sources from several goroutines at once
// (as the ingest's parse workers do): the pooled scratch space is never
// shared.
func TestRecordConcurrent(t *testing.T) {
	e := DefaultParams().Encoder
	docs := repoDocs(t)
	want := make([][]byte, len(docs))
	for i, d := range docs {
		want[i] = e.record(d.Units)
	}
	var wg sync.WaitGroup
	got := make([][][]byte, 4)
	for g := range got {
		got[g] = make([][]byte, len(docs))
		wg.Go(func() {
			for i := range docs {
				// Each goroutine starts at another quarter and walks all docs
				// (a stride would skip some when it shares a factor with n).
				k := (i + g*len(docs)/4) % len(docs)
				got[g][k] = e.record(docs[k].Units)
			}
		})
	}
	wg.Wait()
	for g := range got {
		require.Equal(t, want, got[g], "goroutine %d", g)
	}
}
