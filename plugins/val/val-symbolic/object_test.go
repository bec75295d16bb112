package valsymbolic

import (
	"testing"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
)

const hexdumpPage = `# hexdump

> Display file contents in hexadecimal, decimal, octal, or ASCII.

- Print the octal representation of a file:

` + "`hexdump -o {{path/to/file}}`" + `
`

const statPage = `# stat

> Display file and filesystem information.

- Display the permissions of a file in octal:

` + "`stat -c %a {{path/to/file}}`" + `
`

// TestASeeQuestionIsAnsweredByAnExampleThatShowsTheThingAsked: "print a
// file's permissions as an octal number" is not answered by an example
// that prints the file itself in octal, although it shows and has the
// rarer words; an example that prints the permissions answers it.
func TestASeeQuestionIsAnsweredByAnExampleThatShowsTheThingAsked(t *testing.T) {
	df := freqs(map[string]int{"print display file contents information representation filesystem hexadecimal decimal ascii": 500, "permissions number": 200, "octal": 20})
	hexdump, stat := descriptionUnit(t, "common/hexdump.md", hexdumpPage), descriptionUnit(t, "common/stat.md", statPage)
	c := sourced{corpus: corpus{n: 1000, df: df}, src: map[string]string{"common/hexdump.md": hexdumpPage, "common/stat.md": statPage}}
	expectAnswers(t, c, plugin.ValidateInput{Intents: []plugin.Intent{{ID: "i1", Act: "verify", Target: "Is there a way to print just a file's permissions as an octal number"}}},
		kus.LevelLeaf, "show something else than what", []answerCase{
			{"an example that shows another thing", "hexdump [1]: Display file contents in hexadecimal, decimal, octal, or ASCII.\n\n- Print the octal representation of a file:\n\n" +
				"  `hexdump -o {{path/to/file}}`\n\nSources:\n[1] hexdump — common/hexdump.md:3\n", hexdump, plugin.StatusRejected},
			{"an example that shows the thing asked", "stat [1]: Display file and filesystem information.\n\n- Display the permissions of a file in octal:\n\n" +
				"  `stat -c %a {{path/to/file}}`\n\nSources:\n[1] stat — common/stat.md:3\n", stat, plugin.StatusAccepted},
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
