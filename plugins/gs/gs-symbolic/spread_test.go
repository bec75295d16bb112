package gssymbolic

import "testing"

const completionMD = `# Shell completion

## Enabling

A completion script for the bash shell is included in this repo.

The completion script included here runs in every bash shell session once sourced.

Each new shell needs the included completion script sourced in its profile.

The included script completes commands in the shell as you type.

## ZSH Support

Completion for ZSH is also supported by a script.

## PowerShell Support

Completion for PowerShell is also supported by a script.
`

// TestListQuestionSpreadsOverSections: a list question whose members each
// have a section of their own is answered with the best statement of each
// section besides the sentences of the first one.
func TestListQuestionSpreadsOverSections(t *testing.T) {
	src := parseMD(t, "completion.md", completionMD)
	md := solveMD(t, "identify", "For which shells is a completion script included?", "For which shells is a completion script included", []mdSource{src},
		src.leaf(t, "Enabling"), src.leaf(t, "ZSH Support"), src.leaf(t, "PowerShell Support"))
	checkMD(t, md, []string{"bash shell is included", "as you type", "ZSH is also supported", "PowerShell is also supported"}, nil)
}
