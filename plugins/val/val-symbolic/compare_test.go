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
	cases := []struct {
		name, target, answer string
		lead                 *kus.KU
		ev                   []*kus.KU
		want                 plugin.Status
	}{
		{"another library's page", "serve static files with gin",
			"Static Files [1]: This makes it easy to serve static files with mux: `r.PathPrefix(\"/static/\").Handler(http.FileServer(http.Dir(dir)))`\n\nSources:\n[1] Static Files — mux/README.md:188\n",
			muxStatic, []*kus.KU{muxStatic, ginStatic}, plugin.StatusRejected},
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
		{"a folder that does not name its pages", "serve static files on linux",
			"Static Files [1]: This makes it easy to serve static files with mux: `r.PathPrefix(\"/static/\").Handler(http.FileServer(http.Dir(dir)))`\n\nSources:\n[1] Static Files — mux/README.md:188\n",
			muxStatic, []*kus.KU{muxStatic, lsblk}, plugin.StatusAccepted},
		{"a folder only some of whose pages say its name", "serve static files on linux",
			"Static Files [1]: This makes it easy to serve static files with mux: `r.PathPrefix(\"/static/\").Handler(http.FileServer(http.Dir(dir)))`\n\nSources:\n[1] Static Files — mux/README.md:188\n",
			muxStatic, []*kus.KU{muxStatic, lsblk, useradd, lsusb}, plugin.StatusAccepted},
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

const gitPage = `# git

> Distributed version control system.

- Clone a remote Git repository from the internet:

` + "`git clone {{https://example.com/repo.git}}`" + `
`

const gitRemotePage = `# git remote

> Manage set of tracked repositories ("remotes").

- List existing remotes with their names and URLs:

` + "`git remote {{[-v|--verbose]}}`" + `
`

// TestASeeQuestionIsAnsweredByAnExampleThatShows: "see which remotes my
// repo has" is not answered by an example that clones a remote
// repository, although it has the words; an example that lists them
// answers it.
func TestASeeQuestionIsAnsweredByAnExampleThatShows(t *testing.T) {
	df := freqs(map[string]int{"list name url repository version control system internet": 500, "git remote clone": 30})
	git, remote := descriptionUnit(t, "common/git.md", gitPage), descriptionUnit(t, "common/git-remote.md", gitRemotePage)
	c := sourced{corpus: corpus{n: 1000, df: df}, src: map[string]string{"common/git.md": gitPage, "common/git-remote.md": gitRemotePage}}
	cases := []answerCase{
		{"an example that changes something", "git [1]: Distributed version control system.\n\n- Clone a remote Git repository from the internet:\n\n" +
			"  `git clone {{https://example.com/repo.git}}`\n\nSources:\n[1] git — common/git.md:3\n", git, plugin.StatusRejected},
		{"an example that shows", "git remote [1]: Manage set of tracked repositories (\"remotes\").\n\n- List existing remotes with their names and URLs:\n\n" +
			"  `git remote {{[-v|--verbose]}}`\n\nSources:\n[1] git remote — common/git-remote.md:3\n", remote, plugin.StatusAccepted},
	}
	// Asked as a task, or as a question whether there is a way.
	for _, intent := range []plugin.Intent{
		{ID: "i1", Act: "implement", Target: "see which remotes my git repository has"},
		{ID: "i1", Act: "verify", Target: "Is there a way to list which remotes my git repository has"},
	} {
		t.Run(intent.Act, func(t *testing.T) {
			expectAnswers(t, c, plugin.ValidateInput{Intents: []plugin.Intent{intent}}, kus.LevelLeaf, "do not show anything", cases)
		})
	}
}

const nprocPage = `# nproc

> Print the number of processing units (CPU cores) available.

- Display the number of available processing units:

` + "`nproc`" + `
`

// TestAnAmountIsAnsweredByAnExampleThatShowsIt: "How many CPU cores are
// available?" is not answered by an example that benchmarks with all
// available cores, but by one that displays their number.
func TestAnAmountIsAnsweredByAnExampleThatShowsIt(t *testing.T) {
	df := freqs(map[string]int{"print number display all multiple parallel": 500, "cpu cores available processing units benchmark algorithms": 40})
	speed, nproc := descriptionUnit(t, "common/openssl-speed.md", sslSpeedPage), descriptionUnit(t, "common/nproc.md", nprocPage)
	c := sourced{corpus: corpus{n: 1000, df: df}, src: map[string]string{"common/openssl-speed.md": sslSpeedPage, "common/nproc.md": nprocPage}}
	expectAnswers(t, c, plugin.ValidateInput{Intents: []plugin.Intent{{ID: "i1", Act: "verify", Target: "How many CPU cores are available"}}},
		kus.LevelLeaf, "do not show anything", []answerCase{
			{"an example that uses the cores", "openssl speed [1]: Benchmark OpenSSL algorithms.\n\n- Benchmark in parallel using all available CPU cores:\n\n" +
				"  `openssl speed -multi $(nproc)`\n\nSources:\n[1] openssl speed — common/openssl-speed.md:3\n", speed, plugin.StatusRejected},
			{"an example that displays their number", "nproc [1]: Print the number of processing units (CPU cores) available.\n\n- Display the number of available processing units:\n\n" +
				"  `nproc`\n\nSources:\n[1] nproc — common/nproc.md:3\n", nproc, plugin.StatusAccepted},
		})
}

// TestShows: an example shows what a display action asks when its
// description opens with a light action, the action or a relative of it,
// or a close relative of a display action; not when it opens with a verb
// that does something else.
func TestShows(t *testing.T) {
	showsSee := func(line string) bool { return shows("see", []string{line, "`cmd`"}) }
	expectEach(t, "shows(see)", showsSee, map[string]bool{
		"- List existing remotes:":                  true,
		"- Display the number of processing units:": true,
		"- Monitor the changes of a file:":          true,
		"- Inspect the contents of an archive:":     true,
		"- Clone a remote repository:":              false,
		"- Set the mask of new files:":              false,
		"- Benchmark in parallel using all cores:":  false,
	})
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
