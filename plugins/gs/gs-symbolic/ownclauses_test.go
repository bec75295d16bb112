package gssymbolic

import (
	"strings"
	"testing"

	"github.com/mrpvm/mrpvm/plugins/internal/symbolic"
)

// TestLeadKeepsTheClauseForTheTasksCase: a lead that ends in ";" goes on
// in its sentence; the clause that says the task's case ("on the command
// line") is quoted with it, the clause between marked as skipped.
func TestLeadKeepsTheClauseForTheTasksCase(t *testing.T) {
	summary := "Session preferences (a plugin tried first for the rest of the session) go in the `preferences` argument of `mrpvm.ask`: in Neovim call `exec('mrpvm.ask', {preferences = p})`; " +
		"in VS Code any extension can send the same argument; `--prefer kb=kb-fast` does it on the command line. Progress is echoed."
	lead := leadOf(summary)
	if !strings.HasSuffix(lead, ";") {
		t.Fatalf("lead %q should end its first clause", lead)
	}
	want := symbolic.TaskTerms("from the command line, make one plugin be tried first for the session")
	got := withHowSentence(lead, summary, want, "")
	if !strings.Contains(got, "--prefer kb=kb-fast` does it on the command line.") {
		t.Errorf("the clause for the command line is left out: %q", got)
	}
	if !strings.Contains(got, "… `--prefer") || strings.Contains(got, "VS Code") {
		t.Errorf("the clause between should be skipped and marked: %q", got)
	}
	if strings.Contains(got, "Progress") {
		t.Errorf("the next sentence is no clause of the lead's: %q", got)
	}
}
