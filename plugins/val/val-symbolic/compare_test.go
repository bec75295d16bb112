package valsymbolic

import (
	"testing"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins/internal/plugintest"
)

// TestAComparisonMustWeighEachItem: an answer to a comparison or a choice
// must name each thing it weighs, have something on each and not give two
// of them one description; an answer that does all that is accepted.
func TestAComparisonMustWeighEachItem(t *testing.T) {
	c := corpus{n: 1000, df: freqs(map[string]int{"process display information running real time": 400, "top htop fast deep solver": 5})}
	top := plugintest.Text("t::1", "top", "linux/top.md", 3, "Display dynamic real-time information about running processes.")
	htop := plugintest.Text("h::1", "htop", "common/htop.md", 3, "Display dynamic real-time information about running processes. An enhanced version of top.")
	fast := plugintest.Text("f::1", "gs-fast", "plugin::gs-fast", 3, "Fast goal solver. Good fluency with low latency.")
	deep := plugintest.Text("d::1", "gs-deep", "plugin::gs-deep", 3, "Deep goal solver. Slower, for nuanced questions.")
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
			ev := plugintest.Scored(tc.ev...)
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

// TestAQuestionNamingAFolderIsAnsweredFromIt: "serve static files with
// gin" is not answered by mux's documentation, although it says how to
// serve static files; gin's page answers it, and so does a page outside
// gin/ that names gin. A folder whose pages do not, most of them, call
// themselves by its name ("linux/") confines nothing.
func TestAQuestionNamingAFolderIsAnsweredFromIt(t *testing.T) {
	c := corpus{n: 1000, df: freqs(map[string]int{"serve static files directory handler": 20, "gin mux linux": 300})}
	muxStatic := plugintest.Text("m::1", "Static Files", "mux/README.md", 188, "This makes it easy to serve static files with mux: `r.PathPrefix(\"/static/\").Handler(http.FileServer(http.Dir(dir)))`")
	ginStatic := plugintest.Text("g::1", "Serving static files", "gin/docs/doc.md", 1416, "gin serves static files from a directory: `router.Static(\"/assets\", \"./assets\")`")
	guide := plugintest.Text("x::1", "Static files", "guides/static.md", 1, "To serve static files with gin, use `router.Static(\"/assets\", \"./assets\")`.")
	lsblk := plugintest.Text("l::1", "lsblk", "linux/lsblk.md", 3, "Lists information about devices.")
	useradd := plugintest.Text("l::2", "useradd", "linux/useradd.md", 3, "Create a new Linux user.")
	lsusb := plugintest.Text("l::3", "lsusb", "linux/lsusb.md", 3, "Display information about USB buses.")
	muxAnswer := "Static Files [1]: This makes it easy to serve static files with mux: `r.PathPrefix(\"/static/\").Handler(http.FileServer(http.Dir(dir)))`\n\nSources:\n[1] Static Files — mux/README.md:188\n"
	cases := []struct {
		name, target, answer string
		lead                 *kus.KU
		ev                   []*kus.KU
		want                 plugin.Status
	}{
		{"another library's page", "serve static files with gin", muxAnswer, muxStatic, []*kus.KU{muxStatic, ginStatic}, plugin.StatusRejected},
		{"the library's own page", "serve static files with gin",
			"Serving static files [1]: gin serves static files from a directory: `router.Static(\"/assets\", \"./assets\")`\n\nSources:\n[1] Serving static files — gin/docs/doc.md:1416\n",
			ginStatic, []*kus.KU{ginStatic, muxStatic}, plugin.StatusAccepted},
		{"another library's page cited second", "serve static files with gin",
			"Serving static files [1]: gin serves static files from a directory: `router.Static(\"/assets\", \"./assets\")`\n\n" +
				"Static Files [2]: This makes it easy to serve static files with mux: `r.PathPrefix(\"/static/\").Handler(http.FileServer(http.Dir(dir)))`\n\n" +
				"Sources:\n[1] Serving static files — gin/docs/doc.md:1416\n[2] Static Files — mux/README.md:188\n",
			ginStatic, []*kus.KU{ginStatic, muxStatic}, plugin.StatusRejected},
		{"a page elsewhere that names it", "serve static files with gin",
			"Static files [1]: To serve static files with gin, use `router.Static(\"/assets\", \"./assets\")`.\n\nSources:\n[1] Static files — guides/static.md:1\n",
			guide, []*kus.KU{guide, ginStatic}, plugin.StatusAccepted},
		{"a folder that does not name its pages", "serve static files on linux", muxAnswer, muxStatic, []*kus.KU{muxStatic, lsblk}, plugin.StatusAccepted},
		{"a folder only some of whose pages say its name", "serve static files on linux", muxAnswer, muxStatic, []*kus.KU{muxStatic, lsblk, useradd, lsusb}, plugin.StatusAccepted},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ev := plugintest.Scored(tc.ev...)
			res := validate(t, c, &plugin.ValidateInput{
				Intents: []plugin.Intent{{ID: "i1", Act: "implement", Target: tc.target}},
				Answer:  tc.answer, Evidence: ev})
			expect(t, res, tc.want, "the pages under gin/")
		})
	}
}

// TestAChoiceIsAnsweredByOneSourcePerItem: a choice between two tools for
// a task ("curl or wget to download a whole directory") is answered by one
// source per tool, so no source need name the other tool: the rare names
// would otherwise outweigh the task the source answers.
func TestAChoiceIsAnsweredByOneSourcePerItem(t *testing.T) {
	c := corpus{n: 1000, df: freqs(map[string]int{"download file url directory website": 300, "whole": 100, "curl wget": 3})}
	wget := plugintest.Text("w::1", "wget", "common/wget.md", 3, "Download files from the Web. Download a directory of a website recursively: `wget --mirror {{url}}`")
	curl := plugintest.Text("c::1", "curl", "common/curl.md", 3, "Transfers data from or to a server. Download a file from a URL: `curl -O {{url}}`")
	sources := "\nSources:\n[1] wget — common/wget.md:3\n[2] curl — common/curl.md:3\n"
	ev := []plugin.ScoredKU{{KU: wget, Score: 1}, {KU: curl, Score: 1}}
	ask := func(answer string) *plugin.ValidateResult {
		return validate(t, c, &plugin.ValidateInput{
			Intents: []plugin.Intent{{ID: "i1", Act: "recommend", Target: "Should I use curl or wget to download a whole directory of a website"}},
			Answer:  answer, Evidence: ev})
	}
	expect(t, ask("| item | what the sources say |\n| --- | --- |\n"+
		"| wget | Download a directory of a website recursively: `wget --mirror {{url}}` [1] |\n"+
		"| curl | Download a file from a URL: `curl -O {{url}}` [2] |\n"+sources), plugin.StatusAccepted, "")
}
