package gssymbolic

import (
	"testing"

	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins/internal/symbolic"
)

const subjectMD = "# tool\n\n" +
	"## Level logging\n\nTool logs at several levels, from debug to error: check which level your code logs at.\n\n" +
	"```go\ntool.SetLevel(tool.ErrorLevel) // log only an error or worse\n```\n\n" +
	"## Testing\n\nTool has a test hook for asserting that code logged a message.\n\n" +
	"```go\nhook := tooltest.NewGlobal()\ntool.Error(\"oops\")\n```\n"

// TestHeadedSubjectBreaksNearTie: of two sections of one page that answer
// a how-to about as well, the one whose heading names what the task is
// about (its rarest term) answers it, though the retriever ranked the
// other first.
func TestHeadedSubjectBreaksNearTie(t *testing.T) {
	src := parseMD(t, "tool/README.md", subjectMD)
	task := "check in a test that my code logged an error with tool"
	ev := []plugin.ScoredKU{{KU: src.leaf(t, "Level logging"), Score: 1}, {KU: src.leaf(t, "Testing"), Score: 0.8}}
	c := dfCorpus{srcCorpus{src.id: src.md}, map[string]int{"test": 1, "log": 5, "error": 4, "code": 6, "check": 3}}
	out := procedureMD(t, ev, task, symbolic.TaskTerms(task), guidance{}, c)
	checkMD(t, out, []string{"Testing [1]", "tooltest.NewGlobal()"}, []string{"SetLevel"})
}

// TestHeadedSubjectKeepsBetterPassage: the heading only decides between
// passages that answer alike; p stays when its heading names the subject
// or the section named holds less of the task.
func TestHeadedSubjectKeepsBetterPassage(t *testing.T) {
	src := parseMD(t, "tool/README.md", subjectMD)
	level, _ := readProcedure(src.leaf(t, "Level logging"))
	testing_, _ := readProcedure(src.leaf(t, "Testing"))
	secs := []procedure{level, testing_}
	c := dfCorpus{srcCorpus{src.id: src.md}, map[string]int{"test": 1, "log": 5}}
	want := []string{"check", "test", "log"}
	if i := headedSubject(level, 0.7, want, "check", secs, []float64{0.7, 0.75}, c); i != 1 {
		t.Errorf("headedSubject = %d, want 1", i)
	}
	if i := headedSubject(level, 0.7, want, "check", secs, []float64{0.7, 0.6}, c); i != -1 {
		t.Errorf("a section holding less of the task chosen: %d", i)
	}
	if i := headedSubject(testing_, 0.75, want, "check", secs, []float64{0.7, 0.75}, c); i != -1 {
		t.Errorf("a passage headed by the subject left: %d", i)
	}
}
