package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"regexp"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/store"
	"github.com/mrpvm/mrpvm/vm"
)

// Exit statuses: 0 success, 1 failure, 2 a command line or input that
// cannot be run as given (usage errors and invalid input alike).
const (
	exitFailure = 1
	exitInvalid = 2
)

// Error codes of --json error objects that no package defines.
const (
	codeUsage        = "usage"         // unknown command or flag, missing or extra argument, bad flag value
	codeInvalidInput = "invalid_input" // the request was refused as given
	codeFailed       = "failed"        // anything else
	codeInterrupted  = "interrupted"   // the command was cancelled (Ctrl-C, SIGTERM)
	codeNoSession    = "session_not_found"
	codeNotFound     = "file_not_found" // a file named on the command line does not exist
)

// exitError carries a specific exit status out of a command.
type exitError struct {
	code int
	err  error
	// shown is set when the command already printed the outcome (a --json
	// result describing the failure): main then adds no error object.
	shown bool
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// failedAfterOutput is the error of a command that printed its result and
// still fails (exit status 1): with --json that result describes the
// failure, so no error object is added to it.
func failedAfterOutput(err error) error {
	return &exitError{code: exitFailure, err: err, shown: flags.json}
}

// usageError is a command line that cannot be run as given: an unknown
// command or flag, a missing or extra argument, a bad flag value.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

// codedError gives an error a stable code for --json error objects.
type codedError struct {
	code string
	err  error
}

func (e *codedError) Error() string { return e.err.Error() }
func (e *codedError) Unwrap() error { return e.err }

// exitStatus is the process exit status for err (nil: 0).
func exitStatus(err error) int {
	var ee *exitError
	var ue *usageError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.code
	case errors.As(err, &ue):
		return exitInvalid
	}
	return exitFailure
}

// leadingCode matches the stable code many messages begin with
// ("unsafe_workspace: ...", "outside_workspace: ..."): lower case words
// joined by underscores.
var leadingCode = regexp.MustCompile(`^([a-z][a-z0-9]*(?:_[a-z0-9]+)+): `)

// errorCode is the stable code of err in a --json error object.
func errorCode(err error) string {
	var ue *usageError
	var ce *codedError
	var se *store.Error
	var pe *plugin.PluginError
	switch {
	case errors.As(err, &ue):
		return codeUsage
	case errors.As(err, &ce):
		return ce.code
	case errors.As(err, &se):
		return se.Code
	case errors.Is(err, plugin.ErrKBCorrupt):
		return store.CodeCorrupt
	case errors.As(err, &pe) && pe.Code != "":
		return pe.Code
	case errors.Is(err, vm.ErrSessionNotFound):
		return codeNoSession
	case errors.Is(err, context.Canceled):
		return codeInterrupted
	case errors.Is(err, fs.ErrNotExist):
		return codeNotFound
	}
	if m := leadingCode.FindStringSubmatch(err.Error()); m != nil {
		return m[1]
	}
	if exitStatus(err) == exitInvalid {
		return codeInvalidInput
	}
	return codeFailed
}

// errorJSON is the --json form of an error on standard output.
type errorJSON struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// reportError prints err: as a line on stderr, and with --json also as an
// error object on stdout (unless the command already printed its result).
func reportError(stdout, stderr io.Writer, err error, asJSON bool) {
	termf(stderr, "mrpvm: %s\n", text(err.Error()))
	var ue *usageError
	if errors.As(err, &ue) && !asJSON {
		fmt.Fprintln(stderr, "Run 'mrpvm --help' or 'mrpvm COMMAND --help' for usage.")
	}
	var ee *exitError
	if !asJSON || errors.As(err, &ee) && ee.shown {
		return
	}
	var out errorJSON
	out.Error.Code = errorCode(err)
	out.Error.Message = err.Error()
	_ = printJSON(stdout, out)
}

// wantsJSON reports whether --json was given, for an error met before the
// flags were parsed (or while parsing them): it reads the arguments up to
// "--".
func wantsJSON(args []string) bool {
	on := false
	for _, a := range args {
		switch {
		case a == "--":
			return on
		case a == "--json" || a == "--json=true" || a == "--json=1":
			on = true
		case strings.HasPrefix(a, "--json="):
			on = false
		}
	}
	return on
}

// markUsageErrors makes every command's argument and flag errors usage
// errors (exit status 2, code "usage").
func markUsageErrors(root *cobra.Command) {
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		return &usageError{err: inCommand(cmd, err)}
	})
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.HasParent() && !c.Runnable() {
			// A group (completion): without this, cobra shows its help
			// for an unknown subcommand and exits 0.
			c.Args = cobra.NoArgs
			c.RunE = func(cmd *cobra.Command, _ []string) error { return cmd.Help() }
		}
		if args := c.Args; args != nil {
			c.Args = func(cmd *cobra.Command, a []string) error {
				if err := args(cmd, a); err != nil {
					if !strings.Contains(err.Error(), cmd.CommandPath()) {
						err = inCommand(cmd, err)
					}
					return &usageError{err: err}
				}
				return nil
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// inCommand prefixes err with the subcommand it concerns ("search: ...").
func inCommand(cmd *cobra.Command, err error) error {
	if !cmd.HasParent() {
		return err
	}
	name := strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()+" ")
	return fmt.Errorf("%s: %w", name, err)
}

// exitWith reports err and ends the process with its exit status. cmd is
// the command cobra found; an error that reached the root command (which
// runs nothing itself) is an unknown command.
func exitWith(cmd *cobra.Command, err error) {
	if err == nil {
		os.Exit(0)
	}
	var ue *usageError
	if cmd == rootCmd && !errors.As(err, &ue) {
		var ee *exitError
		if !errors.As(err, &ee) {
			err = &usageError{err: err}
		}
	}
	asJSON := flags.json
	if errors.As(err, &ue) {
		asJSON = asJSON || wantsJSON(os.Args[1:])
	}
	reportError(os.Stdout, os.Stderr, err, asJSON)
	os.Exit(exitStatus(err))
}
