package valsymbolic

import (
	"fmt"
	"testing"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
)

// sectionPart is a unit of README.md, titled "Editors", that the reader
// cut from the section parent, starting at line and claiming claim.
func sectionPart(id, parent string, line int, claim string) *kus.KU {
	return &kus.KU{ID: id, Title: "Editors", SourceID: "README.md", ParentUnitIDs: []string{parent},
		Range: kus.Range{StartLine: line}, Claim: claim}
}

// TestSectionPartsAreOneSource: the units the reader cuts from one long
// section (one parent, one title) are one source for the rule that a
// question about one thing is answered by one source; units of two
// sections are two.
func TestSectionPartsAreOneSource(t *testing.T) {
	agent := sectionPart("r::9::1", "README.md::section-9", 30, "Agent mode gets two tools, ask and search.")
	second := map[plugin.Status]*kus.KU{
		plugin.StatusAccepted: sectionPart("r::9::0", "README.md::section-9", 10, "Build the extension with npm."),
		plugin.StatusRejected: sectionPart("r::10::0", "README.md::section-10", 50, "Build the extension with npm."),
	}
	df := freqs(map[string]int{"tool agent mode build": 300, "extension": 20})
	for want, other := range second {
		answer := fmt.Sprintf("%s [1]\n\n%s [2]\n\nSources:\n[1] Editors — README.md:30\n[2] Editors — README.md:%d\n", agent.Claim, other.Claim, other.Range.StartLine)
		res := validate(t, corpus{n: 1000, df: df}, &plugin.ValidateInput{
			Intents:  []plugin.Intent{{ID: "i1", Act: "identify", Target: "tools does the extension give agent mode"}},
			Answer:   answer,
			Evidence: []plugin.ScoredKU{{KU: agent, Score: 1}, {KU: other, Score: 0.9}},
		})
		expect(t, res, want, "no single source")
	}
}
