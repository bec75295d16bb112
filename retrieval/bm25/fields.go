package bm25

import (
	"strings"
	"sync"
	"unicode"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin/text"
	"github.com/mrpvm/mrpvm/retrieval/analysis"
)

// Field numbers a KU's indexed fields. Term counts are stored per field, so
// field weights are applied at query time and can change without reindexing.
type Field int

// The indexed fields of a KU.
const (
	FieldTitle     Field = iota // Title, when it differs from Topic
	FieldTopic                  // Topic
	FieldClaim                  // Claim
	FieldProcedure              // Procedure
	FieldBody                   // TextBody
	FieldRole                   // Role
	FieldActs                   // UtilityActs
	FieldNote                   // UtilityNote
	FieldCondition              // Condition
	FieldTags                   // Tags
	FieldItem                   // the list items of TextBody (an example's description, a step)
	FieldDesc                   // the description block: TextBody's first paragraph, when examples or steps follow
	FieldCode                   // the command lines of TextBody (the line after an example's description)
	FieldLead                   // the first paragraph of a TextBody with no list items or commands
	NumFields                   // number of fields
)

// FieldTexts returns the text of every indexed field of u, by Field.
func FieldTexts(u *kus.KU) [NumFields]string {
	var f [NumFields]string
	if u.Title != u.Topic {
		f[FieldTitle] = u.Title
	}
	f[FieldTopic] = u.Topic
	f[FieldClaim] = u.Claim
	f[FieldProcedure] = u.Procedure
	b := splitBody(u.TextBody)
	f[FieldBody], f[FieldItem], f[FieldCode] = b.rest, b.items, b.code
	// A first paragraph says what the page is for when examples or steps
	// follow it (a how-to page, a README section with a list); in plain
	// prose (an abstract, an essay) it is only the opening of the text, and
	// is weighted apart.
	if b.items == "" && b.code == "" {
		f[FieldLead] = b.desc
	} else {
		f[FieldDesc] = b.desc
	}
	f[FieldRole] = u.Role
	f[FieldActs] = strings.Join(u.UtilityActs, " ")
	f[FieldNote] = u.UtilityNote
	f[FieldCondition] = u.Condition
	f[FieldTags] = strings.Join(u.Tags, " ")
	return f
}

// bodyParts is a TextBody split by the role its text plays on the page.
type bodyParts struct {
	desc  string // the first paragraph: what the page or section is about
	items string // list items: an example's description, a step, an option
	code  string // command lines: the paragraph right after an item ending in ':'
	rest  string // everything else
}

// splitBody splits a body into its description block, list items, command
// lines and the rest. The Markdown reader keeps paragraphs apart with a
// blank line, a list item as a line starting with its marker ("- ", "* ",
// "+ ", "1. ") and a code block or span as its plain text, so the parts are
// found from the layout alone: the first paragraph that reads as prose
// (unless a list comes first) describes what follows, a list item states
// one thing the page covers, and a one-paragraph block right after an item
// that ends in ':' (a how-to page's "- Do this:" followed by its command)
// is that item's command. A README often opens with badges or a logo, whose
// alternative texts ("build codecov godoc") come first without saying what
// the page is about: such short unpunctuated paragraphs are passed over
// (they count as the rest) and the description is the first prose
// paragraph among the first few. Weighting the parts apart lets a match in
// a description or an example's description count more than an incidental
// word in the prose or a flag.
func splitBody(body string) bodyParts {
	var p bodyParts
	if body == "" {
		return p
	}
	var desc, items, code, rest strings.Builder
	para := 0           // paragraphs seen so far
	inPara := false     // inside a paragraph
	afterItem := false  // the last paragraph ended with an item ending in ':'
	paraIsCode := false // the current paragraph is a command
	lastItemColon := false
	descDone := false // the description was found, or can no longer be
	paraIsDesc := false
	for line, next := range bodyLines(body) {
		trim := strings.TrimSpace(line)
		if trim == "" {
			if inPara {
				afterItem = lastItemColon
				lastItemColon = false
				if paraIsDesc || para >= maxDescPara {
					descDone = true
				}
			}
			inPara = false
			continue
		}
		if !inPara {
			inPara = true
			para++
			paraIsCode = afterItem && !isItemLine(line)
			afterItem = false
			paraIsDesc = false
			if !descDone && !paraIsCode {
				if isItemLine(line) {
					descDone = true
				} else {
					paraIsDesc = isProse(next)
				}
			}
		}
		switch {
		case isItemLine(line):
			items.WriteString(line)
			lastItemColon = strings.HasSuffix(trim, ":")
			paraIsCode = false
			if paraIsDesc {
				descDone = true
			}
		case paraIsCode:
			code.WriteString(line)
			lastItemColon = false
		case paraIsDesc && !descDone:
			desc.WriteString(line)
			lastItemColon = false
		default:
			rest.WriteString(line)
			lastItemColon = false
		}
	}
	p.desc, p.items, p.code, p.rest = desc.String(), items.String(), code.String(), rest.String()
	return p
}

// maxDescPara is how many leading paragraphs are searched for the
// description block.
const maxDescPara = 3

// bodyLines yields each line of body with the text of the paragraph it
// starts (up to the next blank line) when it is a paragraph's first line.
func bodyLines(body string) func(yield func(line, para string) bool) {
	return func(yield func(line, para string) bool) {
		prevBlank := true
		for i := 0; i < len(body); {
			j := strings.IndexByte(body[i:], '\n')
			end := len(body)
			if j >= 0 {
				end = i + j + 1
			}
			line := body[i:end]
			blank := strings.TrimSpace(line) == ""
			var para string
			if prevBlank && !blank {
				k := strings.Index(body[i:], "\n\n")
				if k < 0 {
					para = body[i:]
				} else {
					para = body[i : i+k]
				}
			}
			prevBlank = blank
			if !yield(line, para) {
				return
			}
			i = end
		}
	}
}

// isProse reports whether a paragraph reads as a sentence rather than a
// row of badge or logo labels: it ends in sentence punctuation or has at
// least minProseWords words.
func isProse(para string) bool {
	t := strings.TrimSpace(para)
	if t == "" {
		return false
	}
	switch t[len(t)-1] {
	case '.', '!', '?', ':', ';', ')':
		return true
	}
	return hasWords(t, minProseWords)
}

// hasWords reports whether s has at least n space-separated words; it
// stops reading at the n-th, so a long paragraph costs no more than a
// short one.
func hasWords(s string, n int) bool {
	words, in := 0, false
	for _, r := range s {
		if unicode.IsSpace(r) {
			in = false
			continue
		}
		if !in {
			in = true
			if words++; words >= n {
				return true
			}
		}
	}
	return false
}

// minProseWords is the number of words from which an unpunctuated
// paragraph is taken for prose.
const minProseWords = 6

// isItemLine reports whether line starts with a list marker (after at
// most three spaces of indentation).
func isItemLine(line string) bool {
	i := 0
	for i < len(line) && i < 3 && line[i] == ' ' {
		i++
	}
	line = line[i:]
	if len(line) >= 2 && (line[0] == '-' || line[0] == '*' || line[0] == '+') && line[1] == ' ' {
		return true
	}
	j := 0
	for j < len(line) && j < 9 && line[j] >= '0' && line[j] <= '9' {
		j++
	}
	return j > 0 && j+1 < len(line) && (line[j] == '.' || line[j] == ')') && line[j+1] == ' '
}

// Roles are coded in one byte: 0 is no or an unknown role, i+1 is kus.Roles[i].
func roleCode(role string) uint8 {
	for i, r := range kus.Roles {
		if strings.EqualFold(r, role) {
			return uint8(i + 1)
		}
	}
	return 0
}

// actRoles says which KU roles suit an act (a unit whose role suits the
// query's act has its score multiplied by Params.RoleBoost).
var actRoles = map[string][]string{
	"compare":   {"Comparison"},
	"explain":   {"Explanation"},
	"recommend": {"Evaluation", "Comparison"},
	"diagnose":  {"Diagnostic"},
	"implement": {"Procedure"},
	"verify":    {"Evaluation", "Constraint"},
	"define":    {"Definition"},
	"evaluate":  {"Evaluation"},
	"identify":  {"Definition", "Description"},
	"describe":  {"Description", "Narrative"},
}

// suitedRoles returns a role-code bitmap for act (bit i set when role code i
// suits it), or 0 when act is unknown or empty.
func suitedRoles(act string) uint32 {
	var m uint32
	for _, r := range actRoles[strings.ToLower(act)] {
		m |= 1 << roleCode(r)
	}
	return m
}

// srcTerms collects the terms of a source's units, and holds the scratch
// buffers of analyse; one is reused from source to source (srcTermsPool).
// Terms get source-local ids, found through the analyzer's term ID in
// local (a table indexed by ID, valid where its epoch is the current one)
// or, for a term the analyzer left unnumbered, in byTerm. The counts of the
// unit being analysed live in one slab reused from unit to unit (uterms[i]
// has the counts tfs[i]). The texts of a source repeat one another (a
// summary repeats its leaf's title and first sentences): memo analyses each
// distinct sentence of the source once.
type srcTerms struct {
	terms  []string // local id -> term
	gids   []uint32 // local id -> analyzer term ID
	unit   []int32  // local id -> 1 + the last unit counting it
	slot   []int32  // local id -> its index in tfs for that unit
	local  []idSlot // analyzer term ID -> local id
	epoch  uint32
	byTerm map[string]int32 // term without an analyzer ID -> local id
	memo   analysis.Memo

	// The unit being analysed.
	lens   [NumFields]uint32
	uterms []int32 // local ids, in order of first occurrence
	tfs    [][NumFields]uint32
	masks  []uint16 // masks[i]: the fields where tfs[i] is not 0

	// analyse's buffers.
	buf             []byte
	refs            []entryRef
	order, size, at []int32
	keys            []uint64
	out             []byte
}

// idSlot maps an analyzer term ID to a source-local id in one epoch.
type idSlot struct {
	epoch uint32
	local int32
}

// slotOf returns the slot of analyzer term ID gid in the table *slots,
// growing the table (at least doubling it) when gid lies beyond it.
func slotOf(slots *[]idSlot, gid uint32) *idSlot {
	if int(gid) >= len(*slots) {
		growSlots(slots, gid)
	}
	return &(*slots)[gid]
}

func growSlots(slots *[]idSlot, gid uint32) {
	grown := make([]idSlot, max(int(gid)+1, 2*len(*slots), 4096))
	copy(grown, *slots)
	*slots = grown
}

// entryRef locates the entry of one (unit, term) in analyse's buffer.
type entryRef struct{ term, off, n int32 }

var srcTermsPool = sync.Pool{New: func() any {
	return &srcTerms{byTerm: map[string]int32{}}
}}

// begin readies st for a new source.
func (st *srcTerms) begin() {
	st.terms, st.gids, st.unit, st.slot = st.terms[:0], st.gids[:0], st.unit[:0], st.slot[:0]
	if len(st.byTerm) > 0 {
		clear(st.byTerm)
	}
	st.epoch++
	if st.epoch == 0 { // wrapped: forget every old epoch
		clear(st.local)
		st.epoch = 1
	}
}

// release returns st to the pool, dropping what it references.
func (st *srcTerms) release() {
	st.memo.Reset()
	clear(st.terms)
	srcTermsPool.Put(st)
}

// newTerm gives term t, whose analyzer ID is gid, the next local id.
func (st *srcTerms) newTerm(t string, gid uint32) int32 {
	id := int32(len(st.terms))
	st.terms = append(st.terms, t)
	st.gids = append(st.gids, gid)
	st.unit = append(st.unit, 0)
	st.slot = append(st.slot, 0)
	return id
}

// localID returns the local id of term t, whose analyzer ID is gid.
func (st *srcTerms) localID(t string, gid uint32) int32 {
	if gid == 0 {
		id, ok := st.byTerm[t]
		if !ok {
			id = st.newTerm(t, 0)
			st.byTerm[t] = id
		}
		return id
	}
	e := slotOf(&st.local, gid)
	if e.epoch != st.epoch {
		*e = idSlot{epoch: st.epoch, local: st.newTerm(t, gid)}
	}
	return e.local
}

// analyzeUnit counts the terms of unit number local of the source.
func analyzeUnit(a *text.Analyzer, u *kus.KU, local int, st *srcTerms) {
	st.uterms, st.tfs, st.masks = st.uterms[:0], st.tfs[:0], st.masks[:0]
	st.lens = [NumFields]uint32{}
	mark := int32(local + 1)
	for f, s := range FieldTexts(u) {
		if s == "" {
			continue
		}
		txt := st.memo.Analyse(a, s)
		for i, t := range txt.All {
			id := st.localID(t, txt.IDs[i])
			if st.unit[id] != mark {
				st.unit[id] = mark
				st.slot[id] = int32(len(st.tfs))
				st.uterms = append(st.uterms, id)
				st.tfs = append(st.tfs, [NumFields]uint32{})
				st.masks = append(st.masks, 0)
			}
			k := st.slot[id]
			st.tfs[k][f]++
			st.masks[k] |= 1 << f
		}
		st.lens[f] += uint32(len(txt.All))
	}
}
