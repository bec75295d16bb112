package bm25

import (
	"strings"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugins/kb/internal/analysis"
	"github.com/mrpvm/mrpvm/plugins/sdk/text"
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
	f[FieldBody] = u.TextBody
	f[FieldRole] = u.Role
	f[FieldActs] = strings.Join(u.UtilityActs, " ")
	f[FieldNote] = u.UtilityNote
	f[FieldCondition] = u.Condition
	f[FieldTags] = strings.Join(u.Tags, " ")
	return f
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

// actRoles says which KU roles suit an act (DS024: x1.3 when the role suits
// the act).
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

// srcTerms collects the terms of a source's units. Term ids are
// source-wide; the counts of the unit being analysed live in one slab
// reused from unit to unit (uterms[i] has the counts tfs[i]). Field texts
// already analysed for another unit of the same source (a summary repeats
// its leaf's title and text) are taken from memo.
type srcTerms struct {
	ids   map[string]int32 // term -> id
	terms []string         // id -> term
	unit  []int32          // id -> 1 + the last unit counting it
	slot  []int32          // id -> its index in tfs for that unit
	memo  map[string][]string

	// The unit being analysed.
	lens   [NumFields]uint32
	uterms []int32 // ids, in order of first occurrence
	tfs    [][NumFields]uint32
}

// analyzeUnit counts the terms of unit number local of the source.
func analyzeUnit(a *text.Analyzer, u *kus.KU, local int, st *srcTerms) {
	if st.ids == nil {
		st.ids = make(map[string]int32, 256)
		st.memo = make(map[string][]string, 8)
	}
	st.uterms, st.tfs = st.uterms[:0], st.tfs[:0]
	st.lens = [NumFields]uint32{}
	mark := int32(local + 1)
	for f, s := range FieldTexts(u) {
		if s == "" {
			continue
		}
		terms, ok := st.memo[s]
		if !ok {
			terms = analysis.Analyse(a, s).All
			st.memo[s] = terms
		}
		for _, t := range terms {
			id, ok := st.ids[t]
			if !ok {
				id = int32(len(st.terms))
				st.ids[t] = id
				st.terms = append(st.terms, t)
				st.unit = append(st.unit, 0)
				st.slot = append(st.slot, 0)
			}
			if st.unit[id] != mark {
				st.unit[id] = mark
				st.slot[id] = int32(len(st.tfs))
				st.uterms = append(st.uterms, id)
				st.tfs = append(st.tfs, [NumFields]uint32{})
			}
			st.tfs[st.slot[id]][f]++
		}
		st.lens[f] += uint32(len(terms))
	}
}
