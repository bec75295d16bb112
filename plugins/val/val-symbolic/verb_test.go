package valsymbolic

import (
	"testing"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
)

// TestHowToVerbCountsAsAModifier: a how-to answered with examples whose
// source names the task's action with another word ("Remove" for
// "delete") has its verb judged by the action check; a verb rare in the
// knowledge base does not sink the coverage of an answer that covers
// what the task acts on.
func TestHowToVerbCountsAsAModifier(t *testing.T) {
	docker := page(t, "common/docker.md", dockerPage)
	c := sourced{corpus: corpus{n: 1000, df: freqs(map[string]int{"delete": 1, "stopped container": 50})},
		src: map[string]string{"common/docker.md": dockerPage}}
	expectHowTo(t, c, kus.LevelSummary, "is not covered", []howToCase{
		{"examples", "delete a stopped container", "docker [1]: Manage Docker containers and images.\n\n" +
			"- Remove stopped containers:\n\n  `docker {{[rm|container rm]}} {{container1 container2 ...}}`\n\nSources:\n[1] docker — common/docker.md:3\n",
			docker, plugin.StatusAccepted},
	})
}
