package gssymbolic

import "testing"

// TestItemAnswersOverItsLeadIn: a sentence that only leads in to a list
// ("Shared by every command:") does not gather the words of every item;
// the items that say what is asked answer without it. A definition of a
// name written as code ("--quiet hide") is about that name.
func TestItemAnswersOverItsLeadIn(t *testing.T) {
	src := parseMD(t, "README.md", "# Guide\n\n## Command-line conventions\n\nShared by every command:\n\n"+
		"- **`--quiet`** drops the progress lines on standard error.\n"+
		"- **Errors with `--json`** are printed on standard output as one object.\n"+
		"- **Every `--json` key** is camelCase.\n")
	md := solveMD(t, "diagnose", "What do errors look like with --json?", "errors look like with --json", []mdSource{src}, src.leaf(t, "Command-line conventions"))
	checkMD(t, md, []string{"Errors with"}, []string{"Shared by every command"})
	subjects := map[string]string{
		"--quiet hide":                          "--quiet",
		"c.FullPath() give me in a gin handler": "c.fullpath()",
		"phaseScopes on a knowledge unit":       "phasescopes",
	}
	for target, want := range subjects {
		if got := definedSubject(target); got != want {
			t.Errorf("definedSubject(%q) = %q, want %q", target, got, want)
		}
	}
}
