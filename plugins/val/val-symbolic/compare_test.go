package valsymbolic

import (
	"testing"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
)

// TestAComparisonMustWeighEachItem: an answer to a comparison or a choice
// must name each thing it weighs, have something on each and not give two
// of them one description; an answer that does all that is accepted.
func TestAComparisonMustWeighEachItem(t *testing.T) {
	c := corpus{n: 1000, df: freqs(map[string]int{"process display information running real time": 400, "top htop fast deep solver": 5})}
	top := &kus.KU{ID: "t::1", Title: "top", SourceID: "linux/top.md", Range: kus.Range{StartLine: 3},
		TextBody: "Display dynamic real-time information about running processes."}
	htop := &kus.KU{ID: "h::1", Title: "htop", SourceID: "common/htop.md", Range: kus.Range{StartLine: 3},
		TextBody: "Display dynamic real-time information about running processes. An enhanced version of top."}
	fast := &kus.KU{ID: "f::1", Title: "gs-fast", SourceID: "plugin::gs-fast", Range: kus.Range{StartLine: 3},
		TextBody: "Fast goal solver. Good fluency with low latency."}
	deep := &kus.KU{ID: "d::1", Title: "gs-deep", SourceID: "plugin::gs-deep", Range: kus.Range{StartLine: 3},
		TextBody: "Deep goal solver. Slower, for nuanced questions."}
	sources := "\nSources:\n[1] top — linux/top.md:3\n[2] htop — common/htop.md:3\n"
	cases := []struct {
		name, act, target, answer, says string
		ev                              []*kus.KU
		want                            plugin.Status
	}{
		{"one description for both", "compare", "difference between top and htop",
			"| item | what the sources say |\n| --- | --- |\n| top | Display dynamic real-time information about running processes. [1] |\n" +
				"| htop | Display dynamic real-time information about running processes. [2] |\n" + sources,
			"says the same of", []*kus.KU{top, htop}, plugin.StatusRejected},
		{"a row with nothing on its item", "compare", "difference between top and htop",
			"| item | what the sources say |\n| --- | --- |\n| top | Display dynamic real-time information about running processes. [1] |\n" +
				"| htop | the evidence says nothing about htop |\n\nSources:\n[1] top — linux/top.md:3\n",
			"has nothing on \"htop\"", []*kus.KU{top}, plugin.StatusRejected},
		{"a choice answered on one of its items", "recommend", "gs-fast or gs-deep: which one should I use",
			"Fast goal solver. Good fluency with low latency. [1]\n\nSources:\n[1] gs-fast — plugin::gs-fast:3\n",
			"does not name \"gs-deep\"", []*kus.KU{fast, deep}, plugin.StatusRejected},
		{"each item described apart", "compare", "difference between top and htop",
			"| item | what the sources say |\n| --- | --- |\n| top | Display dynamic real-time information about running processes. [1] |\n" +
				"| htop | An enhanced version of top. [2] |\n" + sources,
			"", []*kus.KU{top, htop}, plugin.StatusAccepted},
		{"a choice answered on both", "recommend", "gs-fast or gs-deep: which one should I use",
			"Fast goal solver. Good fluency with low latency. [1]\n\nDeep goal solver. Slower, for nuanced questions. [2]\n\nSources:\n[1] gs-fast — plugin::gs-fast:3\n[2] gs-deep — plugin::gs-deep:3\n",
			"", []*kus.KU{fast, deep}, plugin.StatusAccepted},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var ev []plugin.ScoredKU
			for _, k := range tc.ev {
				ev = append(ev, plugin.ScoredKU{KU: k, Score: 1})
			}
			res := validate(t, c, &plugin.ValidateInput{
				Intents: []plugin.Intent{{ID: "i1", Act: tc.act, Target: tc.target}},
				Answer:  tc.answer, Evidence: ev})
			expect(t, res, tc.want, tc.says)
		})
	}
}

// TestChoiceNames reads the two names a question weighs, and none from a
// question that weighs no names.
func TestChoiceNames(t *testing.T) {
	for target, want := range map[string][2]string{
		"Should I use zip or gzip to compress my files":    {"zip", "gzip"},
		"difference between top and htop":                  {"top", "htop"},
		"sd-symbolic compare with sd-llm-fast":             {"sd-symbolic", "sd-llm-fast"},
		"kb_locked vs kb_read_only: what's the difference": {"kb_locked", "kb_read_only"},
		"which one should I use":                           {},
	} {
		got := choiceNames(target)
		if want == ([2]string{}) {
			if got != nil {
				t.Errorf("%q: got %q, want none", target, got)
			}
			continue
		}
		if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
			t.Errorf("%q: got %q, want %q", target, got, want)
		}
	}
}
