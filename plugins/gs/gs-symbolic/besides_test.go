package gssymbolic

import "testing"

// TestBesidesSetsExamplesAside: "Besides creating keys, what else can
// ssh-keygen do?" lists the page's other examples, not those that do what
// the question sets aside (generating keys, a kind of creating them).
func TestBesidesSetsExamplesAside(t *testing.T) {
	src := parseMD(t, "common/ssh-keygen.md", testdataMD(t, "ssh-keygen.md"))
	md := solveMD(t, "verify", "Besides creating keys, what else can ssh-keygen do?", "Besides creating keys, what else can ssh-keygen do", []mdSource{src}, src.soleLeaf(t))
	checkMD(t, md, []string{"known_hosts", "fingerprint", "Retrieve public key from private key"}, []string{"Generate a key interactively", "ed25519"})
	if x := exclusionOf("What does tar do?"); x.action != "" || len(x.terms) != 0 {
		t.Errorf("a question setting nothing aside gave %+v", x)
	}
}

// TestWhatQuestionWithAWordEveryExampleHoldsGetsThePage: "information",
// which most of the page's examples hold, chooses none of them: a
// question that names the page and that word is answered by the page's
// examples, and what it sets aside ("besides the battery") asks for
// nothing of its own.
func TestWhatQuestionWithAWordEveryExampleHoldsGetsThePage(t *testing.T) {
	src := parseMD(t, "linux/acpi.md", testdataMD(t, "acpi.md"))
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
