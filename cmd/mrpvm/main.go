// Command mrpvm turns a workspace's Markdown into a knowledge base of
// Knowledge Units and answers questions about it through a typed plugin VM.
//
// Subcommands live in their own files of this package and add themselves to
// the root command in init().
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"
)

// globalFlags are shared by every subcommand.
type globalFlags struct {
	workspace string
	db        string
	json      bool
}

var (
	flags   globalFlags
	rootCmd = &cobra.Command{
		Use:           "mrpvm",
		Short:         "A knowledge base of your Markdown, answered through a typed plugin VM",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
)

func init() {
	pf := rootCmd.PersistentFlags()
	pf.StringVarP(&flags.workspace, "workspace", "w", ".", "workspace folder")
	pf.StringVar(&flags.db, "db", "", "knowledge base file (default: the user cache directory)")
	pf.BoolVar(&flags.json, "json", false, "print machine-readable JSON")
}

// exitError carries a specific exit status out of a command.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := rootCmd.ExecuteContext(ctx)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "mrpvm:", err)
		var ee *exitError
		if errors.As(err, &ee) {
			os.Exit(ee.code)
		}
		os.Exit(1)
	}
}
