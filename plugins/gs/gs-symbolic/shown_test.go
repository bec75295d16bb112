package gssymbolic

import (
	"testing"

	"github.com/mrpvm/mrpvm/plugin"
)

const direnvMD = "# direnv\n\n> Shell extension to load environment variables depending on the current directory.\n\n" +
	"- Grant direnv permission to load the `.envrc` present in the current directory:\n\n`direnv allow {{.}}`\n\n" +
	"- Revoke the authorization to load the `.envrc` present in the current directory:\n\n`direnv deny {{.}}`\n"

const straceMD = "# strace\n\n> Troubleshooting tool for tracing system calls.\n\n" +
	"- Start tracing file operations of a program:\n\n`strace -e trace=file {{program}}`\n\n" +
	"- Start tracing network operations of a program, saving the output to a file:\n\n`strace -e trace=network -o {{trace.txt}} {{program}}`\n"

// TestFollowUpSkipsTheExampleJustShown: a follow-up asks something the
// turn before did not, so the example that answered that turn is not
// offered again ("take that permission back" after the example that
// grants it), unless it says the follow-up's own action ("save that to a
// file" after the example that saves its output to a file). Asked on its
// own, the question is answered from every example.
func TestFollowUpSkipsTheExampleJustShown(t *testing.T) {
	for _, tc := range []struct {
		name, id, md, target, shown string
		want, not, aloneWant        []string
	}{
		{name: "new action", id: "common/direnv.md", md: direnvMD,
			target: "How do I take that permission back (direnv .envrc current directory)?",
			shown:  "- Grant direnv permission to load the `.envrc` present in the current directory:\n\n  `direnv allow {{.}}`\n",
			want:   []string{"direnv deny"}, not: []string{"direnv allow"},
			aloneWant: []string{"direnv allow"}},
		{name: "same action", id: "linux/strace.md", md: straceMD,
			target:    "How do I save that to a file instead (strace)?",
			shown:     "- Start tracing network operations of a program, saving the output to a file [1]:\n\n  `strace -e trace=network -o {{trace.txt}} {{program}}`\n",
			want:      []string{"trace=network"},
			aloneWant: []string{"trace=network"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := parseMD(t, tc.id, tc.md)
			k := src.soleLeaf(t)
			earlier := []plugin.Turn{{Role: "user", Text: "How do I use it?"}, {Role: "assistant", Text: tc.shown}}
			checkMD(t, solveInTurn(t, src, k, "implement", tc.target, earlier), tc.want, tc.not)
			checkMD(t, solveInTurn(t, src, k, "implement", tc.target, nil), tc.aloneWant, nil)
		})
	}
}

// TestExampleKeyIgnoresMarkup: an example's description matches between
// an answer (list marker, code spans, citation marks) and its page.
func TestExampleKeyIgnoresMarkup(t *testing.T) {
	if a, b := exampleKey("- Load the `.envrc` here [1]:"), exampleKey("Load the .envrc here"); a != b {
		t.Fatalf("%q != %q", a, b)
	}
}
