package kus

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Diagnostic codes for `## Context Unit` blocks.
const (
	CodeMissingID       = "ku_missing_id"
	CodeDuplicateID     = "ku_duplicate_id"
	CodeMissingField    = "ku_missing_field"
	CodeClaimProcedure  = "ku_claim_and_procedure"
	CodeBadRole         = "ku_bad_role"
	CodeBadType         = "ku_bad_type"
	CodeBadPhaseScope   = "ku_bad_phase_scope"
	CodeBadUtilityAct   = "ku_bad_utility_act"
	CodeBadRelation     = "ku_bad_relation"
	CodePartialFact     = "ku_partial_fact"
	CodeBadConfidence   = "ku_bad_confidence"
	CodeUnknownField    = "ku_unknown_field"
	CodeSourceMismatch  = "ku_source_mismatch"
	CodeRepeatedField   = "ku_repeated_field"
	CodeFactOnAggregate = "ku_fact_not_atomic"
)

// cuField is one `Key: value` line of a Context Unit block.
type cuField struct {
	value string
	line  int // 1-based
}

// knownCUFields maps lower-cased keys to canonical names.
var knownCUFields = map[string]string{
	"sourceid": "SourceId", "chunkid": "ChunkId", "role": "Role", "topic": "Topic", "title": "Title",
	"claim": "Claim", "procedure": "Procedure", "condition": "Condition", "textbody": "TextBody", "text": "TextBody",
	"subject": "Subject", "relation": "Relation", "object": "Object", "confidence": "Confidence",
	"symbolicsubject": "Subject", "symbolicrelation": "Relation", "symbolicobject": "Object",
	"parentunitids": "ParentUnitIds", "childunitids": "ChildUnitIds", "derivedfromunitids": "DerivedFromUnitIds",
	"utilityacts": "UtilityActs", "phasescopes": "PhaseScopes", "utilitynote": "UtilityNote",
	"kutype": "KuType", "tags": "Tags",
}

// multiLine fields absorb following lines that are not `Key: value` lines.
var multiLine = map[string]bool{"Claim": true, "Procedure": true, "Condition": true, "TextBody": true, "UtilityNote": true}

// contextUnit reads one `## Context Unit <id>` block into a KU, reporting
// problems as diagnostics. It returns nil when the block cannot become a KU.
func (r *reader) contextUnit(s *section) *KU {
	headLine := r.lines.line(s.start)
	diag := func(line int, sev Severity, code, format string, args ...any) {
		r.doc.Diagnostics = append(r.doc.Diagnostics, Diagnostic{Line: line, Col: 1, Severity: sev, Code: code, Message: fmt.Sprintf(format, args...)})
	}
	id := s.ku.ID
	if id == "" {
		diag(headLine+1, SeverityError, CodeMissingID, "Context Unit heading has no id (expected `## Context Unit <id>`)")
		return nil
	}

	// The block runs from the line after the heading to the next heading.
	bodyStart := len(r.src)
	if headLine+1 < len(r.lines) {
		bodyStart = int(r.lines[headLine+1])
	}
	bodyEnd := s.next
	if bodyEnd < bodyStart {
		bodyEnd = bodyStart
	}

	fields := map[string]cuField{}
	var extra []string
	last := ""
	inFence := false
	lineNo := headLine + 2
	for _, raw := range strings.Split(string(r.src[bodyStart:bodyEnd]), "\n") {
		line := strings.TrimRight(raw, "\r")
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			inFence = !inFence
		}
		key, value, isField := splitField(trimmed)
		switch {
		case inFence || strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~"):
			r.appendCU(fields, &extra, last, line, lineNo)
		case trimmed == "":
			last = ""
		case isField:
			canon, known := knownCUFields[strings.ToLower(key)]
			if !known {
				diag(lineNo, SeverityWarning, CodeUnknownField, "unknown Context Unit field %q (kept as text)", key)
				extra = append(extra, trimmed)
				last = ""
				break
			}
			if _, dup := fields[canon]; dup {
				diag(lineNo, SeverityWarning, CodeRepeatedField, "field %s repeated; the last value wins", canon)
			}
			fields[canon] = cuField{value: value, line: lineNo}
			last = canon
		default:
			r.appendCU(fields, &extra, last, trimmed, lineNo)
		}
		lineNo++
	}

	k := s.ku
	k.Level = LevelLeaf
	k.KUType = TypeAtomic
	k.CharStart = s.start
	k.CharEnd = trimEnd(r.src, bodyEnd)
	if k.CharEnd < k.CharStart {
		k.CharEnd = k.CharStart
	}
	get := func(name string) string { return strings.TrimSpace(fields[name].value) }
	lineOf := func(name string) int {
		if f, ok := fields[name]; ok {
			return f.line
		}
		return headLine + 1
	}

	// Identity and provenance. A block that names another source is kept
	// under this source so ids stay unique per source.
	declared := get("SourceId")
	switch {
	case declared == "":
		diag(headLine+1, SeverityError, CodeMissingField, "Context Unit %s has no SourceId", id)
	case declared != r.info.SourceID:
		diag(lineOf("SourceId"), SeverityWarning, CodeSourceMismatch, "SourceId %s differs from this source (%s); the unit is kept under %s", declared, r.info.SourceID, r.info.SourceID)
		if rest, ok := strings.CutPrefix(id, declared+"::"); ok {
			id = r.info.SourceID + "::" + rest
		} else {
			id = r.info.SourceID + "::" + id
		}
	}
	if !r.addID(id) {
		diag(headLine+1, SeverityError, CodeDuplicateID, "Context Unit id %s is used twice in this source; the second is skipped", id)
		return nil
	}
	k.ID = id
	k.SourceID = r.info.SourceID
	k.ChunkID = get("ChunkId")
	if k.ChunkID == "" {
		diag(headLine+1, SeverityError, CodeMissingField, "Context Unit %s has no ChunkId", id)
		k.ChunkID = r.info.SourceID + "::chunk-000"
	} else if declared != "" && declared != r.info.SourceID {
		if rest, ok := strings.CutPrefix(k.ChunkID, declared+"::"); ok {
			k.ChunkID = r.info.SourceID + "::" + rest
		}
	}
	k.ChunkIndex = trailingNumber(k.ChunkID)
	k.UnitIndex = trailingNumber(id)

	if t := get("KuType"); t != "" {
		if t != TypeAtomic && t != TypeComposite && t != TypeAggregate {
			diag(lineOf("KuType"), SeverityError, CodeBadType, "KuType %q is not atomic, composite or aggregate", t)
		} else {
			k.KUType = t
		}
	}

	// Content.
	k.Role = get("Role")
	switch {
	case k.Role == "":
		diag(headLine+1, SeverityError, CodeMissingField, "Context Unit %s has no Role", id)
		k.Role = "Description"
	case !slices.Contains(Roles, k.Role):
		if c := canonicalRole(k.Role); c != "" {
			k.Role = c
		} else {
			diag(lineOf("Role"), SeverityError, CodeBadRole, "Role %q is not one of %s", k.Role, strings.Join(Roles, ", "))
			k.Role = "Description"
		}
	}
	k.Topic = get("Topic")
	if k.Topic == "" {
		diag(headLine+1, SeverityError, CodeMissingField, "Context Unit %s has no Topic", id)
	}
	k.Title = get("Title")
	if k.Title == "" {
		k.Title = k.Topic
	}
	k.Claim, k.Procedure = get("Claim"), get("Procedure")
	switch {
	case k.Claim == "" && k.Procedure == "":
		diag(headLine+1, SeverityError, CodeMissingField, "Context Unit %s needs a Claim or a Procedure", id)
	case k.Claim != "" && k.Procedure != "":
		diag(lineOf("Procedure"), SeverityError, CodeClaimProcedure, "Context Unit %s has both Claim and Procedure; keep exactly one (the Claim is used)", id)
		fields["TextBody"] = cuField{value: strings.TrimSpace(fields["TextBody"].value + "\nProcedure: " + k.Procedure)}
		k.Procedure = ""
	}
	k.Condition = get("Condition")
	k.UtilityNote = get("UtilityNote")
	body := get("TextBody")
	if len(extra) > 0 {
		if body != "" {
			body += "\n"
		}
		body += strings.Join(extra, "\n")
	}
	k.TextBody = body

	// Symbolic fact: all or nothing, atomic only.
	subj, rel, obj := get("Subject"), get("Relation"), get("Object")
	if subj != "" || rel != "" || obj != "" {
		switch {
		case subj == "" || rel == "" || obj == "":
			at := lineOf("Subject")
			if subj == "" {
				at = min(lineOf("Relation"), lineOf("Object"))
				if rel == "" || obj == "" {
					at = max(lineOf("Relation"), lineOf("Object"))
				}
			}
			diag(at, SeverityError, CodePartialFact, "a symbolic fact needs Subject, Relation and Object together")
		case !slices.Contains(Relations, rel):
			diag(lineOf("Relation"), SeverityError, CodeBadRelation, "Relation %q is not one of %s", rel, strings.Join(Relations, ", "))
		case k.KUType != TypeAtomic:
			diag(lineOf("Subject"), SeverityError, CodeFactOnAggregate, "only atomic KUs carry a symbolic fact (this one is %s)", k.KUType)
		default:
			k.SymbolicSubject, k.SymbolicRelation, k.SymbolicObject = subj, rel, obj
		}
	}
	if c := get("Confidence"); c != "" {
		v, err := strconv.ParseFloat(c, 64)
		if err != nil || v < 0 || v > 1 {
			diag(lineOf("Confidence"), SeverityError, CodeBadConfidence, "Confidence %q is not a number in [0,1]", c)
		} else {
			k.Confidence = &v
		}
	}

	// Hierarchy.
	if p := splitList(get("ParentUnitIds")); len(p) > 0 {
		k.ParentUnitIDs = p
	} else if len(k.ParentUnitIDs) > 0 {
		if sec := r.byID[k.ParentUnitIDs[0]]; sec != nil {
			sec.ku.ChildUnitIDs = append(sec.ku.ChildUnitIDs, k.ID)
		}
		if k.ParentUnitIDs[0] == r.summary.ID {
			r.summary.ChildUnitIDs = append(r.summary.ChildUnitIDs, k.ID)
		}
	}
	k.ChildUnitIDs = splitList(get("ChildUnitIds"))
	k.DerivedFromUnitIDs = splitList(get("DerivedFromUnitIds"))
	k.Tags = splitList(get("Tags"))

	// Utility.
	for _, a := range splitList(get("UtilityActs")) {
		if slices.Contains(Acts, a) {
			k.UtilityActs = append(k.UtilityActs, a)
		} else {
			diag(lineOf("UtilityActs"), SeverityError, CodeBadUtilityAct, "utility act %q is not one of %s", a, strings.Join(Acts, ", "))
		}
	}
	for _, p := range splitList(get("PhaseScopes")) {
		if slices.Contains(PhaseScopeValues, p) {
			k.PhaseScopes = append(k.PhaseScopes, p)
		} else {
			diag(lineOf("PhaseScopes"), SeverityError, CodeBadPhaseScope, "phase scope %q is not one of %s", p, strings.Join(PhaseScopeValues, ", "))
		}
	}
	if r.firstPara == "" {
		r.firstPara = k.Text()
	}
	return k
}

// appendCU adds a continuation line to the multi-line field being read, or
// to the unit's free text.
func (r *reader) appendCU(fields map[string]cuField, extra *[]string, last, line string, lineNo int) {
	if last != "" && multiLine[last] {
		f := fields[last]
		if f.value == "" {
			f.value = line
		} else {
			f.value += "\n" + line
		}
		fields[last] = f
		return
	}
	*extra = append(*extra, line)
}

// splitField splits "Key: value" where Key is a single identifier.
func splitField(line string) (key, value string, ok bool) {
	i := strings.IndexByte(line, ':')
	if i <= 0 || i > 40 {
		return "", "", false
	}
	key = line[:i]
	for _, c := range key {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return "", "", false
		}
	}
	if i+1 < len(line) && line[i+1] != ' ' && line[i+1] != '\t' {
		return "", "", false // "http://..." or "a:b" is text, not a field
	}
	return key, strings.TrimSpace(line[i+1:]), true
}

// splitList splits a comma (or space, when no comma) separated list.
func splitList(s string) []string {
	s = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(s), "["), "]"))
	if s == "" {
		return nil
	}
	var parts []string
	if strings.Contains(s, ",") {
		parts = strings.Split(s, ",")
	} else {
		parts = strings.Fields(s)
	}
	out := parts[:0]
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func canonicalRole(r string) string {
	for _, x := range Roles {
		if strings.EqualFold(x, r) {
			return x
		}
	}
	return ""
}

// trailingNumber returns the number at the end of s ("unit-007" -> 7), or 0.
func trailingNumber(s string) int {
	i := len(s)
	for i > 0 && s[i-1] >= '0' && s[i-1] <= '9' {
		i--
	}
	if i == len(s) || len(s)-i > 9 {
		return 0
	}
	n, _ := strconv.Atoi(s[i:])
	return n
}
