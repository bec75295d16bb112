package gssymbolic

import (
	"strings"
	"testing"

	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins/internal/symbolic"
)

// TestQuotedOptionPicksItsExample: a task that quotes an option as written
// ("like -xyz") is answered first by the example that has it, though
// another example shares more of the task's words.
func TestQuotedOptionPicksItsExample(t *testing.T) {
	ev := []plugin.ScoredKU{page("knot.md", "knot", "Tie flags together.\n"+
		"- Combine short flags given one by one:\nknot -x -y -z\n"+
		"- Use the joined form:\nknot -xyz\n", 1)}
	task := "combine short flags like -xyz"
	res := solveProcedure(ev, task, symbolic.ContentTerms(task), guidance{}, nil)
	if res == nil || res.Status != plugin.StatusSuccess {
		t.Fatalf("%+v", res)
	}
	md := res.ResponseMarkdown
	if i, j := strings.Index(md, "knot -xyz"), strings.Index(md, "knot -x -y -z"); i < 0 || j >= 0 && j < i {
		t.Errorf("the example with -xyz is not shown first:\n%s", md)
	}
}

func TestOptionLiterals(t *testing.T) {
	got := optionLiterals(`combine short options like -som, or "--dry-run", not re-run`)
	if strings.Join(got, " ") != "-som --dry-run" {
		t.Errorf("optionLiterals = %q", got)
	}
}
