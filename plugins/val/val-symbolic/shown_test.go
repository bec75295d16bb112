package valsymbolic

import (
	"testing"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
)

// shownPage is a tldr-style page with one example, named for what the
// example does.
type shownPage struct {
	name string
	tldrExample
}

// TestASeeQuestionIsAnsweredByAnExampleThatShows: a question that asks to
// see something is not answered by an example that does something else
// with its words, but by one that shows what is asked. "see which remotes
// my repo has", asked as a task or as a question whether there is a way,
// is not answered by an example that clones a remote repository, although
// it has the words; an example that lists them answers it. "How many CPU
// cores are available?" is not answered by an example that benchmarks
// with all available cores, but by one that displays their number. "print
// a file's permissions as an octal number" is not answered by an example
// that prints the file itself in octal, although it shows and has the
// rarer words; an example that prints the permissions answers it.
func TestASeeQuestionIsAnsweredByAnExampleThatShows(t *testing.T) {
	for _, tc := range []struct {
		name, says   string
		intents      []plugin.Intent
		df           map[string]int
		other, shown shownPage // an example that does something else, and one that shows what is asked
	}{
		{"remotes", "do not show anything", []plugin.Intent{{ID: "i1", Act: "implement", Target: "see which remotes my git repository has"}, {ID: "i1", Act: "verify", Target: "Is there a way to list which remotes my git repository has"}},
			map[string]int{"list name url repository version control system internet": 500, "git remote clone": 30},
			shownPage{"an example that changes something", tldrExample{"git", "common/git.md", "Distributed version control system.", "Clone a remote Git repository from the internet", "git clone {{https://example.com/repo.git}}"}},
			shownPage{"an example that shows", tldrExample{"git remote", "common/git-remote.md", "Manage set of tracked repositories (\"remotes\").", "List existing remotes with their names and URLs", "git remote {{[-v|--verbose]}}"}}},
		{"an amount", "do not show anything", []plugin.Intent{{ID: "i1", Act: "verify", Target: "How many CPU cores are available"}},
			map[string]int{"print number display all multiple parallel": 500, "cpu cores available processing units benchmark algorithms": 40},
			shownPage{"an example that uses the cores", tldrExample{"openssl speed", "common/openssl-speed.md", "Benchmark OpenSSL algorithms.", "Benchmark in parallel using all available CPU cores", "openssl speed -multi $(nproc)"}},
			shownPage{"an example that displays their number", tldrExample{"nproc", "common/nproc.md", "Print the number of processing units (CPU cores) available.", "Display the number of available processing units", "nproc"}}},
		{"the thing asked", "show something else than what", []plugin.Intent{{ID: "i1", Act: "verify", Target: "Is there a way to print just a file's permissions as an octal number"}},
			map[string]int{"print display file contents information representation filesystem hexadecimal decimal ascii": 500, "permissions number": 200, "octal": 20},
			shownPage{"an example that shows another thing", tldrExample{"hexdump", "common/hexdump.md", "Display file contents in hexadecimal, decimal, octal, or ASCII.", "Print the octal representation of a file", "hexdump -o {{path/to/file}}"}},
			shownPage{"an example that shows the thing asked", tldrExample{"stat", "common/stat.md", "Display file and filesystem information.", "Display the permissions of a file in octal", "stat -c %a {{path/to/file}}"}}},
	} {
		c := sourced{corpus: corpus{n: 1000, df: freqs(tc.df)}, src: map[string]string{tc.other.id: tc.other.page(), tc.shown.id: tc.shown.page()}}
		cases := []answerCase{
			{tc.other.name, tc.other.answer(), descriptionUnit(t, tc.other.id, tc.other.page()), plugin.StatusRejected},
			{tc.shown.name, tc.shown.answer(), descriptionUnit(t, tc.shown.id, tc.shown.page()), plugin.StatusAccepted},
		}
		for _, intent := range tc.intents {
			t.Run(tc.name+"/"+intent.Act, func(t *testing.T) {
				expectAnswers(t, c, plugin.ValidateInput{Intents: []plugin.Intent{intent}}, kus.LevelLeaf, tc.says, cases)
			})
		}
	}
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

// TestObjectHeads: the thing a task asks its action to be done to is the
// last noun of the action's object, and the form an "as" gives it; a
// clause or a pronoun names no thing.
func TestObjectHeads(t *testing.T) {
	heads := func(task string) []string { return objectHeads(task, verbAction(task)) }
	expectTerms(t, "objectHeads", heads, map[string][]string{
		"print just a file's permissions as an octal number":     {"permissions", "number"},
		"see the IP addresses assigned to my network interfaces": {"addresses"},
		"print the current time as a Unix timestamp":             {"time", "timestamp"},
		"list the USB devices connected to my machine":           {"devices"},
		"see which jobs are waiting":                             nil,
		"delete one":                                             nil,
	})
}
