package gssymbolic

import (
	"strings"
	"testing"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
)

const listFirstMD = "# Tool\n\n## Batch output\n\n" +
	"- `--run FILE` writes a TREC run, `qid Q0 docid rank score tag` (`--run -` writes it to standard output; `--tag` sets the tag).\n" +
	"- `--qrels FILE` prints nDCG@10 and MRR@10 over the judged queries.\n\n" +
	"Figures measured end to end with `tool search --queries ... --qrels ...`:\n\n" +
	"| plugin | nDCG@10 |\n| --- | --- |\n| fast | 0.70 |\n"

// TestProsePages: what answers a task asked of a page written as prose.
func TestProsePages(t *testing.T) {
	checkPages(t, []pageCase{
		// An identifier a page names in prose ("Like the standard
		// http.ServeMux") does not show how to do the task as code calling
		// it does; the section written for the task answers.
		{name: "identifier in prose", id: "mux/README.md", md: "# gorilla/mux\n\nPackage `gorilla/mux` implements a request router.\n\nLike the standard `http.ServeMux`, `mux.Router` matches incoming requests. The main features are:\n\n* It implements the `http.Handler` interface so it is compatible with the standard `http.ServeMux`.\n* Routes can be used as subrouters.\n\n## Graceful Shutdown\n\nGo 1.8 introduced the ability to gracefully shutdown a `*http.Server`. Here's how to do that alongside `mux`:\n\n```go\nsrv := &http.Server{Handler: r}\nctx, cancel := context.WithTimeout(context.Background(), wait)\ndefer cancel()\nsrv.Shutdown(ctx)\n```\n",
			act: "implement", prompt: "How do I shut down a gorilla/mux server gracefully?", target: "shut down a gorilla/mux server gracefully",
			leaves: []string{"gorilla/mux", "Graceful Shutdown"}, want: []string{"srv.Shutdown(ctx)"}, not: []string{"main features"}},
		// The sentence after the best one in its paragraph goes on what it
		// says and is shown with it.
		{name: "paragraph kept together", id: "logrus/README.md", md: "# Logrus\n\n## Level logging\n\nLogrus has seven logging levels: Trace, Debug, Info, Warning, Error, Fatal and Panic.\n\nLogging a fatal message writes it at the fatal level.\n\nA message logged after the level is lowered is dropped.\n\n## Fatal handlers\n\nLogrus can register one or more functions that will be called when any `fatal`\nlevel message is logged. The registered handlers will be executed before\nlogrus performs an `os.Exit(1)`. This behavior may be helpful if callers need\nto gracefully shut down.\n",
			act: "describe", prompt: "What does logrus do after logging a fatal message?", target: "logrus do after logging a fatal message",
			leaves: []string{"Level logging", "Fatal handlers"}, want: []string{"is logged. The registered handlers will be executed before logrus performs an `os.Exit(1)`."}},
		// A section whose opening paragraph says how to do the task, better
		// than any example below it does, leads with that sentence.
		{name: "how in summary", id: "logrus/README.md", md: "# Logrus\n\n#### Thread safety\n\nBy default, Logger is protected by a mutex for concurrent writes. The mutex is held when calling hooks and writing logs.\nIf you are sure such locking is not needed, you can call logger.SetNoLock() to disable the locking.\n\nSituations when locking is not needed include:\n\n* You have no hooks registered, or hooks calling is already thread-safe.\n\n* Writing to logger.Out is already thread-safe.\n",
			act: "implement", prompt: "How do I disable the mutex locking in logrus?", target: "disable the mutex locking in logrus",
			leaves: []string{"Thread safety"}, want: []string{"Thread safety [1]: By default, Logger is protected by a mutex for concurrent writes. … If you are sure such locking is not needed, you can call logger.SetNoLock() to disable the locking."}},
		// The sentence of an opening paragraph that holds more of the task
		// than the lead and the best example's description joins the lead,
		// code or not.
		{name: "how in summary prose", id: "docs/sessions.md", md: "# Sessions\n\n## Sessions\n\nEvery answer ends with a session id. Pass that id to `--session` to ask a follow-up.\nA session that is never used again expires after thirty days.\n\nExamples:\n\n```sh\nmrpvm ask --session s-1 \"and how do I remove one?\"\n```\n",
			act: "implement", prompt: "When does an unused session expire?", target: "unused session expire days",
			leaves: []string{"Sessions"}, want: []string{"Sessions [1]: Every answer ends with a session id. … A session that is never used again expires after thirty days."}},
		// In prose documentation the paragraph right above a code block
		// says what it does, colon or not; a section showing several
		// blocks answers a task with the block whose paragraph matches,
		// after the section's opening sentence.
		{name: "prose code is an example", id: "README.md", md: testdataMD(t, "tool-search.md"),
			act: "implement", prompt: "How do I evaluate retrieval on BEIR queries?", target: "evaluate retrieval on BEIR queries",
			leaves: []string{"Searching and measuring retrieval: tool search"},
			want: []string{"- **Batches and evaluation.** `--queries` reads BEIR queries (one JSON object per line) and ranks sources for each.\n\n  ```sh\n  tool search --queries queries.jsonl --run fast.trec --k 100\n",
				"[1]: `search` ranks the knowledge base"}, not: []string{"chlorophyll", "rust-ownership"}},
		// A FAQ's answer is quoted without its "A:" label, and a link whose
		// target holds parentheses leaves only its text.
		{name: "FAQ answer and nested links", id: "viper/README.md", md: "# Viper\n\n## FAQ\n\n### Why is it called “Viper”?\n\nA: Viper is designed to be a [companion](http://en.wikipedia.org/wiki/Viper_(G.I._Joe))\nto [Cobra](https://github.com/spf13/cobra). Together they make a powerful pair.\n",
			act: "explain", prompt: "Why is it called Viper?", target: "it called Viper",
			leaves: []string{"Why is it called “Viper”?"}, want: []string{"Viper is designed to be a companion to Cobra."}, not: []string{"A: ", "Joe", ") to"}},
	})
}

const msgpackMD = "# Gin\n\n## Build without `MsgPack` rendering feature\n\n" +
	"Gin enables `MsgPack` rendering feature by default. But you can disable this feature by specifying `nomsgpack` build tag.\n\n" +
	"```sh\ngo build -tags=nomsgpack .\n```\n\n" +
	"This is useful to reduce the binary size of executable files.\n\n" +
	"## Replace JSON package\n\nYou can build Gin with jsoniter. You can build Gin with go-json.\n"

const vipersMD = "# Viper\n\n## Viper or Vipers?\n\n" +
	"Viper comes with a global instance out of the box. The best practice is to initialize a Viper instance and pass that around.\n\n" +
	"## Q & A\n\n### Is it safe to concurrently read and write to a viper?\n\n" +
	"No, you will need to synchronize access to the viper yourself (for example by using the `sync` package).\n"

const watchMD = "# Viper\n\n## What is Viper?\n\nViper is a configuration solution. It supports:\n\n" +
	"* setting defaults\n* live watching and re-reading of config files (optional)\n* reading from environment variables\n\n" +
	"## Watching and re-reading config files\n\nViper supports the ability to have your application live read a config file while running.\n\n" +
	"Simply tell the viper instance to watchConfig.\n\n" +
	"```go\nviper.OnConfigChange(func(e fsnotify.Event) {\n\tfmt.Println(\"Config file changed:\", e.Name)\n})\nviper.WatchConfig()\n```\n"

const endpointMD = "# Tool\n\n## Model endpoints and secrets\n\n" +
	"Every model endpoint configured is checked before it is used.\n\n" +
	"## Without a model\n\n" +
	"With no endpoint configured the model plugins answer unsupported and the symbolic plugins answer instead.\n"

const kuFieldsMD = "# Contracts\n\n## Knowledge Units\n\n" +
	"A knowledge unit is the smallest unit of knowledge stored and retrieved:\n\n" +
	"- identity: `id`, `kuType`, `level`;\n- utility: `utilityActs`, `phaseScopes` and a note of the knowledge unit;\n\n" +
	"### PhaseScopes\n\n`phaseScopes` says which stage a KU guides: `kb-plugin` (evidence; the default) or `gs-plugin`.\n"

const chiDocgenMD = "# chi\n\n## Install\n\n" +
	"The core router of chi is quite small, but we've also included some useful subpackages of chi: middleware, render and docgen.\n\n" +
	"## Features\n\n* **Lightweight** - cloc'd in about 1000 LOC for the chi router\n" +
	"* **Doc generation** - `docgen` auto-generates routing documentation from your source to JSON or Markdown\n"

const bindUriMD = "# Gin\n\n### Bind Header\n\n" +
	"```go\ntype testHeader struct {\n  Rate int `header:\"Rate\"`\n}\n\nfunc main() {\n  r := gin.Default()\n  r.GET(\"/\", func(c *gin.Context) {\n    h := testHeader{}\n    c.ShouldBindHeader(&h)\n  })\n}\n```\n\n" +
	"### Bind Uri\n\nSee the [detail information](https://github.com/gin-gonic/gin/issues/846).\n\n" +
	"```go\ntype Person struct {\n  ID string `uri:\"id\" binding:\"required,uuid\"`\n}\n\nfunc main() {\n  route := gin.Default()\n  route.GET(\"/:name/:id\", func(c *gin.Context) {\n    var person Person\n    c.ShouldBindUri(&person)\n  })\n}\n```\n\n" +
	"Test it with:\n\n```sh\ncurl -v localhost:8088/thinkerou/987fbc97-4bed-5078-9f07-9141ba07c9f3\n```\n"

const ginShutdownMD = "# Gin Quick Start\n\n## API Examples\n\n### Graceful shutdown or restart\n\n" +
	"There are a few approaches you can use to perform a graceful shutdown or restart.\n\n" +
	"#### Manually\n\nIn case you are using Go 1.8 or a later version, you may not need to use those libraries. Consider using `http.Server`'s built-in `Shutdown()` method for graceful shutdowns.\n\n" +
	"```go\nfunc main() {\n  router := gin.Default()\n  srv := &http.Server{Addr: \":8080\", Handler: router}\n  go srv.ListenAndServe()\n  <-quit\n  srv.Shutdown(ctx)\n}\n```\n"

const muxShutdownMD = "# gorilla/mux\n\n## Examples\n\n### Graceful Shutdown\n\n" +
	"Go 1.8 introduced the ability to gracefully shutdown a `*http.Server`. Here's how to do that alongside `mux`:\n\n" +
	"```go\nfunc main() {\n  r := mux.NewRouter()\n  srv := &http.Server{Handler: r}\n  go srv.ListenAndServe()\n  srv.Shutdown(ctx)\n}\n```\n"

const ginSkipMD = "# Gin Quick Start\n\n## API Examples\n\n### Skip logging\n\n" +
	"```go\nfunc main() {\n  router := gin.New()\n  // skip logging for desired paths by setting SkipPaths in LoggerConfig\n  loggerConfig := gin.LoggerConfig{SkipPaths: []string{\"/metrics\"}}\n  router.Use(gin.LoggerWithConfig(loggerConfig))\n}\n```\n"

const muxMiddlewareMD = "# gorilla/mux\n\n## Examples\n\n### Middleware\n\n" +
	"Middlewares take one request, do something with it, and pass it down to the final handler. Some common use cases for middleware are request logging.\n\n" +
	"A middleware that logs each request and can stop the handler chain could be written as:\n\n" +
	"```go\nfunc loggingMiddleware(next http.Handler) http.Handler {\n  return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {\n    log.Println(r.RequestURI) // log the request, or stop here\n    next.ServeHTTP(w, r)\n  })\n}\n```\n"

const troubleshootingMD = "# Troubleshooting\n\n## A file is skipped\n\nA symlink whose target lies outside the workspace is never followed.\nA file or folder whose name is not valid UTF-8 is skipped with\n`file_name_not_utf8`; the message quotes the raw name so you can find and rename it.\n"

const ginReadmeMD = "# Gin\n\n## Contributing\n\nGin is the work of hundreds of contributors from around the world. We welcome your contributions!\n"

const ginSMD = "# Gin Default Server\n\nThis is API experiment for Gin.\n\n```go\nginS.GET(\"/\", func(c *gin.Context) { c.String(200, \"Hello World\") })\nginS.Run()\n```\n"

// mdPage is a Markdown file by its source id.
type mdPage struct{ id, md string }

// proseCase is a task asked of Markdown pages, the leaves titled leaves
// (each found in the one page that has it) its evidence in that order, and
// what the answer must say (want), must not (not), must open with
// (prefix, with why it must when it does not), and any check of its own.
type proseCase struct {
	name                string
	pages               []mdPage
	act, prompt, target string
	leaves, want, not   []string
	prefix, why         string
	check               func(t *testing.T, md string)
}

// pageLeaf is the leaf titled title of the one source that has it.
func pageLeaf(t *testing.T, srcs []mdSource, title string) *kus.KU {
	t.Helper()
	var found []mdSource
	for _, src := range srcs {
		for _, k := range src.units {
			if k.Level == kus.LevelLeaf && k.Title == title {
				found = append(found, src)
				break
			}
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d sources have a leaf titled %q, want 1", len(found), title)
	}
	return found[0].leaf(t, title)
}

// TestProseAnswers: what answers a task asked of pages written as prose,
// and what the answer leads with.
func TestProseAnswers(t *testing.T) {
	cases := []proseCase{
		// A unit that opens with a list has no summary sentence to lead
		// the answer with; a list item's first clause is not one.
		{name: "list is no lead", pages: []mdPage{{"README.md", listFirstMD}},
			act: "implement", prompt: "How do I measure nDCG of the judged queries?", target: "measure nDCG of the judged queries",
			leaves: []string{"Batch output"},
			check: func(t *testing.T, md string) {
				if first, _, _ := strings.Cut(md, "\n"); strings.Contains(first, "--run FILE") || strings.Contains(first, "]: -") {
					t.Errorf("the answer leads with a list item:\n%s", md)
				}
			}},
		// The code a section shows right after its opening sentence is
		// shown after that sentence, before the examples described by
		// their own paragraphs, not between them.
		{name: "undescribed code follows the lead", pages: []mdPage{{"gin/docs/doc.md", testdataMD(t, "gin-redirects.md")}},
			act: "implement", prompt: "How do I redirect a request in gin?", target: "redirect a request in gin",
			leaves: []string{"Redirects"},
			check: func(t *testing.T, md string) {
				lead, post := strings.Index(md, "StatusMovedPermanently"), strings.Index(md, "- Issuing a HTTP redirect from POST")
				if lead < 0 || post < 0 || lead > post {
					t.Errorf("the section's own code does not follow its opening sentence:\n%s", md)
				}
			}},
		// A clause after a ";" quoted without the clause before it is
		// marked as the rest of a sentence; quoted with it, it reads on.
		{name: "clause quoted alone", pages: []mdPage{{"docs/troubleshooting.md", troubleshootingMD}},
			act: "describe", prompt: "What does the message quote?", target: "message quote raw rename",
			leaves: []string{"A file is skipped"}, want: []string{"… the message quotes the raw name"}},
		{name: "clause quoted with the one before it", pages: []mdPage{{"docs/troubleshooting.md", troubleshootingMD}},
			act: "describe", prompt: "Which file name is skipped, and what does the message quote?", target: "file name not valid UTF-8 skipped message quote raw name",
			leaves: []string{"A file is skipped"}, want: []string{"`file_name_not_utf8`; the message quotes the raw name"}, not: []string{"…"}},
		// A sentence that refers back to what the best statement showed
		// in its block ("It is supposed to return ...") says what that is
		// for, and is shown with it; a sentence after the block that does
		// not refer back is not drawn in.
		{name: "sentence after the block goes on", pages: []mdPage{{"viper/UPGRADE.md", testdataMD(t, "viper-finder.md")}},
			act: "define", prompt: "What's the Finder interface in viper for?", target: "the Finder interface in viper for",
			leaves: []string{"New file searching API", "Flags"},
			want:   []string{"type Finder interface", "It is supposed to return a list of paths to config files."}, not: []string{"locafero"}},
		// When a code block follows the best sentence and shows what it
		// says, the sentence after that block that refers back to it
		// ("This is useful to reduce ...") is shown with it.
		{name: "sentence after the code goes on", pages: []mdPage{{"gin/docs/doc.md", msgpackMD}},
			act: "explain", prompt: "Why would I build gin with the nomsgpack tag?", target: "would I build gin with the nomsgpack tag",
			leaves: []string{"Build without MsgPack rendering feature", "Replace JSON package"},
			want:   []string{"specifying `nomsgpack` build tag", "This is useful to reduce the binary size"}},
		// A yes/no question is answered first by the section headed by a
		// question much like it, even when the retriever ranked another
		// section higher.
		{name: "question answered under its heading", pages: []mdPage{{"viper/README.md", vipersMD}},
			act: "verify", prompt: "Is it safe to use one viper instance from several goroutines?", target: "Is it safe to use one viper instance from several goroutines",
			leaves: []string{"Viper or Vipers?", "Is it safe to concurrently read and write to a viper?"},
			prefix: "No, you will need to synchronize access", why: "the answer does not open with the section that asks the question"},
		// A question about something's absence ("when no model endpoint
		// is configured") is answered first by the statement that speaks
		// of its absence, not by one about it being there.
		{name: "absence answered by absence", pages: []mdPage{{"README.md", endpointMD}},
			act: "describe", prompt: "What happens when no model endpoint is configured?", target: "happens when no model endpoint is configured",
			leaves: []string{"Model endpoints and secrets", "Without a model"},
			prefix: "With no endpoint configured", why: "the answer does not lead with the statement about the absence"},
		// A definition is answered from the section its term heads, not
		// from a passage about the scope it is asked in that names it in
		// passing.
		{name: "definition from the section it heads", pages: []mdPage{{"docs/contracts.md", kuFieldsMD}},
			act: "define", prompt: "What are phaseScopes on a knowledge unit?", target: "phaseScopes on a knowledge unit",
			leaves: []string{"Knowledge Units", "PhaseScopes"}, want: []string{"says which stage a KU guides"},
			check: func(t *testing.T, md string) {
				if i := strings.Index(md, "says which stage"); i > strings.Index(md, "smallest unit") && strings.Contains(md, "smallest unit") {
					t.Fatalf("the section the term heads does not lead:\n%s", md)
				}
			}},
		// A statement that opens with the defined term says what it is,
		// before one about the scope it is asked in that names it in
		// passing.
		{name: "definition from the statement it opens", pages: []mdPage{{"chi/README.md", chiDocgenMD}},
			act: "define", prompt: "What is docgen in chi?", target: "docgen in chi",
			leaves: []string{"Install", "Features"}, want: []string{"auto-generates routing documentation"}},
		// The code a section shows before its first description line
		// ("Test it with:") is the section's own example, which the
		// section's heading describes: a how-to the heading names is
		// answered with it, not with a section that only shares the words
		// a sibling part lends.
		{name: "code before first description", pages: []mdPage{{"gin/docs/doc.md", bindUriMD}},
			act: "implement", prompt: "How do I bind URI path parameters in gin?", target: "bind URI path parameters in gin (headers)",
			leaves: []string{"Bind Uri", "Bind Header"},
			want:   []string{"Bind Uri [1]: See the detail information.\n\n```go", "c.ShouldBindUri(&person)", "[1] Bind Uri — gin/docs/doc.md:"}, not: []string{"ShouldBindHeader"}},
		// The headings a section stands under say what it is about: gin's
		// "Manually" under "Gin Quick Start > Graceful shutdown or
		// restart" answers how to shut down a gin server gracefully,
		// before another library's "Graceful Shutdown".
		{name: "section about what its headings name", pages: []mdPage{{"gin/docs/doc.md", ginShutdownMD}, {"mux/README.md", muxShutdownMD}},
			act: "implement", prompt: "How do I shut down a gin server gracefully?", target: "shut down a gin server gracefully",
			leaves: []string{"Graceful Shutdown", "Manually"},
			want:   []string{"router := gin.Default()", "[1] Manually — gin/docs/doc.md:"}, not: []string{"mux.NewRouter()"}},
		// A how-to that names what a page's top heading names ("stop gin
		// from logging requests", under "Gin Quick Start") is answered
		// from that page's section that shows how before a section of
		// another library's page holding as many of its words.
		{name: "task names the root heading", pages: []mdPage{{"gin/docs/doc.md", ginSkipMD}, {"mux/README.md", muxMiddlewareMD}},
			act: "implement", prompt: "How can I stop gin from logging requests to /metrics?", target: "stop gin from logging requests to /metrics",
			leaves: []string{"Middleware", "Skip logging"},
			want:   []string{"SkipPaths", "[1] Skip logging — gin/docs/doc.md:"}, not: []string{"loggingMiddleware"}},
		// A definition is answered from the page filed under the term's
		// name (gin/ginS/README.md for "ginS"), whose prose says what it
		// is without repeating the name, before another page's sentence
		// that shares the term's stem.
		{name: "definition from page filed under term", pages: []mdPage{{"gin/README.md", ginReadmeMD}, {"gin/ginS/README.md", ginSMD}},
			act: "define", prompt: "What is ginS?", target: "ginS",
			leaves: []string{"Contributing", "Gin Default Server"},
			check: func(t *testing.T, md string) {
				if first, _, _ := strings.Cut(md, "\n"); !strings.Contains(first, "This is API experiment for Gin.") {
					t.Errorf("the answer does not lead with the page filed under the term:\n%s", md)
				}
			}},
	}
	// "Can it ...?" asks whether something can be done, and the page that
	// shows how to do it answers, its code with it; a follow-up asking
	// whether the things of the earlier turn can do something ("and can
	// they reload ...?") asks it as "Can it ...?" does.
	for _, ask := range []struct{ name, opening string }{
		{"can question shows how", "Can it"},
		{"can they question shows how", "Can they"},
		{"and can they question shows how", "and can they"},
	} {
		target := ask.opening + " reload when the config file changes"
		cases = append(cases, proseCase{name: ask.name, pages: []mdPage{{"viper/README.md", watchMD}},
			act: "verify", prompt: target + "?", target: target,
			leaves: []string{"What is Viper?", "Watching and re-reading config files"}, want: []string{"viper.WatchConfig()"}})
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var srcs []mdSource
			for _, p := range tc.pages {
				srcs = append(srcs, parseMD(t, p.id, p.md))
			}
			var ev []*kus.KU
			for _, title := range tc.leaves {
				ev = append(ev, pageLeaf(t, srcs, title))
			}
			md := solveMD(t, tc.act, tc.prompt, tc.target, srcs, ev...)
			checkMD(t, md, tc.want, tc.not)
			if tc.prefix != "" && !strings.HasPrefix(md, tc.prefix) {
				t.Errorf("%s:\n%s", tc.why, md)
			}
			if tc.check != nil {
				tc.check(t, md)
			}
		})
	}
}

// TestNegated: the words a phrase negates ("no model endpoint") are the
// ones a question about an absence asks of.
func TestNegated(t *testing.T) {
	if got := negated("no model endpoint, and never again"); !got["model"] || !got["endpoint"] || len(got) != 2 {
		t.Errorf("negated = %v", got)
	}
}

// TestDefinedSubject: the term a definition asks for is read without the
// scope it is asked in and without its article.
func TestDefinedSubject(t *testing.T) {
	checkCalls(t, "definedSubject", definedSubject, map[string]string{"phaseScopes on a knowledge unit": "phasescopes", "docgen in chi": "docgen", "the reference prior": "reference prior"})
}

// TestNamedPageCoversItsSections: a how-to that names a page ("in
// gorilla/mux") names every section of it, so the page's top section,
// which only lists the feature, does not win over the section under it
// that shows how.
func TestNamedPageCoversItsSections(t *testing.T) {
	src := parseMD(t, "mux/README.md", testdataMD(t, "mux-urls.md"))
	task := "build the URL of a named route in gorilla/mux"
	res := solve(t, srcCorpus{src.id: src.md}, &plugin.SolveInput{Payload: plugin.Payload{Prompt: "How do I " + task + "?"},
		Intents:  []plugin.Intent{{ID: "i1", Act: "implement", Target: task}},
		Evidence: []plugin.ScoredKU{{KU: src.leaf(t, "gorilla/mux"), Score: 1}, {KU: src.leaf(t, "Registered URLs"), Score: 0.7}}})
	md := res.ResponseMarkdown
	checkMD(t, md, []string{"Name(\"article\")", "[1] Registered URLs — mux/README.md:"}, []string{"reversed"})
}

// TestSectionOfSubsectionsReadThroughLeaves: a unit that holds several
// subsections is read through its subsections' own units, not as one
// passage whose examples gather the task's words across subsections.
func TestSectionOfSubsectionsReadThroughLeaves(t *testing.T) {
	src := parseMD(t, "viper/README.md", testdataMD(t, "viper-nested.md"))
	section := src.last(t, "the section", func(k *kus.KU) bool {
		return k.Level == kus.LevelSection && k.Title == "Putting Values into Viper"
	})
	if len(section.ChildUnitIDs) < 2 {
		t.Fatalf("no section unit with subsections: %+v", section)
	}
	md := solveMD(t, "implement", "How do I read a deeply nested value from a viper config?", "read a deeply nested value from a viper config", []mdSource{src}, section, src.leaf(t, "Accessing nested keys"))
	checkMD(t, md, []string{"datastore.metric.host", "[1] Accessing nested keys — viper/README.md:"}, []string{"ReadInConfig"})
}
