package valsymbolic

import (
	"testing"

	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins/internal/plugintest"
)

// TestAnAmountOfDataAnswersHowBig: "how big" asks for an amount of data,
// which an answer giving one ("at most 1 MiB") answers although it never
// says "big"; an answer that gives none still owes the word.
func TestAnAmountOfDataAnswersHowBig(t *testing.T) {
	c := corpus{n: 1000, df: freqs(map[string]int{"big": 4, "ignor": 30, "file": 300, "rule": 100, "mrpvm": 200})}
	target := "how big can an ignore file be before mrpvm ignores its rules"
	for _, tc := range []struct {
		name, text string
		want       plugin.Status
	}{
		{"gives an amount", "Ignore files are read like every workspace file: regular files inside the workspace, at most 1 MiB; one that is not is skipped and its rules are not applied.", plugin.StatusAccepted},
		{"gives none", "Ignore files are read like every workspace file: regular files inside the workspace; one that is not is skipped and its rules are not applied.", plugin.StatusRejected},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k := plugintest.Text("docs/workspaces.md::ingested", "Which files are ingested", "docs/workspaces.md", 1, tc.text)
			in := askCiting(k, target+"?", "verify", target)
			expect(t, validate(t, c, &in), tc.want, "big")
		})
	}
}
