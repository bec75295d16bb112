package hdc

import (
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin/text"
	"github.com/mrpvm/mrpvm/retrieval/analysis"
)

// Encoder turns text into hypervectors. A text is the majority bundle of
// its terms' symbol vectors, each bound to one of 16 position vectors when
// Positions is set (position i mod 16), plus, when Pairs is set, the
// binding of every two adjacent terms (the second rotated, so that order
// matters). The zero Encoder uses text.English() and terms alone.
type Encoder struct {
	Analyzer  *text.Analyzer
	Pairs     bool
	Positions bool
}

// NumPositions is the number of position vectors.
const NumPositions = 16

var positions = func() (p [NumPositions]Vector) {
	for i := range p {
		p[i] = Symbol("\x00hdc:pos:" + strconv.Itoa(i))
	}
	return p
}()

func (e *Encoder) analyzer() *text.Analyzer {
	if e.Analyzer != nil {
		return e.Analyzer
	}
	return text.English()
}

// termSeedBase is the FNV-1a state after "t:", the prefix of term symbols.
var termSeedBase = fnv1a(fnvOffset, "t:")

// termSeed returns Seed("t:" + term). Term vectors are generated where
// they are used rather than cached: expanding a seed (64 independent
// splitmix64 steps) costs less than a shared map lookup and copy.
func termSeed(term string) uint64 { return fnv1a(termSeedBase, term) }

// Terms returns the main terms of s (compound parts are left out: the
// compound itself stands for them). The slice may be shared: do not modify
// it.
func (e *Encoder) Terms(s string) []string {
	if t, ok := analysis.Lookup(e.analyzer(), s); ok {
		// Analysed moments ago for the BM25 index of the same KU.
		return t.Main
	}
	var terms []string
	e.analyzer().Each(s, func(t text.Token) {
		if !t.Part {
			terms = append(terms, t.Term)
		}
	})
	return terms
}

var bundlePool = sync.Pool{New: func() any { return new(Bundle) }}

// Text encodes a text.
func (e *Encoder) Text(s string) Vector {
	b := bundlePool.Get().(*Bundle)
	defer bundlePool.Put(b)
	return e.Encode(e.Terms(s), nil, b)
}

// Encode bundles terms into a vector, weighting each term by weight(term)
// when weight is set (weights below 1 drop the term). b is scratch space.
func (e *Encoder) Encode(terms []string, weight func(string) int, b *Bundle) Vector {
	b.Reset()
	if weight == nil && e.Positions && e.Pairs {
		b.addPositionsPairs(terms)
		return b.Majority(&tieVector)
	}
	var vs [2]Vector
	v, prev := &vs[0], &vs[1]
	for i, t := range terms {
		w := 1
		if weight != nil {
			w = weight(t)
		}
		Random(termSeed(t), v)
		if w > 0 {
			switch {
			case !e.Positions:
				b.AddWeighted(v, w)
			case w == 1:
				b.AddXor(v, &positions[i%NumPositions], 0)
			default:
				item := Bind(v, &positions[i%NumPositions])
				b.AddWeighted(&item, w)
			}
		}
		if e.Pairs && i > 0 {
			// prev XOR (v rotated by one word).
			b.AddXor(prev, v, 1)
		}
		v, prev = prev, v
	}
	return b.Majority(&tieVector)
}

// Unit holds the hypervectors of one KU: topic and content (claim,
// procedure and text body) are encoded; the role and the utility acts are
// symbols, kept as codes and expanded on demand.
type Unit struct {
	ID      string
	Role    uint8  // 0 none, i+1 for kus.Roles[i]
	Acts    uint16 // bit i for kus.Acts[i]
	Topic   Vector
	Content Vector
}

// RoleVector returns the vector of a role code (zero for none): the
// encoding of the role's name, in the same term space as queries.
func (e *Encoder) RoleVector(code uint8) Vector {
	if code == 0 || int(code) > len(kus.Roles) {
		return Vector{}
	}
	return e.Text(kus.Roles[code-1])
}

// ActsVector returns the bundle of the acts in mask (zero for none).
func (e *Encoder) ActsVector(mask uint16) Vector {
	var terms []string
	for i, a := range kus.Acts {
		if mask&(1<<i) != 0 {
			terms = append(terms, e.Terms(a)...)
		}
	}
	if len(terms) == 0 {
		return Vector{}
	}
	var b Bundle
	return e.Encode(terms, nil, &b)
}

// EncodeUnits encodes the KUs of one source. Leaves are encoded from their
// text; an aggregate (summary or section) whose children are among units
// gets as content the majority bundle of its children's content vectors —
// the VSA reading of "a summary of its children" — and its own text only
// when it has no such children.
func (e *Encoder) EncodeUnits(units []*kus.KU) []Unit {
	return e.encodeUnitsInto(nil, units)
}

// record returns the stored form of the units' vectors, encoding them in
// pooled scratch space.
func (e *Encoder) record(units []*kus.KU) []byte {
	sp := unitsPool.Get().(*[]Unit)
	*sp = e.encodeUnitsInto(*sp, units)
	b := encodeUnits(*sp)
	unitsPool.Put(sp)
	return b
}

var unitsPool = sync.Pool{New: func() any { return new([]Unit) }}

// encodeUnitsInto is EncodeUnits writing into dst's memory.
func (e *Encoder) encodeUnitsInto(dst []Unit, units []*kus.KU) []Unit {
	b := bundlePool.Get().(*Bundle)
	defer bundlePool.Put(b)
	memo := make(textMemo, 4)
	byID := make(map[string]int, len(units))
	var kept []*kus.KU
	for _, u := range units {
		if u != nil {
			byID[u.ID] = len(kept)
			kept = append(kept, u)
		}
	}
	// out is not resized below: memo points into it.
	out := slices.Grow(dst[:0], len(kept))[:len(kept)]
	done := make([]bool, len(kept))
	var visit func(i int, depth int)
	visit = func(i int, depth int) {
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
		e.encodeHead(&out[i], u, memo, b)
		if len(children) == 0 {
			parts, n := contentParts(u)
			e.memoText(&out[i].Content, parts, n, memo, b)
			return
		}
		b.Reset()
		for _, j := range children {
			if out[j].Content != (Vector{}) {
				b.Add(&out[j].Content)
			}
		}
		out[i].Content = b.Majority(&tieVector)
	}
	for i := range kept {
		visit(i, 0)
	}
	return out
}

// textMemo points to the vectors of the texts of one source already
// encoded (a source's summary repeats its leaves' text), keyed by the
// parts of the text (see contentParts; a topic is a text of one part).
type textMemo map[[3]string]*Vector

// EncodeUnit encodes one KU from its own text (an aggregate included).
func (e *Encoder) EncodeUnit(u *kus.KU) Unit {
	b := bundlePool.Get().(*Bundle)
	defer bundlePool.Put(b)
	var out Unit
	e.encodeHead(&out, u, nil, b)
	parts, n := contentParts(u)
	e.memoText(&out.Content, parts, n, nil, b)
	return out
}

// encodeHead sets everything in out but the content.
func (e *Encoder) encodeHead(out *Unit, u *kus.KU, memo textMemo, b *Bundle) {
	*out = Unit{ID: u.ID, Role: roleCode(u.Role)}
	for _, a := range u.UtilityActs {
		for i, known := range kus.Acts {
			if strings.EqualFold(a, known) {
				out.Acts |= 1 << i
			}
		}
	}
	topic := u.Topic
	if topic == "" {
		topic = u.Title
	}
	e.memoText(&out.Topic, [3]string{topic}, 1, memo, b)
}

// memoText sets *dst to the vector of the text made of parts[:n] joined by
// newlines, from memo (which may be nil) when it has it; otherwise memo
// (if any) gets dst, which must stay valid and unchanged while memo is used.
func (e *Encoder) memoText(dst *Vector, parts [3]string, n int, memo textMemo, b *Bundle) {
	if n == 0 || n == 1 && parts[0] == "" {
		*dst = Vector{}
		return
	}
	if v, ok := memo[parts]; ok {
		*dst = *v
		return
	}
	var terms []string
	if n == 1 {
		terms = e.Terms(parts[0])
	} else {
		// The terms of the joined text are the parts' terms one after the
		// other (the analyzer carries nothing across a newline; see
		// TestTermsOfJoinedParts), and the parts were analysed on their
		// own for the BM25 index moments ago.
		for _, p := range parts[:n] {
			terms = append(terms, e.Terms(p)...)
		}
	}
	*dst = e.Encode(terms, nil, b)
	if memo != nil {
		memo[parts] = dst
	}
}

// contentParts returns the texts encoded as a unit's content, to be read
// joined by newlines: claim, procedure and body, each once (a claim
// repeated inside the body is not doubled).
func contentParts(u *kus.KU) (parts [3]string, n int) {
	for _, s := range [...]string{u.Claim, u.Procedure, u.TextBody} {
		if s == "" {
			continue
		}
		dup := false
		for i, p := range parts[:n] {
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
			parts[n] = s
			n++
		}
	}
	return parts, n
}

func roleCode(role string) uint8 {
	for i, r := range kus.Roles {
		if strings.EqualFold(r, role) {
			return uint8(i + 1)
		}
	}
	return 0
}
