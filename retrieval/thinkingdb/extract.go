package thinkingdb

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin/text"
)

// Relation is one of the relation atoms a fact may state (kus.Relations
// names them).
type Relation uint8

// The relation atoms.
const (
	RelNone Relation = iota
	Uses
	Provides
	HasCapability
	DependsOn
	PartOf
	InstanceOf
	RelevantFor
	Supports
	Mentions
	About
	Causes
	numRelations
)

var relationNames = [numRelations]string{"", "uses", "provides", "has_capability", "depends_on", "part_of",
	"instance_of", "relevant_for", "supports", "mentions", "about", "causes"}

func (r Relation) String() string {
	if r < numRelations {
		return relationNames[r]
	}
	return "invalid"
}

// ParseRelation returns the relation named s (as in kus.Relations).
func ParseRelation(s string) Relation {
	s = strings.ToLower(strings.TrimSpace(s))
	for r, n := range relationNames {
		if r > 0 && n == s {
			return Relation(r)
		}
	}
	return RelNone
}

// Fact is one (subject, relation, object) triple with its provenance.
type Fact struct {
	Subject    string   // as written
	Relation   Relation //
	Object     string   // as written
	SubjectKey string   // normalised: the entity's analyzer terms joined by spaces
	ObjectKey  string
	Confidence float64
	KU         string // id of the KU it comes from
	Source     string // id of the KU's source
	Extracted  bool   // taken from text rather than the KU's symbolic fields
}

// cue is a phrase that signals a relation between the noun phrases around it.
type cue struct {
	words   []string
	rel     Relation
	inverse bool // the phrase reads object-first ("is caused by")
	conf    float64
}

// cueList holds the cue phrases.
var cueList = []struct {
	phrase  string
	rel     Relation
	inverse bool
	conf    float64
}{
	{"is a type of", InstanceOf, false, 0.8}, {"is a kind of", InstanceOf, false, 0.8},
	{"is an example of", InstanceOf, false, 0.75}, {"is a", InstanceOf, false, 0.6}, {"is an", InstanceOf, false, 0.6},
	{"are a", InstanceOf, false, 0.55}, {"is one of", InstanceOf, false, 0.55},
	{"is part of", PartOf, false, 0.8}, {"are part of", PartOf, false, 0.8}, {"is a component of", PartOf, false, 0.8},
	{"is a subunit of", PartOf, false, 0.8}, {"belongs to", PartOf, false, 0.7}, {"belong to", PartOf, false, 0.7},
	{"consists of", PartOf, true, 0.7}, {"contains", PartOf, true, 0.6}, {"contain", PartOf, true, 0.6},
	{"depends on", DependsOn, false, 0.8}, {"depend on", DependsOn, false, 0.8}, {"relies on", DependsOn, false, 0.75},
	{"rely on", DependsOn, false, 0.75}, {"requires", DependsOn, false, 0.75}, {"require", DependsOn, false, 0.75},
	{"is required for", DependsOn, true, 0.75}, {"are required for", DependsOn, true, 0.75},
	{"is essential for", DependsOn, true, 0.7}, {"are essential for", DependsOn, true, 0.7},
	{"is dependent on", DependsOn, false, 0.8}, {"are dependent on", DependsOn, false, 0.8},
	{"causes", Causes, false, 0.8}, {"cause", Causes, false, 0.75}, {"caused", Causes, false, 0.7},
	{"is caused by", Causes, true, 0.8}, {"are caused by", Causes, true, 0.8}, {"leads to", Causes, false, 0.75},
	{"lead to", Causes, false, 0.75}, {"led to", Causes, false, 0.7}, {"results in", Causes, false, 0.75},
	{"result in", Causes, false, 0.75}, {"resulted in", Causes, false, 0.7}, {"induces", Causes, false, 0.7},
	{"induce", Causes, false, 0.7}, {"induced", Causes, false, 0.6}, {"triggers", Causes, false, 0.7},
	{"trigger", Causes, false, 0.7}, {"increases", Causes, false, 0.6}, {"increase", Causes, false, 0.55},
	{"increased", Causes, false, 0.5}, {"reduces", Causes, false, 0.6}, {"reduce", Causes, false, 0.55},
	{"reduced", Causes, false, 0.5}, {"decreases", Causes, false, 0.6}, {"inhibits", Causes, false, 0.6},
	{"inhibit", Causes, false, 0.55}, {"prevents", Causes, false, 0.6}, {"suppresses", Causes, false, 0.6},
	{"activates", Causes, false, 0.6}, {"activate", Causes, false, 0.55}, {"regulates", Causes, false, 0.55},
	{"is induced by", Causes, true, 0.7}, {"is inhibited by", Causes, true, 0.6}, {"is regulated by", Causes, true, 0.55},
	{"uses", Uses, false, 0.8}, {"use", Uses, false, 0.7}, {"utilizes", Uses, false, 0.75}, {"employs", Uses, false, 0.7},
	{"is used by", Uses, true, 0.75},
	{"provides", Provides, false, 0.8}, {"provide", Provides, false, 0.75}, {"produces", Provides, false, 0.7},
	{"produce", Provides, false, 0.65}, {"secretes", Provides, false, 0.7}, {"generates", Provides, false, 0.65},
	{"is produced by", Provides, true, 0.7}, {"offers", Provides, false, 0.7},
	{"supports", Supports, false, 0.8}, {"support", Supports, false, 0.7}, {"promotes", Supports, false, 0.7},
	{"promote", Supports, false, 0.65}, {"enhances", Supports, false, 0.65}, {"enables", Supports, false, 0.7},
	{"facilitates", Supports, false, 0.65},
	{"is associated with", RelevantFor, false, 0.6}, {"are associated with", RelevantFor, false, 0.6},
	{"was associated with", RelevantFor, false, 0.55}, {"were associated with", RelevantFor, false, 0.55},
	{"is linked to", RelevantFor, false, 0.6}, {"are linked to", RelevantFor, false, 0.6},
	{"is involved in", RelevantFor, false, 0.6}, {"are involved in", RelevantFor, false, 0.6},
	{"plays a role in", RelevantFor, false, 0.6}, {"play a role in", RelevantFor, false, 0.6},
	{"is important for", RelevantFor, false, 0.55}, {"is relevant for", RelevantFor, false, 0.7},
	{"is used for", RelevantFor, false, 0.65}, {"correlates with", RelevantFor, false, 0.5},
	{"can", HasCapability, false, 0.5}, {"is able to", HasCapability, false, 0.6},
}

// cues are tried longest first at every word.
var cues = buildCues(cueList)

func buildCues(list []struct {
	phrase  string
	rel     Relation
	inverse bool
	conf    float64
}) map[string][]cue {
	m := map[string][]cue{}
	for _, c := range list {
		w := strings.Fields(c.phrase)
		m[w[0]] = append(m[w[0]], cue{words: w, rel: c.rel, inverse: c.inverse, conf: c.conf})
	}
	for k, cs := range m {
		// Longest phrase first.
		for i := 1; i < len(cs); i++ {
			for j := i; j > 0 && len(cs[j].words) > len(cs[j-1].words); j-- {
				cs[j], cs[j-1] = cs[j-1], cs[j]
			}
		}
		m[k] = cs
	}
	return m
}

// boundary words end a noun phrase.
var boundary = map[string]bool{
	"that": true, "which": true, "who": true, "whom": true, "whose": true, "where": true, "when": true,
	"while": true, "whereas": true, "but": true, "although": true, "because": true, "since": true,
	"if": true, "than": true, "however": true, "thus": true, "therefore": true, "and": false,
	"in": true, "on": true, "at": true, "by": true, "for": true, "from": true, "with": true, "without": true,
	"through": true, "via": true, "during": true, "after": true, "before": true, "among": true, "under": true,
	"not": true, "also": true, "may": true, "might": true, "could": true, "would": true, "should": true,
	"to": true, "into": true, "as": true, "we": true, "it": true, "they": true, "this": true, "these": true,
	"there": true, "here": true, "significantly": true, "strongly": true, "directly": true,
}

// maxPhrase bounds a noun phrase in words.
const maxPhrase = 5

// Extractor finds facts in KUs.
type Extractor struct {
	Analyzer *text.Analyzer
}

func (e *Extractor) analyzer() *text.Analyzer {
	if e.Analyzer != nil {
		return e.Analyzer
	}
	return text.English()
}

// Key normalises an entity: its analyzer terms joined by spaces.
func (e *Extractor) Key(s string) string {
	var buf [128]byte
	b := buf[:0]
	e.analyzer().Each(s, func(t text.Token) {
		if t.Part {
			return
		}
		if len(b) > 0 {
			b = append(b, ' ')
		}
		b = append(b, t.Term...)
	})
	return string(b)
}

// Facts returns the facts of a KU: its symbolic fact when it has one,
// otherwise the facts extracted from its claim, procedure and body.
func (e *Extractor) Facts(u *kus.KU) []Fact { return e.facts(u, nil) }

// facts is Facts with the extraction of each text memoised in memo (when
// not nil): the units of one source repeat texts (a summary and its
// section share their claim and body) and begin with others (a summary's
// body is its first leaf's, cut).
func (e *Extractor) facts(u *kus.KU, memo *textMemo) []Fact {
	if u.HasFact() {
		conf := 1.0
		if u.Confidence != nil {
			conf = min(1, max(0, *u.Confidence))
		}
		f := Fact{Subject: u.SymbolicSubject, Relation: ParseRelation(u.SymbolicRelation), Object: u.SymbolicObject,
			Confidence: conf, KU: u.ID}
		f.SubjectKey, f.ObjectKey = e.Key(f.Subject), e.Key(f.Object)
		if f.Relation != RelNone && f.SubjectKey != "" && f.ObjectKey != "" {
			return []Fact{f}
		}
	}
	var out []Fact
	var seen map[[3]string]bool // the keys of out, once it is long
	for _, s := range [...]string{u.Claim, u.Procedure, u.TextBody} {
		if s == "" {
			continue
		}
		var fs []Fact
		if memo != nil {
			fs = memo.facts(e, s)
		} else {
			fs = e.Sentences(s)
		}
		for _, f := range fs {
			k := factKey(&f)
			if seen != nil && seen[k] || seen == nil && hasKey(out, k) {
				continue
			}
			f.KU = u.ID
			f.Extracted = true
			if out == nil {
				out = make([]Fact, 0, len(fs))
			}
			out = append(out, f)
			if seen != nil {
				seen[k] = true
			} else if len(out) == 16 {
				seen = make(map[[3]string]bool, 32)
				for i := range out {
					seen[factKey(&out[i])] = true
				}
			}
		}
	}
	return out
}

// hasKey reports whether a fact of fs has key k.
func hasKey(fs []Fact, k [3]string) bool {
	for i := range fs {
		if factKey(&fs[i]) == k {
			return true
		}
	}
	return false
}

// factKey identifies a fact for deduplication.
func factKey(f *Fact) [3]string { return [3]string{f.SubjectKey, f.Relation.String(), f.ObjectKey} }

// word is a word of a sentence or a punctuation mark ("," etc.): its
// text and the vocabulary code of its lowercased form (0 for a word no
// cue, boundary or determiner names, and for marks).
type word struct {
	raw   string
	code  uint16
	punct bool
}

// The vocabulary: every word of a cue phrase, every boundary word and
// determiner, "and" and "or", numbered from 1 so that matching compares
// numbers instead of strings.
var (
	vocab       = map[string]uint16{}
	vocabWords  = []string{""}
	maxVocabLen int

	isBoundary, isDeterminer []bool // by code
	cuesByCode               [][]codedCue
	codeAnd, codeOr          uint16
)

// codedCue is a cue with its words as vocabulary codes.
type codedCue struct {
	codes []uint16
	*cue
}

func init() {
	add := func(w string) uint16 {
		if c, ok := vocab[w]; ok {
			return c
		}
		c := uint16(len(vocabWords))
		vocab[w] = c
		vocabWords = append(vocabWords, w)
		maxVocabLen = max(maxVocabLen, len(w))
		return c
	}
	for w := range boundary {
		add(w)
	}
	for w := range determiners {
		add(w)
	}
	codeAnd, codeOr = add("and"), add("or")
	for _, cs := range cues {
		for i := range cs {
			for _, w := range cs[i].words {
				add(w)
			}
		}
	}
	n := len(vocabWords)
	isBoundary, isDeterminer = make([]bool, n), make([]bool, n)
	cuesByCode = make([][]codedCue, n)
	for c, w := range vocabWords {
		if c == 0 {
			continue
		}
		isBoundary[c], isDeterminer[c] = boundary[w], determiners[w]
		h := vocabHash(w)
		for vocabTable[h%uint(len(vocabTable))] != 0 {
			h++
		}
		vocabTable[h%uint(len(vocabTable))] = uint16(c)
		for i := range cues[w] {
			cc := codedCue{cue: &cues[w][i]}
			for _, cw := range cues[w][i].words {
				cc.codes = append(cc.codes, vocab[cw])
			}
			cuesByCode[c] = append(cuesByCode[c], cc)
		}
	}
}

// vocabTable is an open-addressing table of the vocabulary for ASCII
// words, probed with vocabHash: cheaper than a map, and no lowercased copy
// of the word is made.
var vocabTable [1024]uint16

// vocabHash hashes an ASCII word as lowercased: its length and three of
// its letters.
func vocabHash(w string) uint {
	n := len(w)
	return (uint(n)*0x9e37 ^ uint(w[0]|0x20)*0x85eb ^ uint(w[n-1]|0x20)*0xc2b5 ^ uint(w[n/2]|0x20)*0x27d5) >> 3
}

// equalLower reports whether the ASCII word raw lowercased is w (lowercase).
func equalLower(raw, w string) bool {
	if len(raw) != len(w) {
		return false
	}
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != w[i] {
			return false
		}
	}
	return true
}

// vocabCode returns the code of raw lowercased (0 when not in the
// vocabulary), without allocating for ASCII words.
func vocabCode(raw string) uint16 {
	for i := 0; i < len(raw); i++ {
		if raw[i] >= utf8.RuneSelf {
			// Lowercasing may change the length (U+212A KELVIN SIGN is k).
			return vocab[strings.ToLower(raw)]
		}
	}
	if len(raw) == 0 || len(raw) > maxVocabLen {
		return 0
	}
	for h := vocabHash(raw); ; h++ {
		c := vocabTable[h%uint(len(vocabTable))]
		if c == 0 || equalLower(raw, vocabWords[c]) {
			return c
		}
	}
}

// Sentences extracts the facts of a text, sentence by sentence (a
// sentence ends at . ! ? ; or a newline).
func (e *Extractor) Sentences(s string) []Fact {
	return e.extract(s, 0, nil, nil)
}

// sentEnd is the end of a sentence in a text: the offset of its mark and
// the number of facts of the text up to it.
type sentEnd struct{ off, facts int }

// extract appends to out the facts of s from offset from, which is 0 or
// just after a sentence's end mark, and to *ends (when ends is not nil) the
// sentence ends it passes.
func (e *Extractor) extract(s string, from int, out []Fact, ends *[]sentEnd) []Fact {
	var arr [64]word
	ws := arr[:0]
	for i := from; i < len(s); {
		w, next, ok := nextWord(s, i)
		switch {
		case !ok:
		case w.punct && strings.IndexByte(".!?;\n", w.raw[0]) >= 0:
			out = e.sentence(out, ws)
			ws = ws[:0]
			if ends != nil {
				*ends = append(*ends, sentEnd{off: i, facts: len(out)})
			}
		default:
			ws = append(ws, w)
		}
		i = next
	}
	return e.sentence(out, ws)
}

// textMemo holds the facts of the texts of one source extracted so far.
// A source has few texts: they are searched one by one.
type textMemo struct {
	texts []textFacts
	ends  []sentEnd // the texts' sentence ends, one after the other
}

type textFacts struct {
	s          string
	facts      []Fact
	start, end int // ends[start:end] are the text's sentence ends
}

var memoPool = sync.Pool{New: func() any { return new(textMemo) }}

// release empties m (keeping its memory) and puts it back in memoPool.
func (m *textMemo) release() {
	clear(m.texts)
	m.texts, m.ends = m.texts[:0], m.ends[:0]
	memoPool.Put(m)
}

// headLen is the least common beginning worth reusing the facts of.
const headLen = 64

// facts returns the facts of s: memoised when s was seen; otherwise the
// facts of the whole sentences s shares with the beginning of a text seen
// (a summary's body is its first leaf's, cut and ended with "…"), then
// those of the rest of s.
func (m *textMemo) facts(e *Extractor, s string) []Fact {
	for i := range m.texts {
		if m.texts[i].s == s {
			return m.texts[i].facts
		}
	}
	var out []Fact
	start := len(m.ends)
	from := 0
	if len(s) >= headLen {
		for i := range m.texts {
			t := &m.texts[i]
			if len(t.s) < headLen || t.s[:headLen] != s[:headLen] {
				continue
			}
			n := text.CommonPrefix(t.s, s)
			// A sentence end of t is one of s when s has the same bytes up
			// to it and as far as the scanner looks past it (the rune after
			// a '.' decides whether it ends a word such as "1.5").
			for j := t.end - 1; j >= t.start; j-- {
				if end := m.ends[j]; end.off+1+utf8.UTFMax <= n {
					if end.off+1 > from {
						out = nil // no facts before this end: nil, as extracting afresh gives
						if end.facts > 0 {
							out = t.facts[:end.facts:end.facts] // appending copies
						}
						m.ends = append(m.ends[:start], m.ends[t.start:j+1]...)
						from = end.off + 1
					}
					break
				}
			}
		}
	}
	out = e.extract(s, from, out, &m.ends)
	m.texts = append(m.texts, textFacts{s: s, facts: out, start: start, end: len(m.ends)})
	return out
}

// sentence appends the facts of one sentence to out: at every cue, the
// noun phrase right before it relates to the noun phrase right after it.
func (e *Extractor) sentence(out []Fact, ws []word) []Fact {
	for i := 0; i < len(ws); i++ {
		if ws[i].punct {
			continue
		}
		for _, c := range cuesByCode[ws[i].code] {
			if !matchAt(ws, i, c.codes) {
				continue
			}
			subj := phraseBefore(ws, i)
			obj := phraseAfter(ws, i+len(c.codes))
			if subj == "" || obj == "" {
				break
			}
			f := Fact{Subject: subj, Relation: c.rel, Object: obj, Confidence: c.conf}
			if c.inverse {
				f.Subject, f.Object = f.Object, f.Subject
			}
			f.SubjectKey, f.ObjectKey = e.Key(f.Subject), e.Key(f.Object)
			if f.SubjectKey != "" && f.ObjectKey != "" && f.SubjectKey != f.ObjectKey {
				out = append(out, f)
			}
			i += len(c.codes) - 1
			break
		}
	}
	return out
}

// matchAt reports whether the words at ws[i:] spell phrase (codes; marks
// have code 0, which no phrase word has).
func matchAt(ws []word, i int, phrase []uint16) bool {
	if i+len(phrase) > len(ws) {
		return false
	}
	for k, p := range phrase {
		if ws[i+k].code != p {
			return false
		}
	}
	return true
}

// phraseBefore returns up to maxPhrase words ending just before ws[i],
// stopping at punctuation, boundary words and other cues.
func phraseBefore(ws []word, i int) string {
	j := i
	for j > 0 && i-j < maxPhrase {
		w := ws[j-1]
		if w.punct || isBoundary[w.code] || startsCue(ws, j-1) {
			break
		}
		j--
	}
	return joinRaw(ws[j:i])
}

// startsCue reports whether a cue phrase starts at ws[i].
func startsCue(ws []word, i int) bool {
	for _, c := range cuesByCode[ws[i].code] {
		if matchAt(ws, i, c.codes) {
			return true
		}
	}
	return false
}

// phraseAfter returns up to maxPhrase words starting at ws[i], skipping a
// leading determiner.
func phraseAfter(ws []word, i int) string {
	for i < len(ws) && !ws[i].punct && isDeterminer[ws[i].code] {
		i++
	}
	j := i
	for j < len(ws) && j-i < maxPhrase {
		w := ws[j]
		if w.punct || isBoundary[w.code] || startsCue(ws, j) {
			break
		}
		j++
	}
	return joinRaw(ws[i:j])
}

var determiners = map[string]bool{"a": true, "an": true, "the": true, "its": true, "their": true, "this": true,
	"these": true, "that": true, "those": true, "some": true, "both": true}

// joinRaw joins the words as written, separated by spaces, leaving out
// leading determiners and dangling conjunctions.
func joinRaw(ws []word) string {
	for len(ws) > 0 && isDeterminer[ws[0].code] {
		ws = ws[1:]
	}
	for len(ws) > 0 && (ws[len(ws)-1].code == codeAnd || ws[len(ws)-1].code == codeOr) {
		ws = ws[:len(ws)-1]
	}
	for len(ws) > 0 && (ws[0].code == codeAnd || ws[0].code == codeOr) {
		ws = ws[1:]
	}
	switch len(ws) {
	case 0:
		return ""
	case 1:
		return strings.Clone(ws[0].raw) // not an alias of the whole text
	}
	return text.JoinFunc(ws, " ", func(w word) string { return w.raw })
}

// nextWord reads the word or mark starting at s[i] (ok is false when s[i]
// starts neither) and returns where the next one may start.
func nextWord(s string, i int) (w word, next int, ok bool) {
	if c := s[i]; c < utf8.RuneSelf {
		switch {
		case asciiAlnum[c]:
			j := wordEnd(s, i+1)
			raw := s[i:j]
			return word{raw: raw, code: vocabCode(raw)}, j, true
		case asciiPunct[c]:
			return word{raw: s[i : i+1], punct: true}, i + 1, true
		}
		return word{}, i + 1, false
	}
	r, size := utf8.DecodeRuneInString(s[i:])
	if unicode.IsLetter(r) || unicode.IsDigit(r) {
		j := wordEnd(s, i+size)
		raw := s[i:j]
		return word{raw: raw, code: vocabCode(raw)}, j, true
	}
	return word{}, i + size, false
}

// wordEnd returns the end of the word whose rest starts at s[j]: letters,
// digits and marks, and - _ ' . between them and a letter or digit.
func wordEnd(s string, j int) int {
	for {
		for j < len(s) && asciiAlnum[s[j]] {
			j++
		}
		if j >= len(s) {
			return j
		}
		if c := s[j]; c < utf8.RuneSelf {
			if (c == '-' || c == '_' || c == '\'' || c == '.') && j+1 < len(s) {
				if n := s[j+1]; n < utf8.RuneSelf {
					if asciiAlnum[n] {
						j++
						continue
					}
				} else if r3, _ := utf8.DecodeRuneInString(s[j+1:]); unicode.IsLetter(r3) || unicode.IsDigit(r3) {
					j++
					continue
				}
			}
			return j
		}
		r, size := utf8.DecodeRuneInString(s[j:])
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsMark(r) {
			return j
		}
		j += size
	}
}

// asciiAlnum marks the ASCII letters and digits (indexed by any byte, so
// that loops need no bounds check); asciiPunct the marks splitWords keeps
// (sentence ends, newline, commas, brackets, quotes).
var asciiAlnum, asciiPunct = func() (alnum [256]bool, punct [utf8.RuneSelf]bool) {
	for c := range alnum {
		alnum[c] = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
	}
	for _, c := range ".!?;:,()[]{}\"\n" {
		punct[c] = true
	}
	return
}()
