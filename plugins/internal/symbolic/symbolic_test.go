package symbolic

import (
	"math"
	"strings"
	"testing"
)

// checkCalls calls f, named name in the errors, on each input of cases
// and wants the output the case gives it.
func checkCalls[Out comparable](t *testing.T, name string, f func(string) Out, cases map[string]Out) {
	t.Helper()
	for in, want := range cases {
		if got := f(in); got != want {
			t.Errorf("%s(%q) = %v, want %v", name, in, got, want)
		}
	}
}

func TestNear(t *testing.T) {
	cases := []struct {
		a, b string
		want bool
	}{
		{"static", "statik", true},
		{"watch", "wach", true},
		{"config", "config", true},
		{"fil", "file", false}, // too short for a typing mistake
		{"viper", "paper", false},
		{"process", "proceses", true},
		{"meaning", "mean", false},
	}
	for _, tc := range cases {
		if got := Near(tc.a, tc.b); got != tc.want {
			t.Errorf("Near(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

type stats map[string]int

func (s stats) Documents() int          { return 100 }
func (s stats) DocFreq(term string) int { return s[term] }

func TestRarity(t *testing.T) {
	r := NewRarity(stats{"file": 90, "life": 2})
	if !(r.Weight("life") > r.Weight("file")) {
		t.Errorf("a rare term weighs more: life %v, file %v", r.Weight("life"), r.Weight("file"))
	}
	if r.Known("australia") || !r.Known("life") {
		t.Error("Known follows the source frequencies")
	}
	if w := (Rarity{}).Weight("x"); math.Abs(w-1) > 1e-9 {
		t.Errorf("without statistics every term weighs 1, got %v", w)
	}
}

func TestNamesTask(t *testing.T) {
	cases := []struct {
		code, task string
		want       bool
	}{
		{`viper.SetDefault("ContentDir", "content")`, "set a default value for a key", true},
		{`log.SetFormatter(&log.JSONFormatter{})`, "log in JSON format", true},
		{`message := c.PostForm("message")`, "read form fields from a POST", true},
		{`viper.Set("Verbose", true)`, "set a default value for a key", false},          // one word names nothing
		{`router.MaxMultipartMemory = 8 << 20`, "set a default value for a key", false}, // no word of the task
		{`c.ShouldBindJSON(&json)`, "upload a file", false},
		{`SetDefault`, "default", false},                                                   // a one-term task is named by any call holding it
		{`gin.LoggerConfig{SkipQueryString: true}`, "read query string parameters", false}, // skipping is not reading
	}
	for _, tc := range cases {
		t.Run(tc.code, func(t *testing.T) {
			if got := NamesTask(tc.code, ContentTerms(tc.task)); got != tc.want {
				t.Fatalf("NamesTask(%q, %q) = %v, want %v", tc.code, tc.task, got, tc.want)
			}
		})
	}
}

func TestParts(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"In gin, how do I group routes, and how do I run the server on port 8080?",
			[]string{"In gin, how do I group routes?", "In gin, how do I run the server on port 8080?"}},
		{"How do I stash changes and how do I list the stashes?",
			[]string{"How do I stash changes?", "how do I list the stashes?"}},
		{"What is kb-fast and what is kb-thinkingdb?", []string{"What is kb-fast?", "what is kb-thinkingdb?"}},
		{"How do I pack a directory into a tar.gz file, and later unpack it?", []string{"How do I pack a directory into a tar.gz file, and later unpack it?"}},
		{"What is the difference between scp and rsync?", []string{"What is the difference between scp and rsync?"}},
		{"and how do I remove one?", []string{"and how do I remove one?"}}, // a follow-up, not two parts
		{"Is it safe to use one viper instance from several goroutines, and are its keys case sensitive?",
			[]string{"Is it safe to use one viper instance from several goroutines?", "are its keys case sensitive?"}},
		{"How do I copy a folder, but can I keep the permissions?", []string{"How do I copy a folder?", "can I keep the permissions?"}},
		// Without a comma, or without a subject after the auxiliary, the
		// words go on with the one question.
		{"How do I find and are there files left?", []string{"How do I find and are there files left?"}},
		{"How do I list files, and do so recursively?", []string{"How do I list files, and do so recursively?"}},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			got := Parts(tc.in)
			if len(got) != len(tc.want) {
				t.Fatalf("Parts = %q, want %q", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("Parts = %q, want %q", got, tc.want)
				}
			}
		})
	}
}

// TestActOf: a comparison's act is compare, and "different" or "differ"
// in a relative clause is none; an auxiliary right after "what" (or after
// "how many" or "how much" and its noun) is the verb of a question asking
// for things or a quantity, not the opening of a yes/no question; a
// question asking for the way to do a task, or opening as a how-to does, is
// a how-to; alternatives before a colon are a choice.
func TestActOf(t *testing.T) {
	cases := []struct{ in, want string }{
		{"What is the difference between scp and rsync?", "compare"},
		{"TextFormatter or JSONFormatter in logrus: how do they differ?", "compare"},
		{"scp vs rsync", "compare"},
		{"How do I install the VS Code extension?", "implement"},
		{"What is kb-fast?", "define"},
		{"Besides the path, what can a gorilla/mux route match on?", "identify"},
		{"What would break if I removed the lock file?", "identify"},
		{"Can a gorilla/mux route match on headers?", "verify"},
		{"What does kb-fast do?", "define"},
		{"How many threads are started per request?", "identify"},
		{"How much memory does the indexer use?", "identify"},
		// A question asking for the way to do a task is a how-to.
		{"What's the way to copy a folder and keep its timestamps?", "implement"},
		{"what is the easiest way to rename many files", "implement"},
		// "different" names another thing; only "different from" compares.
		{"How do I send the output to a different file?", "implement"},
		{"Is there a plugin for a different editor?", "verify"},
		{"How is a tag different from a branch?", "compare"},
		{"How do tags and branches differ?", "compare"},
		// "differ" in a relative clause says which things, it asks no comparison.
		{"How can I list the lines that differ?", "implement"},
		{"Which line is where the two logs differ?", "identify"},
		{"Which settings differ between the two profiles?", "compare"},
		// "How much" with a comparative asks for a quantity: the factor.
		{"How much faster is the cache than the disk?", "identify"},
		// Alternatives before a colon are a choice between them.
		{"cron or systemd timers: when is the second one better?", "recommend"},
		// A sentence that opens as a how-to asks how, whatever cue of
		// another act follows; a cue counts only at the start of a word.
		{"Is there a way to resume a download that was cut off?", "implement"},
		{"What's the command to make a temporary directory?", "implement"},
		{"What can I run to read the disk temperature?", "implement"},
		{"I need to format a partition so that it can boot.", "implement"},
		{"I want to know what a router is.", "describe"},
		{"A link points somewhere; how do I see its target?", "implement"},
	}
	for _, tc := range cases {
		if got := ActOf(tc.in); got != tc.want {
			t.Errorf("ActOf(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

// TestActBeside: a wish beside a question of its turn is not a how-to.
func TestActBeside(t *testing.T) {
	if got := ActBeside("I want to write a plugin."); got == "implement" {
		t.Errorf("ActBeside of a wish = %s", got)
	}
	if got := ActBeside("Is there a way to resume a download?"); got != "implement" {
		t.Errorf("ActBeside of a how-to question = %s, want implement", got)
	}
}

// TestTargetOf: a task's target is what it asks about, without the
// question's opening (also "is there a way to"), and without the closing
// words of a question asking what something means.
func TestTargetOf(t *testing.T) {
	cases := []struct{ in, want string }{
		{"What does kb_corrupt mean?", "kb_corrupt"},
		{"What does TTL stand for?", "TTL"},
		{"What does logrus do after logging a fatal message", "logrus do after logging a fatal message"},
		{"What do the exit codes of grep mean?", "the exit codes of grep"},
		{"What is the meaning of kb_locked?", "meaning of kb_locked"},
		{"How do I make a flag required in cobra?", "make a flag required in cobra"},
		{"What does it mean?", "it"},
		{"What is a mean?", "mean"},
		{"Is there a way to resume an interrupted copy?", "resume an interrupted copy"},
		{"What's the best way to split a large file?", "split a large file"},
		// The command or tool to do a task is asked for as the way to do it.
		{"What's the command to count the words of a file?", "count the words of a file"},
		{"Is there a tool to resize many images at once?", "resize many images at once"},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			if got := TargetOf(tc.in); got != tc.want {
				t.Fatalf("TargetOf(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestSearchedForRENamesTheNote(t *testing.T) {
	answer := "Use tar [1].\n\nSources:\n[1] tar — common/tar.md:3\n\n" + SearchedForNote("unzip file specific folder") + "\n"
	if got := strings.TrimSpace(SearchedForRE.FindString(answer)); got != SearchedForNote("unzip file specific folder") {
		t.Errorf("SearchedForRE found %q", got)
	}
	if SearchedForRE.MatchString("Searched for: the note's words as prose") {
		t.Error("SearchedForRE matches prose")
	}
}
