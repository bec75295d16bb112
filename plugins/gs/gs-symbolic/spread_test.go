package gssymbolic

import (
	"testing"

	"github.com/mrpvm/mrpvm/kus"
)

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

const routerMD = `# router

## Middlewares

The router comes equipped with an optional middleware package, providing a suite of standard middlewares.

### Core middlewares

| handler | description |
| --- | --- |
| Logger | logs the start and end of each request |
| Recoverer | absorbs panics and prints the stack trace |
| Throttle | puts a ceiling on concurrent requests |

## Credits

Parts of the router's middleware package come from an older router.
`

// TestListQuestionShowsTableAfterOpening: a list question best answered by
// a section's opening paragraph is answered with the table that follows
// it under a subheading, whose rows are the members asked for.
func TestListQuestionShowsTableAfterOpening(t *testing.T) {
	src := parseMD(t, "router.md", routerMD)
	core := src.last(t, "Core middlewares", func(k *kus.KU) bool { return k.Title == "Core middlewares" })
	md := solveMD(t, "identify", "Which middlewares come with the router's middleware package?", "middlewares come with the router's middleware package", []mdSource{src},
		src.leaf(t, "Middlewares"), src.leaf(t, "Credits"), core)
	checkMD(t, md, []string{"suite of standard middlewares", "Logger", "Recoverer", "Throttle"}, nil)
}
