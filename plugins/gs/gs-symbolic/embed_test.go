package gssymbolic

import (
	"strings"
	"testing"

	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins/internal/symbolic"
)

// freqCorpus counts, per term, the sources holding it; a term it does not
// list is held by many.
type freqCorpus map[string]int

func (freqCorpus) Documents() int           { return 1000 }
func (freqCorpus) SourceText(string) []byte { return nil }
func (c freqCorpus) DocFreq(term string) int {
	if n, ok := c[term]; ok {
		return n
	}
	return 500
}

// TestHowToPrefersPageNamedForTheRarestTerm: of two pages whose examples
// hold the task equally, the tool whose name ends in the task's rarest
// term ("lsusb" for "usb") answers, although the retriever ranked the
// other first.
func TestHowToPrefersPageNamedForTheRarestTerm(t *testing.T) {
	ps := page("frida-ps.md", "frida-ps", "List processes.\n- List the processes of the USB devices connected:\nfrida-ps -U\n", 1)
	ls := page("lsusb.md", "lsusb", "Display information about buses.\n- List the details of the USB devices connected:\nlsusb -v\n", 0.97)
	task := "list the USB devices connected to my machine"
	want := symbolic.TaskTerms(task)
	c := freqCorpus{"usb": 20, "devic": 300, "connect": 300, "machin": 200}
	out := procedureMD(t, []plugin.ScoredKU{ps, ls}, task, want, guidance{}, c)
	if !strings.Contains(out, "lsusb.md") {
		t.Errorf("not answered from lsusb:\n%s", out)
	}
}

func TestEmbedsTerm(t *testing.T) {
	checkPredicate(t, "embedsTerm", embedsTerm, []pairCase{
		{"lsusb", "usb", true},
		{"lscpu", "cpu", true},
		{"usb", "usb", false},               // names it as a word
		{"addcomputer.py", "comput", false}, // holds the stem, not the name
		{"compute", "comput", false},
		{"exo compute instance", "comput", false},
		{"lsusb", "", false},
	})
}
