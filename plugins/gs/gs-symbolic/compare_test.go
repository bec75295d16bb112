package gssymbolic

import (
	"fmt"
	"slices"
	"testing"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins/internal/plugintest"
	"github.com/mrpvm/mrpvm/plugins/internal/symbolic"
)

func TestComparedItems(t *testing.T) {
	cases := []struct {
		target string
		want   []string
	}{
		{"the difference between scp and rsync", []string{"scp", "rsync"}},
		{"kill or killall: which one stops processes by name", []string{"kill", "killall"}},
		{"difference between ShouldBind and Bind in gin", []string{"ShouldBind", "Bind"}},
		{"TextFormatter or JSONFormatter in logrus: how do they differ", []string{"TextFormatter", "JSONFormatter"}},
		{"kb-fast vs kb-balanced vs kb-thinkingdb", []string{"kb-fast", "kb-balanced", "kb-thinkingdb"}},
		{"how BM25 ranks documents", nil},
		{"chmod versus chown, which does what", []string{"chmod", "chown"}},
		{"In viper, how does Set differ from SetDefault", []string{"Set", "SetDefault"}},
		{"How is md_too_complex different from md_too_deep", []string{"md_too_complex", "md_too_deep"}},
		{"grep compared with ripgrep", []string{"grep", "ripgrep"}},
		{"they differ (I use zip or gzip to compress my files)", []string{"zip", "gzip"}},
		{"What does kb-thinkingdb do differently from kb-balanced", []string{"kb-thinkingdb", "kb-balanced"}},
		{"how they differ (use rsync instead of scp)", []string{"rsync", "scp"}},
		{"In gin, how do the multi and csv collection formats for array parameters differ", []string{"multi", "csv collection formats"}},
		{"chi's SetHeader middleware vs its WithValue middleware: what does each set", []string{"SetHeader middleware", "WithValue middleware"}},
		{"my staging config versus their production one", []string{"staging config", "production one"}},
	}
	for _, tc := range cases {
		t.Run(tc.target, func(t *testing.T) {
			if got := comparedItems(tc.target); fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Fatalf("comparedItems = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestComparisonTable: a comparison is one row per item from that item's
// own source (prose before its commands), says so when the evidence lacks
// an item, and adds the statement that says which to pick.
func TestComparisonTable(t *testing.T) {
	scp := plugintest.Text("s::1", "scp", "common/scp.md", 1, "scp {{path/to/file}} {{host}}:{{path}}. Secure copy.")
	rsync := plugintest.Claim("r::1", "rsync", "common/rsync.md", 1, "Transfer files either to or from a remote host. Prefer rsync over scp when a transfer may be interrupted.")
	cases := []struct {
		name, target string
		ev           []plugin.ScoredKU
		want, not    []string
	}{
		{"both items", "difference between scp and rsync", []plugin.ScoredKU{{KU: rsync, Score: 1}, {KU: scp, Score: 0.5}},
			[]string{"| scp | Secure copy. [", "| rsync | Transfer files either to or from a remote host. [", "Prefer rsync over scp when"}, []string{"{{path"}},
		{"an item the evidence lacks", "difference between sftp and rsync for file transfers", []plugin.ScoredKU{{KU: rsync, Score: 1}},
			[]string{"| sftp | the evidence says nothing about sftp |", "| rsync | Transfer files"}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := solve(t, nil, &plugin.SolveInput{Intents: []plugin.Intent{{ID: "i1", Act: "compare", Target: tc.target}}, Evidence: tc.ev})
			checkMD(t, res.ResponseMarkdown, tc.want, tc.not)
		})
	}
}

// TestComparisonRowForms: an item that no statement names as written is
// looked for by its leading words ("Panic" of "Fatal and Panic logging"),
// and an item's own page speaks for it by its description, not by one of
// its examples.
func TestComparisonRowForms(t *testing.T) {
	levels := plugintest.Text("l::1", "Level logging", "logrus/README.md", 1, "Fatal calls os.Exit(1) after logging the entry. Panic calls panic() after logging the entry.")
	chmod := plugintest.Text("c::1", "chmod", "common/chmod.md", 1, "Change the access permissions of a file or directory.\n\n- Give the user who owns a file the right to execute it:\n\n`chmod u+x {{path/to/file}}`")
	chown := plugintest.Text("o::1", "chown", "common/chown.md", 1, "Change user and group ownership of files and directories.")
	allLevels := plugintest.Text("l::2", "Level logging", "logrus/README.md", 1, "Logrus has seven logging levels: Trace, Debug, Info, Warning, Error, Fatal and Panic.\n\n```go\n// Calls os.Exit(1) after logging\nlogrus.Fatal(\"Bye.\")\n// Calls panic() after logging\nlogrus.Panic(\"I'm bailing.\")\n```")
	viperMD := "# Viper\n\n## Establishing Defaults\n\nA good configuration system will support default values. A default value is not required for a key, but it is useful when a key has not been set.\n\nExamples:\n\n```go\nviper.SetDefault(\"ContentDir\", \"content\")\n```\n\n## Setting Overrides\n\nThese could be from a command line flag, or from your own application logic.\n\n```go\nviper.Set(\"Verbose\", true)\n```\n"
	doc, err := kus.Parse([]byte(viperMD), kus.SourceInfo{SourceID: "viper/README.md"})
	if err != nil {
		t.Fatal(err)
	}
	var defaults, overrides *kus.KU
	for _, k := range doc.Units {
		switch {
		case k.Level == kus.LevelLeaf && k.Title == "Establishing Defaults":
			defaults = k
		case k.Level == kus.LevelLeaf && k.Title == "Setting Overrides":
			overrides = k
		}
	}
	if defaults == nil || overrides == nil {
		t.Fatal("sections not read as leaf units")
	}
	corpus := srcCorpus{"viper/README.md": viperMD}
	cases := []struct {
		name, target string
		ev           []plugin.ScoredKU
		want         []string
	}{
		{"a statement naming every item tells none apart", "difference between Fatal and Panic in logrus", []plugin.ScoredKU{{KU: allLevels, Score: 1}},
			[]string{"| Fatal | `// Calls os.Exit(1) after logging", "| Panic | `// Calls panic() after logging"}},
		{"code an introduction shows, after what its section says", "In viper, how does Set differ from SetDefault", []plugin.ScoredKU{{KU: defaults, Score: 1}, {KU: overrides, Score: 0.9}},
			[]string{"| SetDefault | A default value is not required for a key, but it is useful when a key has not been set.; `viper.SetDefault(\"ContentDir\", \"content\")` [", "| Set | "}},
		{"shared head noun", "difference between Fatal and Panic logging in logrus", []plugin.ScoredKU{{KU: levels, Score: 1}},
			[]string{"| Fatal | Fatal calls os.Exit(1)", "| Panic logging | Panic calls panic()"}},
		{"own page by its description", "chmod versus chown, which does what", []plugin.ScoredKU{{KU: chmod, Score: 1.5}, {KU: chown, Score: 0.5}},
			[]string{"| chmod | Change the access permissions", "| chown | Change user and group ownership"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var cited []*kus.KU
			num := func(k *kus.KU) int { cited = append(cited, k); return len(cited) }
			got, ok := compareRows(tc.ev, tc.target, symbolic.ContentTerms(tc.target), num, corpus, 1)
			if !ok {
				t.Fatalf("compareRows: no table for %q", tc.target)
			}
			checkMD(t, got, tc.want, nil)
		})
	}
}

// TestComparisonOwnPages: an item's own page speaks in its row by its whole
// description (the sentence that relates it to the other item included)
// and by the example that does what the question asks beyond the names;
// an example's description that says how to run it is not a verdict on
// which to pick; a recommendation between named items is their comparison.
func TestComparisonOwnPages(t *testing.T) {
	top := parseMD(t, "linux/top.md", "# top\n\n> Display dynamic real-time information about running processes.\n> See also: `htop`.\n> More information: <https://manned.org/top>.\n\n- Start `top`:\n\n`top`\n\n- Show the individual threads of a given process:\n\n`top {{[-Hp|-H -p]}} {{process_id}}`\n")
	htop := parseMD(t, "common/htop.md", "# htop\n\n> Display dynamic real-time information about running processes. An enhanced version of `top`.\n> More information: <https://htop.dev/>.\n\n- Start `htop`:\n\n`htop`\n\n- Sort processes by a specified `sort_item` (use `htop --sort help` for available options):\n\n`htop {{[-s|--sort]}} {{sort_item}}`\n\n- Switch to a different tab:\n\n`<Tab>`\n")
	wget := parseMD(t, "common/wget.md", "# wget\n\n> Download files from the Web.\n> Supports HTTP, HTTPS, and FTP.\n\n- Download the contents of a URL to a file:\n\n`wget {{https://example.com/foo}}`\n\n- Download all listed files within a directory and its sub-directories:\n\n`wget {{[-mnp|--mirror --no-parent]}} {{https://example.com/some_path/}}`\n")
	curl := parseMD(t, "common/curl.md", "# curl\n\n> Transfers data from or to a server.\n> Supports most protocols, including HTTP, HTTPS, FTP, SCP, etc.\n\n- Make an HTTP GET request and dump the contents in `stdout`:\n\n`curl {{https://example.com}}`\n\n- Download a file, saving the output under the filename indicated by the URL:\n\n`curl {{[-O|--remote-name]}} {{https://example.com/filename.zip}}`\n")

	md := solveMD(t, "compare", "What is the difference between top and htop?", "difference between top and htop", []mdSource{top, htop}, htop.soleLeaf(t), top.soleLeaf(t))
	checkMD(t, md, []string{"| htop | Display dynamic real-time information about running processes. An enhanced version of `top`. [", "| top | Display dynamic real-time information about running processes. See also: `htop`. ["},
		[]string{"Sort processes", "different tab", "More information"})

	md = solveMD(t, "recommend", "Should I use curl or wget to download a whole directory of a website?", "Should I use curl or wget to download a whole directory of a website", []mdSource{wget, curl}, wget.soleLeaf(t), curl.soleLeaf(t))
	checkMD(t, md, []string{"| item | what the sources say |", "| curl | Transfers data from or to a server. Supports most protocols",
		"| wget | Download files from the Web. Supports HTTP, HTTPS, and FTP. Download all listed files within a directory and its sub-directories: `wget {{[-mnp\\|--mirror --no-parent]}}"}, nil)
}

// TestListGroupsFromItsOwnIndent: a list a sentence introduces is its own
// group of items, its top level the least indented of its items (" *
// explicit call to Set"), so a row quoting one item does not bring the
// items of the list above.
func TestListGroupsFromItsOwnIndent(t *testing.T) {
	src := parseMD(t, "viper/README.md", "# Viper\n\n## Why Viper?\n\nViper does the following for you:\n\n1. Find, load, and unmarshal a configuration file.\n2. Make it easy to tell the difference between a user value and the default.\n\nViper uses the following precedence order:\n\n * explicit call to `Set`\n * flag\n * default\n")
	var ss []statement
	for _, s := range statementsOf(src.leaf(t, "Why Viper?"), srcCorpus{src.id: src.md}) {
		if s.kind == kindItem {
			ss = append(ss, s)
		}
	}
	if len(ss) != 5 {
		t.Fatalf("%d items, want 5: %+v", len(ss), ss)
	}
	for i, s := range ss[2:] {
		if s.indent != 0 || s.group == ss[1].group || i > 0 && s.group == ss[i+1].group {
			t.Errorf("item %q: indent %d group %d (the item above: group %d)", s.text, s.indent, s.group, ss[i+1].group)
		}
	}
}

// TestShortItemUnderItsIntroduction: a short item of an introduced list
// speaks in a comparison's row under the sentence introducing it.
func TestShortItemUnderItsIntroduction(t *testing.T) {
	src := parseMD(t, "viper/README.md", "# Viper\n\n## Why Viper?\n\nViper uses the following precedence order. Each item takes precedence over the item below it:\n\n * explicit call to `Set`\n * flag\n * default\n")
	ss := statementsOf(src.leaf(t, "Why Viper?"), srcCorpus{src.id: src.md})
	i := slices.IndexFunc(ss, func(s statement) bool { return s.text == "explicit call to Set" })
	if i < 0 {
		t.Fatalf("no item \"explicit call to Set\" in %+v", ss)
	}
	row := rowStatements(ss, i)
	if len(row) != 2 || row[0].text != "Each item takes precedence over the item below it:" || len(row[0].block) != 0 {
		t.Fatalf("row = %+v", row)
	}
}

// TestComparisonSaysWhatThePageCompares: a statement that sets the items
// side by side ("Compared with B, A misses ...") follows the rows built
// from each item's description; one that names both without comparing
// them does not.
func TestComparisonSaysWhatThePageCompares(t *testing.T) {
	fast := plugintest.Claim("f::1", "fastdet", "plugin::fastdet", 1, "fastdet is the lightweight model detector: one call emits the intents.")
	sym := plugintest.Claim("s::1", "symdet", "plugin::symdet", 1, "symdet is the rule-based detector: patterns and keyword rules, no model.")
	vs := plugintest.Claim("s::2", "symdet versus model detectors", "plugin::symdet", 9, "Compared with fastdet, symdet misses implicit intents and paraphrases in long turns.")
	both := plugintest.Claim("s::3", "detectors", "plugin::symdet", 12, "symdet and fastdet both emit intents.")
	ev := []plugin.ScoredKU{{KU: both, Score: 1}, {KU: vs, Score: 1}, {KU: sym, Score: 0.9}, {KU: fast, Score: 0.8}}
	res := solve(t, nil, &plugin.SolveInput{Intents: []plugin.Intent{{ID: "i1", Act: "compare", Target: "symdet compare with fastdet"}}, Evidence: ev})
	checkMD(t, res.ResponseMarkdown, []string{"| symdet | symdet is the rule-based detector", "| fastdet | fastdet is the lightweight",
		"\nCompared with fastdet, symdet misses implicit intents"}, []string{"both emit"})
}

// TestComparisonOfInvocations: an item that is a command with its
// argument ("umask 077") is spoken for by the example whose command runs
// it, placeholders read as their values, not by the description of the
// command the page is titled by.
func TestComparisonOfInvocations(t *testing.T) {
	src := parseMD(t, "common/umask.md", "# umask\n\n> Manage the permissions that are masked out for newly created files.\n\n"+
		"- Display the current mask in octal notation:\n\n`umask`\n\n"+
		"- Change the mask symbolically to allow read permission for all users:\n\n`umask {{a+r}}`\n\n"+
		"- Set the mask to restrict all permissions for everyone but the owner:\n\n`umask {{077}}`\n")
	md := solveMD(t, "compare", "What's the difference between umask 077 and umask a+r?", "the difference between umask 077 and umask a+r",
		[]mdSource{src}, src.soleLeaf(t))
	checkMD(t, md, []string{"| umask 077 | Set the mask to restrict all permissions", "| umask a+r | Change the mask symbolically"},
		[]string{"| umask 077 | Manage the permissions"})
}

// TestComparisonByDocComment: a code comment that opens with an item's
// name is the code's own description of it and speaks for it, alone,
// before a line elsewhere that only uses it.
func TestComparisonByDocComment(t *testing.T) {
	src := parseMD(t, "chi/README.md", "# chi\n\n## Examples\n\nHere is a router:\n\n```go\n// RESTy routes for the \"articles\" resource of the example service\nr.Route(\"/articles\", func(r chi.Router) {\n})\n```\n\n"+
		"## Router interface\n\nchi's router is based on a kind of radix trie.\n\nBuilt on top of the tree is the `Router` interface:\n\n```go\ntype Router interface {\n\t// Route mounts a sub-Router along a pattern string.\n\tRoute(pattern string, fn func(r Router)) Router\n\n\t// Mount attaches another http.Handler along ./pattern/*\n\tMount(pattern string, h http.Handler)\n}\n```\n")
	md := solveMD(t, "compare", "In chi, how does Route differ from Mount?", "In chi, how does Route differ from Mount",
		[]mdSource{src}, src.leaf(t, "Examples"), src.leaf(t, "Router interface"))
	checkMD(t, md, []string{"Route mounts a sub-Router", "Mount attaches another"}, []string{"RESTy routes", "radix trie"})
}

// TestRowCellWithoutPadding: a table row quoted in a comparison's cell
// reads as its cells, without the spaces that align the page's columns.
func TestRowCellWithoutPadding(t *testing.T) {
	s := statement{kind: kindRow, md: []string{"| csv             | Comma-separated values.          | foo,bar,baz |"}}
	if got, want := cellText(s), "csv — Comma-separated values. — foo,bar,baz"; got != want {
		t.Fatalf("cellText = %q, want %q", got, want)
	}
	s = statement{kind: kindRow, md: []string{"| pipes | Pipe-separated values. | foo\\|bar |"}}
	if got, want := cellText(s), "pipes — Pipe-separated values. — foo|bar"; got != want {
		t.Fatalf("cellText = %q, want %q", got, want)
	}
}

// TestComparisonRowFromTheSectionHeadedByTheItem: an item's row comes from
// the section whose heading names what sets the item apart ("locked" of
// kb_locked), before a page that names every item in passing.
func TestComparisonRowFromTheSectionHeadedByTheItem(t *testing.T) {
	stored := plugintest.Text("r::1", "How the knowledge base is stored", "README.md", 10,
		"A file locked by another process fails with `kb_locked`. A file the user cannot write is `kb_read_only`.")
	locked := plugintest.Text("t::1", "The knowledge base is locked", "docs/troubleshooting.md", 5,
		"When another process holds the file, commands fail with the code `kb_locked` instead of waiting.")
	readOnly := plugintest.Text("t::2", "The knowledge base file is read-only", "docs/troubleshooting.md", 20,
		"A file you cannot write is reported with the code `kb_read_only` and is not damaged.")
	res := solve(t, nil, &plugin.SolveInput{Payload: plugin.Payload{Prompt: "kb_locked vs kb_read_only: what's the difference?"},
		Intents:  []plugin.Intent{{ID: "i1", Act: "compare", Target: "kb_locked vs kb_read_only: what's the difference"}},
		Evidence: []plugin.ScoredKU{{KU: stored, Score: 1}, {KU: locked, Score: 0.8}, {KU: readOnly, Score: 0.7}}})
	checkMD(t, res.ResponseMarkdown, []string{"instead of waiting", "is not damaged"}, []string{"another process fails"})
}

const decodingMD = "# Lib\n\n## Decoding\n\nYou also have the option of decoding all or a specific value to a struct.\n\nThere are two methods to do this:\n\n * `Decode(rawVal any) : error`\n * `DecodeKey(key string, rawVal any) : error`\n\nLib uses mapstructure under the hood for decoding values.\n"

// TestComparisonOfItemsListedTogether: items a page lists together as the
// ways of doing one thing are set apart by the paragraph before the list.
func TestComparisonOfItemsListedTogether(t *testing.T) {
	src := parseMD(t, "lib/README.md", decodingMD)
	md := solveMD(t, "compare", "lib Decode or DecodeKey: what is the difference?", "lib Decode or DecodeKey: what is the difference", []mdSource{src}, src.leaf(t, "Decoding"))
	checkMD(t, md, []string{"all or a specific value"}, nil)
}

// TestTitledBy: a section's heading that names an item after a colon is
// that item's own, as a heading that is the item is.
func TestTitledBy(t *testing.T) {
	checkPredicate(t, "titledBy", titledBy, []pairCase{
		{"Searching and measuring retrieval: mrpvm search", "mrpvm search", true},
		{"htop", "htop", true},
		{"Searching and measuring retrieval: mrpvm search", "mrpvm ask", false},
		{"mrpvm search: options", "mrpvm search", false},
	})
}

// TestComparisonRowLedParagraph: a sentence that leads with its item
// brings the next sentence of its paragraph, which says what the item
// does; a sentence naming the other item is not brought along.
func TestComparisonRowLedParagraph(t *testing.T) {
	src := parseMD(t, "viper/README.md", "# Viper\n\n## Working with Environment Variables\n\n"+
		"`BindEnv` takes one or more parameters. The first parameter is the key name. Unlike `AutomaticEnv`, it binds one key.\n\n"+
		"`AutomaticEnv` is a powerful helper especially when combined with `SetEnvPrefix`. When called, Viper will check for an environment variable any time a `viper.Get` request is made.\n")
	md := solveMD(t, "compare", "In viper, how does BindEnv differ from AutomaticEnv?", "In viper, how does BindEnv differ from AutomaticEnv",
		[]mdSource{src}, src.leaf(t, "Working with Environment Variables"))
	checkMD(t, md, []string{"The first parameter is the key name.", "any time a `viper.Get` request is made"}, []string{"it binds one key"})
}

// TestComparisonRowTakesTheExampleThatSetsApart: of an item's examples
// that bear equally on what the question asks, its row shows the one
// that contrasts its way with another ("instead of just the process
// name").
func TestComparisonRowTakesTheExampleThatSetsApart(t *testing.T) {
	killall := parseMD(t, "common/killall.md", "# killall\n\n> Send kill signal to all instances of a process by name (must be exact name).\n\n- Terminate a process using the default SIGTERM (terminate) signal:\n\n`killall {{process_name}}`\n")
	pkill := parseMD(t, "common/pkill.md", "# pkill\n\n> Signal process by name.\n> Mostly used for stopping processes.\n\n- Kill all processes which match:\n\n`pkill \"{{process_name}}\"`\n\n"+
		"- Kill all processes which match their full command instead of just the process name:\n\n`pkill {{[-f|--full]}} \"{{command_name}}\"`\n")
	md := solveMD(t, "compare", "killall or pkill: how do they differ in the way they match a process?", "killall or pkill: how do they differ in the way they match a process",
		[]mdSource{killall, pkill}, killall.soleLeaf(t), pkill.soleLeaf(t))
	checkMD(t, md, []string{"--full"}, []string{"Kill all processes which match: "})
}
