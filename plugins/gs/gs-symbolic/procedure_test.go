package gssymbolic

import (
	"strings"
	"testing"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins/internal/symbolic"
)

func page(id, title, body string, score float64) plugin.ScoredKU {
	return plugin.ScoredKU{KU: &kus.KU{ID: id + "::0::0", Title: title, SourceID: id, TextBody: body, Range: kus.Range{StartLine: 3}}, Score: score}
}

var (
	sshKeygen = page("ssh-keygen.md", "ssh-keygen", "Generate SSH keys used for authentication.\n- Generate a key interactively:\nssh-keygen\n"+
		"- Generate an ed25519 key with 32 rounds and save the key to a specific file:\nssh-keygen -f {{~/.ssh/filename}} -t ed25519 -a 32\n", 0.99)
	melt = page("melt.md", "melt", "Backup and restore Ed25519 SSH keys using memorizable seed phrases.\n"+
		"- Generate a seed phrase from an existing Ed25519 private key:\nmelt {{~/.ssh/id_ed25519}}\n", 1)
	sed = page("sed.md", "sed", "Edit text in a scriptable manner.\n- Replace all occurrences of a regular expression in a file:\nsed 's/regex/replace/g' {{path/to/file}}\n", 0.6)
	tr  = page("tr.md", "tr", "Translate characters.\n- Replace all occurrences of a character in a file and print the result:\ntr {{find}} {{replace}} < {{path/to/file}}\n", 1)
)

func TestReadProcedure(t *testing.T) {
	p, ok := readProcedure(sshKeygen.KU)
	if !ok || len(p.examples) != 2 || p.summary != "Generate SSH keys used for authentication." {
		t.Fatalf("%+v", p)
	}
	if p.examples[1].desc != "Generate an ed25519 key with 32 rounds and save the key to a specific file" || len(p.examples[1].how) != 1 {
		t.Errorf("example %+v", p.examples[1])
	}
	if _, ok := readProcedure(&kus.KU{TextBody: "Plain prose. Nothing to run:"}); ok {
		t.Error("prose read as a procedure")
	}
}

func TestNames(t *testing.T) {
	checkPredicate(t, "names", names, []pairCase{
		{"replace a word in a file with sed", "sed", true},
		{"pretty-print JSON using jq", "jq", true},
		{"run the tar command on a file", "tar", true},
		{"add a folder to a zip archive", "zip", false},
		{"create a symbolic link", "link", false},
		{"generate a key with openssl-genrsa", "openssl", false},
		// The tool the task tells to act is named; the word as a verb is not.
		{"tell make to build a target with 4 jobs running in parallel", "make", true},
		{"make a directory with parent folders", "make", false},
		{"get the date to show in UTC", "date", false},
	})
}

func TestSolveProcedurePicksTheExampleThatAnswers(t *testing.T) {
	cases := []struct {
		task   string
		ev     []plugin.ScoredKU
		source string
		says   string
	}{
		// The retriever ranked melt a little higher; the example that generates an
		// ed25519 key is ssh-keygen's.
		{"generate an ed25519 SSH key", []plugin.ScoredKU{melt, sshKeygen}, "ssh-keygen.md", "-t ed25519"},
		// The user named the tool.
		{"replace all occurrences of a word in a file with sed", []plugin.ScoredKU{tr, sed}, "sed.md", "s/regex/replace/g"},
	}
	for _, tc := range cases {
		res := solveProcedure(tc.ev, tc.task, symbolic.ContentTerms(tc.task), guidance{}, nil)
		if res == nil || res.Status != plugin.StatusSuccess {
			t.Fatalf("%s: %+v", tc.task, res)
		}
		if res.EvidenceIDs[0] != tc.source+"::0::0" || !strings.Contains(res.ResponseMarkdown, tc.says) {
			t.Errorf("%s: %v\n%s", tc.task, res.EvidenceIDs, res.ResponseMarkdown)
		}
		if !strings.Contains(res.ResponseMarkdown, "Sources:\n[1] ") {
			t.Errorf("no sources: %s", res.ResponseMarkdown)
		}
	}
	if res := solveProcedure([]plugin.ScoredKU{melt}, "bake bread", symbolic.ContentTerms("bake bread"), guidance{}, nil); res != nil {
		t.Errorf("answered an unrelated task: %s", res.ResponseMarkdown)
	}
}

// TestWholeSectionClosesItsFence: a section whose unit ends before its
// code block's closing fence still shows a closed block.
func TestWholeSectionClosesItsFence(t *testing.T) {
	k := &kus.KU{ID: "l::1", Title: "Fatal handlers", SourceID: "logrus/README.md"}
	p, ok := wholeSection(k, "#### Fatal handlers\n\nLogrus can register handlers.\n\n```go\nlogrus.RegisterExitHandler(handler)\n// ...\n")
	if !ok {
		t.Fatal("no example read")
	}
	how := p.examples[0].how
	if how[len(how)-1] != "```" || strings.Count(strings.Join(how, "\n"), "```") != 2 {
		t.Fatalf("example not closed: %q", how)
	}
}

// TestSectionOfCodeAnswersItsTask: sections that are only code, under
// headings, compete as examples; the one whose code does the task answers,
// not one whose identifier shares the task's nouns with another action
// ("SkipQueryString" for reading query string parameters).
func TestSectionOfCodeAnswersItsTask(t *testing.T) {
	src := parseMD(t, "gin/docs/doc.md", "# API Examples\n\n### Querystring parameters\n\n```go\nfunc main() {\n  router := gin.Default()\n\n  // Query string parameters are parsed using the existing underlying request object.\n  router.GET(\"/welcome\", func(c *gin.Context) {\n    firstname := c.DefaultQuery(\"firstname\", \"Guest\")\n    lastname := c.Query(\"lastname\")\n\n    c.String(http.StatusOK, \"Hello %s %s\", firstname, lastname)\n  })\n  router.Run(\":8080\")\n}\n```\n\n### Avoid logging query strings\n\n```go\nfunc main() {\n  router := gin.New()\n\n  // SkipQueryString indicates that the logger should not log the query string.\n  loggerConfig := gin.LoggerConfig{SkipQueryString: true}\n\n  router.Use(gin.LoggerWithConfig(loggerConfig))\n}\n```\n")
	got := solveMD(t, "implement", "How do I read query string parameters in gin?", "read query string parameters in gin", []mdSource{src},
		src.leaf(t, "Querystring parameters"), src.leaf(t, "Avoid logging query strings"))
	checkMD(t, got, []string{"From Querystring parameters [1]:\n\n```go\nfunc main() {", "c.Query(\"lastname\")\n", "}\n```"}, []string{"SkipQueryString"})
}

// TestPointerPageGivesWay: a page whose examples only hand another page's
// name to a command ("tldr crontab" on the cron page) is answered by that
// page when the evidence holds it.
func TestPointerPageGivesWay(t *testing.T) {
	cron := page("cron.md", "cron", "A system scheduler for running jobs or tasks unattended.\n- View documentation for managing cron jobs:\ntldr crontab\n", 1)
	crontab := page("crontab.md", "crontab", "Schedule cron jobs to run on a time interval for the current user.\n"+
		"- Edit the crontab file for the current user:\ncrontab -e\n- List existing cron jobs for the current user:\ncrontab -l\n", 0.5)
	task := "see my scheduled cron jobs"
	res := solveProcedure([]plugin.ScoredKU{cron, crontab}, task, symbolic.TaskTerms(task), guidance{}, nil)
	if res == nil || res.EvidenceIDs[0] != "crontab.md::0::0" || !strings.Contains(res.ResponseMarkdown, "crontab -l") {
		t.Fatalf("the pointer page answered: %+v", res)
	}
	for _, tc := range []struct {
		body string
		want string
	}{
		{"Points on.\n- View documentation:\ntldr crontab\n", "crontab"},
		{"Runs itself.\n- View documentation:\ntldr cron\n", ""},
		{"Does work.\n- Edit a file:\ncron -e {{path/to/file}}\n", ""},
		{"Mixed.\n- View documentation:\ntldr crontab\n- Run it:\ncron start\n", ""},
	} {
		p, _ := readProcedure(page("x.md", "cron", tc.body, 1).KU)
		if got := pointsTo(p); got != tc.want {
			t.Errorf("pointsTo(%q) = %q, want %q", tc.body, got, tc.want)
		}
	}
}

// TestFeatureListShowsNoHow: a bulleted list of what a library has, in
// prose naming things in inline code, names a task without showing how
// it is done: the section whose code does it answers a how-to.
func TestFeatureListShowsNoHow(t *testing.T) {
	md := "# router\n\n## router\n\nPackage router matches requests. The main features are:\n\n" +
		"* It implements the `http.Handler` interface so it is compatible with the standard library.\n" +
		"* Registered URLs can be built, or reversed, which helps keeping references to resources.\n\n" +
		"## Registered URLs\n\nTo build a URL, get the route and call its `URL()` method:\n\n" +
		"```go\nurl, err := r.Get(\"article\").URL(\"id\", \"42\")\n```\n"
	src := parseMD(t, "router/README.md", md)
	task := "build the URL of a registered route in router"
	ev := []plugin.ScoredKU{{KU: src.leaf(t, "router"), Score: 1}, {KU: src.leaf(t, "Registered URLs"), Score: 0.8}}
	out := procedureMD(t, ev, task, symbolic.TaskTerms(task), guidance{}, srcCorpus{src.id: md})
	checkMD(t, out, []string{"URL(\"id\", \"42\")"}, []string{"main features"})
}

func TestProseList(t *testing.T) {
	for _, tc := range []struct {
		lines []string
		want  bool
	}{
		{[]string{"* It implements the `http.Handler` interface so it is compatible.", "* Routes can be used as subrouters of other routes."}, true},
		{[]string{"1. Run `go get` in the folder of the module.", "2. Run `go test ./...` afterwards."}, false},
		{[]string{"- `go get -v -d -u ./...` - fetch deps", "- `go run *.go`"}, false},
		{[]string{"```go", "x := 1", "```"}, false},
	} {
		if got := proseList(tc.lines); got != tc.want {
			t.Errorf("proseList(%q) = %v, want %v", tc.lines, got, tc.want)
		}
	}
}

// TestHowToWithoutTheWaySetAside: the way of doing a task a how-to sets
// aside ("instead of a scripted run") does not choose the example that
// leads the answer.
func TestHowToWithoutTheWaySetAside(t *testing.T) {
	md := "# tests\n\n> Run the test suite.\n\n- Compare the output of a real model run with a scripted run:\n\n`cmp {{real.txt}} {{scripted.txt}}`\n\n" +
		"- Run the tests against a real model:\n\n`go test {{./live}}`\n"
	src := parseMD(t, "tests.md", md)
	out := solveMD(t, "implement", "How do I run the tests against a real model instead of a scripted run?", "run the tests against a real model instead of a scripted run",
		[]mdSource{src}, src.soleLeaf(t))
	if g, c := strings.Index(out, "go test"), strings.Index(out, "cmp "); g < 0 || c >= 0 && c < g {
		t.Fatalf("the example doing the task the way asked does not lead:\n%s", out)
	}
}

func TestWithoutAlternative(t *testing.T) {
	checkCalls(t, "withoutAlternative", withoutAlternative, map[string]string{
		"send logrus messages to the local syslog daemon rather than a remote one":     "send logrus messages to the local syslog daemon",
		"run the test suite against a real language model instead of the scripted one": "run the test suite against a real language model",
		"use rsync": "use rsync",
	})
}

// TestNumberGivenPassesOverTheDefault: a task that gives an amount is
// answered by the example that sets one, not by the one that runs with a
// default, though the default's description holds more of the task's words.
func TestNumberGivenPassesOverTheDefault(t *testing.T) {
	head := page("head.md", "head", "Output the first part of files.\n"+
		"- Output the first lines of a file (default 10 lines):\nhead {{path/to/file}}\n"+
		"- Output the first few lines of a file:\nhead -n {{count}} {{path/to/file}}\n", 1)
	task := "output the first 25 lines of a file"
	res := solveProcedure([]plugin.ScoredKU{head}, task, symbolic.TaskTerms(task), guidance{brief: true}, nil)
	if res == nil || !strings.Contains(res.ResponseMarkdown, "-n") {
		t.Fatalf("%+v", res)
	}
	if givesNumber([]string{"output", "line"}) || !givesNumber([]string{"line", "25"}) {
		t.Error("givesNumber")
	}
}
