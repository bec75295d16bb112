package kus

import (
	"fmt"
	"slices"
	"strings"
)

// MaxUnitTextBytes bounds the text of one KU a seed detector returns for
// the knowledge base; the Markdown reader's leaves stay far below it.
const MaxUnitTextBytes = 64 << 10

// CodeTextTooLarge is the code of a KU whose text is over MaxUnitTextBytes.
const CodeTextTooLarge = "ku_text_too_large"

// CheckUnit checks one KU made outside the Markdown reader (by a seed
// detector) against the rules a `## Context Unit` block is held to: an id
// under its source, a known type and role, a topic and a statement, known
// utility acts and phase scopes, a symbolic fact complete, with a known
// relation and on an atomic KU only, a confidence in [0,1]. It returns the
// stable code (the Code* constants of Context Unit blocks) and a message of
// the first problem, or "" when the unit may be stored.
func CheckUnit(k *KU) (code, msg string) {
	switch {
	case k.ID == "":
		return CodeMissingID, "the unit has no id"
	case k.SourceID != "" && !strings.HasPrefix(k.ID, k.SourceID+"::"):
		return CodeSourceMismatch, fmt.Sprintf("unit id %s is not under its source %s", k.ID, k.SourceID)
	case k.KUType != TypeAtomic && k.KUType != TypeComposite && k.KUType != TypeAggregate:
		return CodeBadType, fmt.Sprintf("kuType %q is not atomic, composite or aggregate", k.KUType)
	case !slices.Contains(Roles, k.Role):
		return CodeBadRole, fmt.Sprintf("role %q is not one of %s", k.Role, strings.Join(Roles, ", "))
	case strings.TrimSpace(k.Topic) == "":
		return CodeMissingField, fmt.Sprintf("unit %s has no topic", k.ID)
	case strings.TrimSpace(k.Text()) == "":
		return CodeMissingField, fmt.Sprintf("unit %s needs a claim, a procedure or a text body", k.ID)
	case k.Claim != "" && k.Procedure != "":
		return CodeClaimProcedure, fmt.Sprintf("unit %s has both a claim and a procedure", k.ID)
	case len(k.Claim)+len(k.Procedure)+len(k.TextBody) > MaxUnitTextBytes:
		return CodeTextTooLarge, fmt.Sprintf("unit %s holds %d bytes of text, over the %d-byte limit", k.ID,
			len(k.Claim)+len(k.Procedure)+len(k.TextBody), MaxUnitTextBytes)
	}
	for _, a := range k.UtilityActs {
		if !slices.Contains(Acts, a) {
			return CodeBadUtilityAct, fmt.Sprintf("utility act %q is not one of %s", a, strings.Join(Acts, ", "))
		}
	}
	for _, p := range k.PhaseScopes {
		if !slices.Contains(PhaseScopeValues, p) {
			return CodeBadPhaseScope, fmt.Sprintf("phase scope %q is not one of %s", p, strings.Join(PhaseScopeValues, ", "))
		}
	}
	if k.SymbolicSubject != "" || k.SymbolicRelation != "" || k.SymbolicObject != "" {
		switch {
		case !k.HasFact():
			return CodePartialFact, "a symbolic fact needs subject, relation and object together"
		case !slices.Contains(Relations, k.SymbolicRelation):
			return CodeBadRelation, fmt.Sprintf("relation %q is not one of %s", k.SymbolicRelation, strings.Join(Relations, ", "))
		case k.KUType != TypeAtomic:
			return CodeFactOnAggregate, fmt.Sprintf("only atomic KUs carry a symbolic fact (this one is %s)", k.KUType)
		}
	}
	if k.Confidence != nil && (*k.Confidence < 0 || *k.Confidence > 1) {
		return CodeBadConfidence, fmt.Sprintf("confidence %v is not in [0,1]", *k.Confidence)
	}
	return "", ""
}
