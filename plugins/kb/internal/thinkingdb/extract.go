// Package thinkingdb is the symbolic layer of kb-thinkingdb: a persisted
// store of (subject, relation, object) facts taken from KUs' symbolic fields
// and extracted from fact-bearing sentences, and the bounded closure of the
// design (seed facts matched to the query, a depth-3 neighbourhood,
// two-premise Horn rules for at most 3 rounds, 64 derived facts, 32 proofs,
// 12 kept) whose proofs are fused with the BM25 ranking.
package thinkingdb

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugins/sdk/text"
)

// Relation is one of the relation atoms of DS030.
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
	var b strings.Builder
	e.analyzer().Each(s, func(t text.Token) {
		if t.Part {
			return
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(t.Term)
	})
	return b.String()
}

// Facts returns the facts of a KU: its symbolic fact when it has one,
// otherwise the facts extracted from its claim, procedure and body.
func (e *Extractor) Facts(u *kus.KU) []Fact { return e.facts(u, nil) }

// facts is Facts with the extraction of each text memoised in memo (when
// not nil): the units of one source repeat texts (a summary and its
// section share their claim and body).
func (e *Extractor) facts(u *kus.KU, memo map[string][]Fact) []Fact {
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
	seen := map[[3]string]bool{}
	for _, s := range [...]string{u.Claim, u.Procedure, u.TextBody} {
		if s == "" {
			continue
		}
		fs, ok := memo[s]
		if !ok {
			fs = e.Sentences(s)
			if memo != nil {
				memo[s] = fs
			}
		}
		for _, f := range fs {
			k := [3]string{f.SubjectKey, f.Relation.String(), f.ObjectKey}
			if seen[k] {
				continue
			}
			seen[k] = true
			f.KU = u.ID
			f.Extracted = true
			out = append(out, f)
		}
	}
	return out
}

// word is a lowercased word of a sentence, or a punctuation mark ("," etc.).
type word struct {
	w     string // lowercased
	raw   string
	punct bool
}

// Sentences extracts the facts of a text, sentence by sentence.
func (e *Extractor) Sentences(s string) []Fact {
	var out []Fact
	ws := splitWords(s)
	start := 0
	for i := 0; i <= len(ws); i++ {
		if i < len(ws) && !(ws[i].punct && strings.ContainsAny(ws[i].w, ".!?;\n")) {
			continue
		}
		out = append(out, e.sentence(ws[start:i])...)
		start = i + 1
	}
	return out
}

// sentence extracts the facts of one sentence: at every cue, the noun
// phrase right before it relates to the noun phrase right after it.
func (e *Extractor) sentence(ws []word) []Fact {
	var out []Fact
	for i := 0; i < len(ws); i++ {
		if ws[i].punct {
			continue
		}
		for _, c := range cues[ws[i].w] {
			if !matchAt(ws, i, c.words) {
				continue
			}
			subj := phraseBefore(ws, i)
			obj := phraseAfter(ws, i+len(c.words))
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
			i += len(c.words) - 1
			break
		}
	}
	return out
}

func matchAt(ws []word, i int, phrase []string) bool {
	if i+len(phrase) > len(ws) {
		return false
	}
	for k, p := range phrase {
		if ws[i+k].punct || ws[i+k].w != p {
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
		if w.punct || boundary[w.w] || startsCue(ws, j-1) {
			break
		}
		j--
	}
	return joinRaw(ws[j:i])
}

// startsCue reports whether a cue phrase starts at ws[i].
func startsCue(ws []word, i int) bool {
	for _, c := range cues[ws[i].w] {
		if matchAt(ws, i, c.words) {
			return true
		}
	}
	return false
}

// phraseAfter returns up to maxPhrase words starting at ws[i], skipping a
// leading determiner.
func phraseAfter(ws []word, i int) string {
	for i < len(ws) && !ws[i].punct && determiners[ws[i].w] {
		i++
	}
	j := i
	for j < len(ws) && j-i < maxPhrase {
		w := ws[j]
		if w.punct || boundary[w.w] || startsCue(ws, j) {
			break
		}
		j++
	}
	return joinRaw(ws[i:j])
}

var determiners = map[string]bool{"a": true, "an": true, "the": true, "its": true, "their": true, "this": true,
	"these": true, "that": true, "those": true, "some": true, "both": true}

func joinRaw(ws []word) string {
	// Drop leading determiners and dangling conjunctions.
	for len(ws) > 0 && determiners[ws[0].w] {
		ws = ws[1:]
	}
	for len(ws) > 0 && (ws[len(ws)-1].w == "and" || ws[len(ws)-1].w == "or") {
		ws = ws[:len(ws)-1]
	}
	for len(ws) > 0 && (ws[0].w == "and" || ws[0].w == "or") {
		ws = ws[1:]
	}
	parts := make([]string, len(ws))
	for k, w := range ws {
		parts[k] = w.raw
	}
	return strings.Join(parts, " ")
}

// splitWords splits text into words (letters, digits and inner - _ ' .)
// and punctuation marks; newlines count as sentence ends.
func splitWords(s string) []word {
	out := make([]word, 0, len(s)/6+1)
	i := 0
	for i < len(s) {
		if c := s[i]; c < utf8.RuneSelf {
			switch {
			case asciiAlnum[c]:
				j := wordEnd(s, i+1)
				raw := s[i:j]
				out = append(out, word{w: strings.ToLower(raw), raw: raw})
				i = j
			case asciiPunct[c]:
				out = append(out, word{w: s[i : i+1], raw: s[i : i+1], punct: true})
				i++
			default:
				i++
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			j := wordEnd(s, i+size)
			raw := s[i:j]
			out = append(out, word{w: strings.ToLower(raw), raw: raw})
			i = j
			continue
		}
		i += size
	}
	return out
}

// wordEnd returns the end of the word whose rest starts at s[j]: letters,
// digits and marks, and - _ ' . between them and a letter or digit.
func wordEnd(s string, j int) int {
	for j < len(s) {
		c := s[j]
		if c < utf8.RuneSelf {
			if asciiAlnum[c] {
				j++
				continue
			}
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
	return j
}

// asciiAlnum marks the ASCII letters and digits; asciiPunct the marks
// splitWords keeps (sentence ends, newline, commas, brackets, quotes).
var asciiAlnum, asciiPunct = func() (alnum, punct [utf8.RuneSelf]bool) {
	for c := range alnum {
		alnum[c] = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
	}
	for _, c := range ".!?;:,()[]{}\"\n" {
		punct[c] = true
	}
	return
}()
