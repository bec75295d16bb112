package valsymbolic

import (
	"fmt"
	"testing"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins/internal/plugintest"
)

// TestSectionPartsAreOneSource: the units the reader cuts from one long
// section (one parent, one title) are one source for the rule that a
// question about one thing is answered by one source; units of two
// sections are two.
func TestSectionPartsAreOneSource(t *testing.T) {
	c := corpus{n: 1000, df: freqs(map[string]int{"tool agent mode build": 300, "extension": 20})}
	part := func(id, parent string, line int, claim string) *kus.KU {
		k := plugintest.Claim(id, "Editors", "README.md", line, claim)
		k.ParentUnitIDs = []string{parent}
		return k
	}
	build := part("r::9::0", "README.md::section-9", 10, "Build the extension with npm.")
	agent := part("r::9::1", "README.md::section-9", 30, "Agent mode gets two tools, ask and search.")
	apart := part("r::10::0", "README.md::section-10", 50, "Build the extension with npm.")
	answer := "Agent mode gets two tools, ask and search. [1]\n\nBuild the extension with npm. [2]\n\nSources:\n[1] Editors — README.md:30\n[2] Editors — README.md:%d\n"
	cases := []struct {
		name   string
		second *kus.KU
		want   plugin.Status
	}{
		{"two parts of one section", build, plugin.StatusAccepted},
		{"two sections", apart, plugin.StatusRejected},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := &plugin.ValidateInput{
				Intents:  []plugin.Intent{{ID: "i1", Act: "identify", Target: "tools does the extension give agent mode"}},
				Answer:   fmt.Sprintf(answer, tc.second.Range.StartLine),
				Evidence: []plugin.ScoredKU{{KU: agent, Score: 1}, {KU: tc.second, Score: 0.9}},
			}
			expect(t, validate(t, c, in), tc.want, "no single source")
		})
	}
}
