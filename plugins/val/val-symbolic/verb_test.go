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

// gluePage is a made-up page in the form of tldr-pages.
const gluePage = "# glue\n\n> Join the lines of files.\n\n- Merge two files side by side:\n\n`glue {{path/to/file1}} {{path/to/file2}}`\n"

// TestHowToWeakVerbCountsAsAModifier: a weak verb a task opens with
// ("put") names no action of its own, and a page says what to do with a
// verb of its own ("Merge"): rare in the knowledge base, it does not sink
// the coverage of an answer that covers what the task acts on.
func TestHowToWeakVerbCountsAsAModifier(t *testing.T) {
	glue := page(t, "common/glue.md", gluePage)
	c := sourced{corpus: corpus{n: 1000, df: freqs(map[string]int{"put": 1, "files side": 50})},
		src: map[string]string{"common/glue.md": gluePage}}
	expectHowTo(t, c, kus.LevelSummary, "is not covered", []howToCase{
		{"weak verb", "put two files side by side", "glue [1]: Join the lines of files.\n\n" +
			"- Merge two files side by side:\n\n  `glue {{path/to/file1}} {{path/to/file2}}`\n\nSources:\n[1] glue — common/glue.md:3\n",
			glue, plugin.StatusAccepted},
	})
}
