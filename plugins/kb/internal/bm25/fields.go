package bm25

import (
	"strings"

	"github.com/mrpvm/mrpvm/kus"
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

// unitTerms counts the terms of each field of a unit. Field texts already
// analysed for another unit of the same source (a summary repeats its
// leaf's title and text) are taken from memo. The counts live in one slab
// reused from unit to unit (terms[i] has the counts tfs[i]).
type unitTerms struct {
	lens  [NumFields]uint32
	index map[string]int32
	terms []string
	tfs   [][NumFields]uint32
	memo  map[string][]string
}

func analyzeUnit(a *text.Analyzer, u *kus.KU, ut *unitTerms) {
	if ut.index == nil {
		ut.index = make(map[string]int32, 256)
	}
	clear(ut.index)
	ut.terms, ut.tfs = ut.terms[:0], ut.tfs[:0]
	ut.lens = [NumFields]uint32{}
	for f, s := range FieldTexts(u) {
		if s == "" {
			continue
		}
		terms, ok := ut.memo[s]
		if !ok {
			terms = a.Append(make([]string, 0, len(s)/8+4), s)
			if ut.memo == nil {
				ut.memo = make(map[string][]string)
			}
			ut.memo[s] = terms
		}
		for _, t := range terms {
			i, ok := ut.index[t]
			if !ok {
				i = int32(len(ut.tfs))
				ut.index[t] = i
				ut.terms = append(ut.terms, t)
				ut.tfs = append(ut.tfs, [NumFields]uint32{})
			}
			ut.tfs[i][f]++
		}
		ut.lens[f] += uint32(len(terms))
	}
}
