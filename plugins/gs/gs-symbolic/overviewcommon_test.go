package gssymbolic

import "testing"

const acpiPage = "# acpi\n\n> Show battery status or thermal information.\n> More information: <https://manned.org/acpi>.\n\n" +
	"- Show battery information:\n\n`acpi`\n\n" +
	"- Show thermal information:\n\n`acpi {{[-t|--thermal]}}`\n\n" +
	"- Show cooling device information:\n\n`acpi {{[-c|--cooling]}}`\n\n" +
	"- Show thermal information in Fahrenheit:\n\n`acpi {{[-tf|--thermal --fahrenheit]}}`\n\n" +
	"- Show all information:\n\n`acpi {{[-V|--everything]}}`\n"

// TestWhatQuestionWithAWordEveryExampleHoldsGetsThePage: "information",
// which most of the page's examples hold, chooses none of them: a
// question that names the page and that word is answered by the page's
// examples, and what it sets aside ("besides the battery") asks for
// nothing of its own.
func TestWhatQuestionWithAWordEveryExampleHoldsGetsThePage(t *testing.T) {
	src := parseMD(t, "linux/acpi.md", acpiPage)
	md := solveMD(t, "describe", "Besides the battery, what information can acpi show?", "Besides the battery, what information can acpi show", []mdSource{src}, src.soleLeaf(t))
	checkMD(t, md, []string{"cooling", "--fahrenheit", "--everything"}, nil)
}

// TestExclusionCueIsNoTerm: the word that sets a phrase aside is set
// aside with it.
func TestExclusionCueIsNoTerm(t *testing.T) {
	got := exclusionOf("Besides the battery, what can acpi show?").without([]string{"besid", "batteri", "acpi"})
	if len(got) != 1 || got[0] != "acpi" {
		t.Errorf("without = %q, want [acpi]", got)
	}
}
