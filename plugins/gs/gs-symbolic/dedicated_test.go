package gssymbolic

import (
	"testing"

	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins/internal/symbolic"
)

// dfCorpus is a corpus whose terms are held by the given numbers of
// sources (2 for a term it does not list).
type dfCorpus struct {
	srcCorpus
	df map[string]int
}

func (dfCorpus) Documents() int { return 10 }
func (c dfCorpus) DocFreq(t string) int {
	if n, ok := c.df[t]; ok {
		return n
	}
	return 2
}

// TestDedicatedSectionAnswersOverviewItem: a how-to about one thing an
// overview list names is answered by the section the page gives it, named
// with the heading it stands under.
func TestDedicatedSectionAnswersOverviewItem(t *testing.T) {
	src := parseMD(t, "widget/README.md", testdataMD(t, "widget.md"))
	task := "override a config value in widget from code"
	ev := []plugin.ScoredKU{{KU: src.leaf(t, "Why widget?"), Score: 1}, {KU: src.leaf(t, "Setting Overrides"), Score: 0.9}}
	c := dfCorpus{srcCorpus{src.id: src.md}, map[string]int{"overrid": 1}}
	out := procedureMD(t, ev, task, symbolic.TaskTerms(task), guidance{}, c)
	checkMD(t, out, []string{"Putting values into widget > Setting Overrides [1]", `widget.Set("Verbose", true)`}, []string{"Find and load"})
}

// TestDedicatedSectionNeedsOverview: a list of fewer than
// symbolic.MinOverviewItems items is no overview, and a term no item holds names
// no item of it.
func TestDedicatedSectionNeedsOverview(t *testing.T) {
	src := parseMD(t, "widget/README.md", testdataMD(t, "widget.md"))
	over, _ := readProcedure(src.leaf(t, "Why widget?"))
	sec, _ := readProcedure(src.leaf(t, "Setting Overrides"))
	secs := []procedure{over, sec}
	c := dfCorpus{srcCorpus{src.id: src.md}, map[string]int{"overrid": 1, "mutex": 1}}
	top := scoredExample{example: example{how: []string{"1. Find a file.", "2. Set override values.", "3. Rename parameters."}}}
	if i := dedicatedSection(over, top, []string{"overrid", "valu"}, secs, c); i != -1 {
		t.Errorf("three items read as an overview: %d", i)
	}
	top.how = append(top.how, "4. Tell values apart.")
	if i := dedicatedSection(over, top, []string{"overrid", "valu"}, secs, c); i != 1 {
		t.Errorf("dedicatedSection = %d, want 1", i)
	}
	if i := dedicatedSection(over, top, []string{"mutex", "valu"}, secs, c); i != -1 {
		t.Errorf("a term no item holds chose %d", i)
	}
}
