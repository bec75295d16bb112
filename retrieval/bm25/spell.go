package bm25

import (
	"fmt"
	"hash/maphash"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugin/text"
	"github.com/mrpvm/mrpvm/retrieval/lexicon"
)

// spellVocab is the index's own vocabulary: every indexed term with a
// frequency (the postings it has, counting the units of dead source
// versions still held by segments, which is close enough to rank
// spellings). It answers spelling corrections. A segment never changes
// once written, so its part is built once and kept until the segment is
// merged away; only the delta's part is rebuilt after a write.
type spellVocab struct {
	nonce, gen uint64
	parts      []*vocabPart
}

// vocabPart is the vocabulary of one segment or of the delta.
type vocabPart struct {
	freq  map[string]uint32
	byLen [][]string // terms by rune count (capped), for the distance-2 scan
	// joined maps the term of a hyphenated compound written as one word
	// ("upper-case" as "uppercase", analysed) to the compounds; built on
	// first use by joinedTerms.
	joined map[string][]string
}

// joinedTerms returns the hyphenated compounds of the vocabulary that,
// written as one word, analyse to t (t "uppercas": "upper-case").
// x.vmu is held.
func (v *spellVocab) joinedTerms(a *text.Analyzer, t string) []string {
	var out []string
	for _, p := range v.parts {
		if p.joined == nil {
			p.joined = map[string][]string{}
			for w := range p.freq {
				if !strings.Contains(w, "-") || strings.HasPrefix(w, "-") || strings.HasSuffix(w, "-") {
					continue
				}
				one := strings.ReplaceAll(w, "-", "")
				if !isLetters(one) {
					continue
				}
				if ts := a.Append(nil, one); len(ts) == 1 {
					p.joined[ts[0]] = append(p.joined[ts[0]], w)
				}
			}
		}
		for _, w := range p.joined[t] {
			if !slices.Contains(out, w) {
				out = append(out, w)
			}
		}
	}
	return out
}

func (v *spellVocab) freq(t string) uint32 {
	var n uint32
	for _, p := range v.parts {
		n += p.freq[t]
	}
	return n
}

var vocabSeed = maphash.MakeSeed()

// maxVocabLen caps the term lengths kept in byLen.
const maxVocabLen = 32

func newVocabPart() *vocabPart { return &vocabPart{freq: make(map[string]uint32, 256)} }

// add counts n postings of term t.
func (p *vocabPart) add(t string, n uint32) {
	if _, ok := p.freq[t]; !ok {
		if l := utf8.RuneCountInString(t); l <= maxVocabLen {
			if p.byLen == nil {
				p.byLen = make([][]string, maxVocabLen+1)
			}
			p.byLen[l] = append(p.byLen[l], t)
		}
	}
	p.freq[t] += n
}

// entries counts the entries of a posting list.
func entries(post []byte) uint32 {
	n := uint32(0)
	for rest := post; len(rest) > 0; n++ {
		var ok bool
		if _, _, rest, ok = nextEntry(rest); !ok {
			break
		}
	}
	return n
}

// segVocab builds the vocabulary of segment id.
func segVocab(kv plugin.KV, id uint32) (*vocabPart, error) {
	_, blocks, err := readMeta(kv, id)
	if err != nil {
		return nil, err
	}
	p := newVocabPart()
	for i := range blocks {
		b := kv.Get(segBlockKey(id, uint32(i)))
		if b == nil {
			return nil, fmt.Errorf("%w: segment %d lacks block %d", ErrCorrupt, id, i)
		}
		r := newBlockReader(b)
		for {
			term, post, ok := r.next()
			if !ok {
				break
			}
			p.add(string(term), entries(post))
		}
		if r.d.Bad {
			return nil, fmt.Errorf("%w: segment %d block %d", ErrCorrupt, id, i)
		}
	}
	return p, nil
}

// vocabFor returns the vocabulary of index state st. x.vmu is held.
func (x *Index) vocabFor(kv plugin.KV, st stats) (*spellVocab, error) {
	if v := x.voc; v != nil && v.nonce == st.nonce && v.gen == st.gen {
		return v, nil
	}
	if x.vocNonce != st.nonce || x.vocSegs == nil {
		x.vocNonce, x.vocSegs = st.nonce, map[uint32]*vocabPart{}
	}
	v := &spellVocab{nonce: st.nonce, gen: st.gen}
	live := make(map[uint32]bool, len(st.segs))
	for _, g := range st.segs {
		live[g.id] = true
		p := x.vocSegs[g.id]
		if p == nil {
			var err error
			if p, err = segVocab(kv, g.id); err != nil {
				return nil, err
			}
			x.vocSegs[g.id] = p
		}
		v.parts = append(v.parts, p)
	}
	for id := range x.vocSegs {
		if !live[id] {
			delete(x.vocSegs, id)
		}
	}
	// The delta's part is rebuilt only when one of its records changed
	// (a write elsewhere, a session's units, bumps the generation too).
	h := maphash.Hash{}
	h.SetSeed(vocabSeed)
	recs := make([][]byte, len(st.delta))
	for i, src := range st.delta {
		recs[i] = kv.Get(recordKey(src))
		h.WriteString(src)
		h.WriteByte(0)
		h.Write(recs[i])
	}
	delta := x.vocDelta
	if sum := h.Sum64(); delta == nil || x.vocDeltaSum != sum {
		delta = newVocabPart()
		for _, b := range recs {
			if b == nil {
				continue
			}
			rec, err := decodeRecord(b)
			if err != nil {
				return nil, err
			}
			for i, t := range rec.terms {
				delta.add(t, max(entries(rec.entries[i]), 1))
			}
		}
		x.vocDelta, x.vocDeltaSum = delta, sum
	}
	v.parts = append(v.parts, delta)
	x.voc = v
	return v, nil
}

// Correction is one query word replaced by a spelling the index knows.
type Correction struct {
	Word, As string // the word as typed, and what was searched instead
}

// Correct returns query with each word the index does not know replaced by
// the closest spelling it does know, and the replacements made. A word is
// replaced only when it is plain letters (a possessive's noun counts
// without its "'s"), at least four of them, none of
// its terms is indexed and it is not a real word the knowledge base speaks
// of in other words (realWord); the replacement is the most frequent indexed term
// within one edit (a deletion, insertion, substitution or swap of adjacent
// letters) of the word, a substitution by a letter not next to the typed
// one on the keyboard counting at a tenth of its frequency; for words of
// seven letters or more, a term within two edits that shares the word's
// first letter is taken when there is none within one, or when it is
// fifty times as frequent as the best within one. The replacement keeps the typed word's surface form when one
// edit of the word analyses to the indexed term ("fiel" -> "file"), and is
// the indexed term itself otherwise. A word of three letters is only read
// as a swap into one of the commonest words ("teh" as "the"), when
// neither the index nor the general lexicon knows it.
func (x *Index) Correct(kv plugin.KV, query string) (string, []Correction, error) {
	st, ok, err := readStats(kv)
	if err != nil {
		return query, nil, fmt.Errorf("bm25: correct: %w", err)
	}
	if !ok || st.units == 0 {
		return query, nil, nil
	}
	words := strings.FieldsFunc(query, func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' })
	var todo []string
	var short []Correction // three-letter words and the common word a swap makes of them
	for _, w := range words {
		if len(w) == 3 && isLetters(w) {
			if c := commonSwap(x.p.Analyzer, strings.ToLower(w)); c != "" && len(x.p.Analyzer.Append(nil, w)) == 1 {
				short = append(short, Correction{Word: w, As: c})
			}
			continue
		}
		// A possessive is corrected in its noun ("pluign's": "plugin's").
		if n, ok := strings.CutSuffix(w, "'s"); ok && !strings.Contains(n, "'") {
			w = n
		}
		if len(w) >= 4 && isLetters(w) && len(x.p.Analyzer.Append(nil, w)) > 0 {
			todo = append(todo, w)
		}
	}
	if len(todo) == 0 && len(short) == 0 {
		return query, nil, nil
	}
	x.vmu.Lock()
	defer x.vmu.Unlock()
	v, err := x.vocabFor(kv, st)
	if err != nil {
		return query, nil, fmt.Errorf("bm25: correct: %w", err)
	}
	var fixes []Correction
	var loose []string // real words only loosely tied to the index
	// A three-letter word is read only as a swap into one of the
	// commonest words ("teh", "adn"), when neither the index nor the
	// language knows it ("nad" stays where the index holds NAD).
	for _, f := range short {
		t := x.p.Analyzer.Append(nil, f.Word)[0]
		if all, _ := lexicon.PartsOfSpeech(t); v.freq(t) == 0 && all == 0 {
			fixes = append(fixes, f)
		}
	}
	fix := func(w string) {
		if as := v.correct(x.p.Analyzer, strings.ToLower(w)); as != "" {
			fixes = append(fixes, Correction{Word: w, As: as})
		}
	}
	for _, w := range todo {
		terms := x.p.Analyzer.Append(nil, w)
		if slices.ContainsFunc(terms, func(t string) bool { return v.freq(t) > 0 }) || x.contraction(w) {
			continue
		}
		switch v.realWord(terms) {
		case closelyTied:
			continue
		case looselyTied:
			loose = append(loose, w)
			continue
		}
		fix(w)
	}
	// A query with a slip in it was typed in haste: a word of it that is
	// tied to the index only through a broader term ("tets", the plural
	// of the holiday Tet, whose hypernym "day" the index holds) is more
	// likely another slip ("test") than a word asked on purpose.
	if len(fixes) > 0 {
		for _, w := range loose {
			fix(w)
		}
	}
	if len(fixes) == 0 {
		return query, nil, nil
	}
	out := query
	for _, f := range fixes {
		out = replaceWord(out, f.Word, f.As)
	}
	return out, fixes, nil
}

// realWord tells whether a word the index does not hold, analysed to
// terms, is still a word of the language the knowledge base is written
// in, and how closely: the lexicon relates one of its terms (as a synonym, a derived form
// or a broader term) to a term the index holds ("edited", in a knowledge base that
// says "change" and "write" but never "edit"). Such a word was typed on
// purpose and is searched as it is (and through its relatives, where a
// kb-plugin expands the query), not turned into a neighbour that only
// looks like it ("edited" into "exited"). A rare word whose relatives the
// knowledge base never uses ("fils", a coin, for "files") is more likely a
// slip than a word asked on purpose, and may be corrected.
// The tie is close when the related term is a synonym or a derived form,
// loose when it is only a broader term (a hypernym names a whole class:
// "day" over the holiday "Tet"). x.vmu is held.
func (v *spellVocab) realWord(terms []string) wordTie {
	tie := untied
	for _, t := range terms {
		for _, r := range lexicon.Related(t) {
			if v.freq(r.Term) == 0 {
				continue
			}
			if r.Kind != lexicon.Broader {
				return closelyTied
			}
			tie = looselyTied
		}
	}
	return tie
}

// wordTie is how a word the index does not hold is tied to words it does
// through the lexicon (realWord).
type wordTie int

const (
	untied wordTie = iota
	looselyTied
	closelyTied
)

// contraction reports whether w is a contraction typed without its
// apostrophe ("whats", "doesnt"): with the apostrophe put back it is a
// word the analyzer drops as common. It is left as typed, not turned into
// a name that looks like it ("whatis").
func (x *Index) contraction(w string) bool {
	for i := 1; i < len(w); i++ {
		if len(x.p.Analyzer.Append(nil, w[:i]+"'"+w[i:])) == 0 {
			return true
		}
	}
	return false
}

func isLetters(w string) bool {
	for _, r := range w {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return true
}

// replaceWord replaces the first whole-word occurrence of w in s.
func replaceWord(s, w, by string) string {
	for from := 0; from < len(s); {
		i := strings.Index(s[from:], w)
		if i < 0 {
			break
		}
		i += from
		j := i + len(w)
		before, _ := utf8.DecodeLastRuneInString(s[:i])
		after, _ := utf8.DecodeRuneInString(s[j:])
		if (i == 0 || !unicode.IsLetter(before)) && (j == len(s) || !unicode.IsLetter(after)) {
			return s[:i] + by + s[j:]
		}
		from = i + 1
	}
	return s
}

const alphabet = "abcdefghijklmnopqrstuvwxyz"

// correct returns the best known spelling of the lower-case word w, or "".
func (v *spellVocab) correct(a *text.Analyzer, w string) string {
	best, bestF, bestKind := "", uint64(0), 0
	// Of the spellings that analyse to terms equally frequent (most
	// often the same term), the one that reads as a word is kept, so that
	// the question reads as searched in a real spelling: one the analyzer
	// keeps as it is ("hidden", not "hiddene", for "hiddne"), then the one
	// the likelier slip explains: two letters swapped, then a letter left
	// out (the candidate inserts it: "environment", not "environent", for
	// "enviroment"), then a letter too many, then a letter mistyped.
	at := 0 // the letter a substitution replaces
	try := func(c string, kind int) {
		terms := a.Append(nil, c)
		if len(terms) != 1 {
			return
		}
		if terms[0] != c {
			kind += 4
		}
		// A letter typed in place of one far from it on the keyboard is
		// a rarer slip than a letter left out, doubled or swapped: such a
		// spelling ranks at a farSubstitution-th of its frequency.
		f := uint64(v.freq(terms[0]))
		if kind&3 != substitution || keyNeighbours(w[at], c[at]) {
			f *= farSubstitution
		}
		if f > bestF || f == bestF && f > 0 && (kind < bestKind || kind == bestKind && c < best) {
			best, bestF, bestKind = c, f, kind
		}
	}
	// A slip in one of the language's commonest words ("waht", "wiht",
	// "shoud"), which the analyzer drops as common, explains the word
	// better than any term of the index: every text uses those words. A
	// word of the language ("form", a swap from "from") is not one.
	// A word of the language that the knowledge base never uses, whose
	// two adjacent letters swapped give one of those commonest words
	// ("dose" for "does"), is that slip too: a swap is the likeliest
	// slip, and the knowledge base offers no reading of the word as typed.
	terms := a.Append(nil, w)
	if len(terms) == 1 {
		if c := commonSwap(a, w); c != "" {
			return c
		}
	}
	if len(terms) == 1 && len(lexicon.Related(terms[0])) == 0 {
		for i := 0; i <= len(w); i++ {
			for _, l := range alphabet {
				if c := w[:i] + string(l) + w[i:]; len(a.Append(nil, c)) == 0 {
					return c
				}
			}
		}
	}
	// One edit of the surface word, each analysed as the index would; the
	// first letter stays (see below), except that it may swap with the
	// second.
	if len(w) > 1 {
		try(string(w[1])+string(w[0])+w[2:], swap)
	}
	for i := 1; i <= len(w); i++ {
		if i < len(w) {
			try(w[:i]+w[i+1:], deletion)
		}
		if i+1 < len(w) {
			try(w[:i]+string(w[i+1])+string(w[i])+w[i+2:], swap)
		}
		for _, c := range alphabet {
			if i < len(w) && byte(c) != w[i] {
				at = i
				try(w[:i]+string(c)+w[i+1:], substitution)
			}
			try(w[:i]+string(c)+w[i:], insertion)
		}
	}
	if utf8.RuneCountInString(w) < 7 {
		return best
	}
	// Two edits, for a long word: taken over the best single edit only
	// when it is a term the knowledge base uses far more often
	// (twoEditFactor times): two slips in one word are much rarer than
	// one, but a spelling one edit away that the knowledge base hardly
	// uses ("procfes", a stem of "procfs", for "procces") explains the
	// word worse than its common neighbour two edits away ("process").
	bestF *= twoEditFactor
	// Two edits: scan the indexed terms of about the word's length (the
	// stemmed form of the word, so that suffixes do not count).
	stem := w
	if ts := a.Append(nil, w); len(ts) == 1 {
		stem = ts[0]
	}
	n := utf8.RuneCountInString(stem)
	for _, p := range v.parts {
		if p.byLen == nil {
			continue
		}
		for l := max(n-2, 1); l <= min(n+2, maxVocabLen); l++ {
			for _, t := range p.byLen[l] {
				// Typing rarely gets the first letter wrong; a word that
				// differs there is more likely a word the knowledge base
				// does not hold than a misspelling of one it does.
				if t[0] != stem[0] || osa(stem, t, 2) > 2 && osa(w, t, 2) > 2 {
					continue
				}
				if f := uint64(v.freq(t)) * farSubstitution; f > bestF {
					best, bestF = t, f
				}
			}
		}
	}
	return best
}

// commonSwap is the word one swap of adjacent letters of w makes that the
// analyzer drops as one of the commonest words ("does" for "dose", "the"
// for "teh"), or "".
func commonSwap(a *text.Analyzer, w string) string {
	for i := 0; i+1 < len(w); i++ {
		if c := w[:i] + string(w[i+1]) + string(w[i]) + w[i+2:]; len(a.Append(nil, c)) == 0 {
			return c
		}
	}
	return ""
}

const (
	swap = iota
	insertion
	deletion
	substitution
)

// farSubstitution divides the frequency of a spelling that replaces a
// letter by one not next to it on a QWERTY keyboard; twoEditFactor is how
// many times more frequent a term two edits away must be than the best one
// edit away to be taken instead.
const (
	farSubstitution = 10
	twoEditFactor   = 50
)

// qwertyRows are the letter rows of a QWERTY keyboard.
var qwertyRows = [3]string{"qwertyuiop", "asdfghjkl", "zxcvbnm"}

// keyNeighbours reports whether letters a and b are the same key or
// touch on a QWERTY keyboard (same row one apart, or an adjacent row
// within one column of the staggered layout). Non-letters are never
// neighbours of a letter.
func keyNeighbours(a, b byte) bool {
	if a == b {
		return true
	}
	ra, ca := keyPos(a)
	rb, cb := keyPos(b)
	if ra < 0 || rb < 0 {
		return false
	}
	switch ra - rb {
	case 0:
		return ca-cb == 1 || cb-ca == 1
	case 1: // a is on the row below b: b's columns ca and ca+1 touch it
		return cb == ca || cb == ca+1
	case -1:
		return ca == cb || ca == cb+1
	}
	return false
}

func keyPos(c byte) (row, col int) {
	for r, s := range qwertyRows {
		if i := strings.IndexByte(s, c); i >= 0 {
			return r, i
		}
	}
	return -1, -1
}

// osa is the optimal string alignment distance of a and b (edits:
// deletion, insertion, substitution, swap of adjacent bytes), or limit+1
// once it exceeds limit.
func osa(a, b string, limit int) int {
	if d := len(a) - len(b); d > limit || -d > limit {
		return limit + 1
	}
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d = min(d, prev2[j-2]+1)
			}
			cur[j] = d
			rowMin = min(rowMin, d)
		}
		if rowMin > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
