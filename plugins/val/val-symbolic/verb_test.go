package valsymbolic

import (
	"testing"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
)

// TestHowToVerbCountsAsAModifier: a how-to answered with examples whose
// source names the task's action with another word ("Remove" for
// "delete") has its verb judged by the action check, and a weak verb a
// task opens with ("put") names no action of its own while a page says
// what to do with a verb of its own ("Merge"): a verb rare in the
// knowledge base does not sink the coverage of an answer that covers what
// the task acts on.
func TestHowToVerbCountsAsAModifier(t *testing.T) {
	glue := tldrExample{"glue", "common/glue.md", "Join the lines of files.", "Merge two files side by side", "glue {{path/to/file1}} {{path/to/file2}}"}
	for _, tc := range []struct {
		name, id, md   string
		df             map[string]int
		target, answer string
	}{
		{"examples", "common/docker.md", dockerPage, map[string]int{"delete": 1, "stopped container": 50},
			"delete a stopped container", dockerRemoveAnswer},
		{"weak verb", glue.id, glue.page(), map[string]int{"put": 1, "files side": 50}, "put two files side by side", glue.answer()},
	} {
		c := sourced{corpus: corpus{n: 1000, df: freqs(tc.df)}, src: map[string]string{tc.id: tc.md}}
		expectHowTo(t, c, kus.LevelSummary, "is not covered", []howToCase{
			{tc.name, tc.target, tc.answer, page(t, tc.id, tc.md), plugin.StatusAccepted},
		})
	}
}
