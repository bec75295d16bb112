package gssymbolic

import (
	"slices"
	"testing"

	"github.com/mrpvm/mrpvm/plugins/internal/symbolic"
)

// TestModalsNameNothing: the modal verbs of a question ("may", "will")
// are not among the terms a passage is matched on, so a row that writes
// "may run" does not outrank the one about a call's time bound.
func TestModalsNameNothing(t *testing.T) {
	got := withoutModals(symbolic.ContentTerms("How long may a single wrapper call run, and what will it read?"))
	if slices.Contains(got, "may") || slices.Contains(got, "will") {
		t.Errorf("modal verbs kept: %v", got)
	}
	if !slices.Contains(got, "wrapper") || !slices.Contains(got, "call") {
		t.Errorf("content terms lost: %v", got)
	}
}
