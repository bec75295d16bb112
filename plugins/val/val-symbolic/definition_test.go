package valsymbolic

import (
	"testing"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins/internal/plugintest"
	"github.com/mrpvm/mrpvm/plugins/internal/symbolic"
)

const findmntPage = `# findmnt

> Find your filesystem.

- List all mounted filesystems:

` + "`findmnt`" + `

- Search for a device:

` + "`findmnt {{/dev/sdb1}}`" + `
`

// TestWhatIsXUsedForAsksWhatXIs: the verb of a definition question ("used
// for") is the question's frame, not an action the page must say beside
// the thing asked.
func TestWhatIsXUsedForAsksWhatXIs(t *testing.T) {
	df := freqs(map[string]int{"use list search devic": 600, "filesystem mount": 40, "findmnt": 2})
	findmnt := page(t, "linux/findmnt.md", findmntPage)
	c := sourced{corpus: corpus{n: 1000, df: df}, src: map[string]string{"linux/findmnt.md": findmntPage}}
	in := plugin.ValidateInput{Payload: plugin.Payload{Prompt: "What is findmnt used for?"}, Intents: []plugin.Intent{{ID: "i1", Act: "define", Target: "findmnt used for"}}}
	expectAnswers(t, c, in, "", "", []answerCase{
		{"the page about it", "findmnt [1]: Find your filesystem.\n\n- List all mounted filesystems [1]:\n\n  `findmnt`\n\n" +
			"- Search for a device [1]:\n\n  `findmnt {{/dev/sdb1}}`\n\nSources:\n[1] findmnt — linux/findmnt.md:1\n", findmnt, plugin.StatusAccepted},
	})
}

// TestAnIdentifierNamesItsThing: "What is the outside_workspace warning
// about?" is answered by a passage that says the identifier, though the
// word of kind beside it ("warning") stands elsewhere; a question in
// plain words ("the file target warning") still needs its words
// together.
func TestAnIdentifierNamesItsThing(t *testing.T) {
	df := freqs(map[string]int{"file folder link skip copi": 300, "warn": 60, "symlink target": 30, "outside_workspac": 3})
	k := plugintest.Text("u::1", "Skipped paths", "docs/troubleshooting.md", 27, "A symlink whose target lies outside the workspace is never followed (`outside_workspace`).\n\nEvery skipped file gets a warning in the log.\n")
	answer := "A symlink whose target lies outside the workspace is never followed (`outside_workspace`). [1]\n\nEvery skipped file gets a warning in the log. [1]\n\nSources:\n[1] Skipped paths — docs/troubleshooting.md:27\n"
	c := corpus{n: 1000, df: df}
	for _, tc := range []struct {
		target string
		want   plugin.Status
	}{
		{"the outside_workspace warning about", plugin.StatusAccepted},
		{"the file target warning about", plugin.StatusRejected},
	} {
		in := plugin.ValidateInput{Intents: []plugin.Intent{{ID: "i1", Act: "define", Target: tc.target}}}
		expectAnswers(t, c, in, kus.LevelSection, "only apart", []answerCase{{tc.target, answer, k, tc.want}})
	}
}

// TestACommandLineIsAboutTheSubcommandItRuns: "What does cryptsetup
// luksDump show?" is answered by the example whose command line runs
// cryptsetup's luksDump, though the page's first sentence does not name
// it; a word the command line holds as an argument, or a subcommand of
// another program, is still mentioned only in passing.
func TestACommandLineIsAboutTheSubcommandItRuns(t *testing.T) {
	k := &kus.KU{ID: "u::1", Title: "cryptsetup", SourceID: "linux/cryptsetup.md", TextBody: "Manage encrypted volumes.\n"}
	said := []string{"Manage encrypted volumes.", "Display header information and key slot metadata of an encrypted device:", "`cryptsetup luksDump {{/dev/sdXY}}`"}
	rar := symbolic.NewRarity(corpus{n: 1000, df: freqs(map[string]int{"manag encrypt volum devic show": 300, "cryptsetup": 5, "luksdump": 1})})
	subject := func(target string) string { return subjectWord(target, k, said, plugin.RunContext{}, rar) }
	expectEach(t, "subjectWord", subject, map[string]string{
		"cryptsetup luksDump show": "",
		"luksDump show":            "luksdump",
		"cryptsetup sdXY device":   "sdxi",
	})
}

// TestAnIdentifierNamedWithItsKindIsWhatASentenceIsAbout: "What does the
// doc_too_large hint mean?" is answered by a sentence that gives the
// identifier the kind the question gives it ("a single hint
// `doc_too_large`"), wherever it stands in the unit; a sentence that
// names it with nothing else asked, or a plain word asked so, is still a
// mention in passing.
func TestAnIdentifierNamedWithItsKindIsWhatASentenceIsAbout(t *testing.T) {
	k := &kus.KU{ID: "u::1", Title: "Features", SourceID: "README.md", TextBody: "Markdown sources: the parser's diagnostics.\n"}
	rar := symbolic.NewRarity(corpus{n: 1000, df: freqs(map[string]int{"document pars diagnost check": 300, "hint": 40, "doc_too_large": 2})})
	withKind := []string{"Markdown sources: the parser's diagnostics.", "Documents over 8 MiB get a single hint `doc_too_large` instead of being checked."}
	alone := []string{"Markdown sources: the parser's diagnostics.", "Documents over 8 MiB are refused (`doc_too_large`)."}
	// A gloss, the identifier written as code and followed by what it
	// means in parentheses, says what the identifier is.
	glossedInList := []string{"Markdown sources: the parser's diagnostics.", "Failures keep a stable value: `doc_too_large` (over 8 MiB), `bad_utf8`."}
	glossedOther := []string{"Markdown sources: the parser's diagnostics.", "Failures keep a stable value: `bad_utf8` (not UTF-8), `doc_too_large`."}
	for _, tc := range []struct {
		target string
		said   []string
		want   string
	}{
		{"the doc_too_large hint", withKind, ""},
		{"the doc_too_large hint", alone, "doc_too_large"},
		{"the doc_too_large hint", glossedInList, ""},
		{"the doc_too_large hint", glossedOther, "doc_too_large"},
	} {
		if got := subjectWord(tc.target, k, tc.said, plugin.RunContext{}, rar); got != tc.want {
			t.Errorf("subjectWord(%q, %q) = %q, want %q", tc.target, tc.said[1], got, tc.want)
		}
	}
}

// TestQualifiedNamesInAppositionAreGlossed: "What are test.NewLocal and
// test.NewGlobal?" names two identifiers by their own parts ("newloc",
// not their package "test"), and a sentence that puts them in parentheses
// after a noun ("decorators for an existing logger (`test.NewLocal` and
// `test.NewGlobal`)") says what they are; after a verb ("refused
// (`doc_too_large`)") it does not.
func TestQualifiedNamesInAppositionAreGlossed(t *testing.T) {
	const target = "test.NewLocal and test.NewGlobal in logrus"
	if got := identifiers(target); !got["newloc"] || !got["newglob"] || got["test"] {
		t.Errorf("identifiers = %v, want newloc and newglob, not test", got)
	}
	for said, want := range map[string]bool{
		"decorators for existing logger (`test.NewLocal` and `test.NewGlobal`) which just add the hook": true,
		"Existing loggers are replaced (`test.NewLocal` and `test.NewGlobal`) here.":                    false,
	} {
		if got := glossed("newloc", target, []string{said}); got != want {
			t.Errorf("glossed(newloc, %q) = %v, want %v", said, got, want)
		}
	}
	// A reference link glosses its name as a code span does, and a name
	// with a capital inside after its first is an identifier.
	const each = "GetClientIP or GetClientIPAddr, what does each give"
	if !glossed("getclientip", each, []string{"read the resulting IP with [GetClientIP] (string) or [GetClientIPAddr] (`netip.Addr`):"}) {
		t.Errorf("glossed(getclientip) = false for a reference link glossed in parentheses")
	}
	// An inline link is no gloss, and a product's name is no identifier.
	if glossed("getclientip", each, []string{"read the resulting IP with [GetClientIP](https://pkg.go.dev/x) in a handler"}) {
		t.Errorf("glossed(getclientip) = true for an inline link")
	}
	if got := identifiers("GitHub Actions or JavaScript with SetHeader"); got["github"] || got["javascript"] || !got["sethead"] {
		t.Errorf("identifiers = %v, want SetHeader's term only", got)
	}
}
