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
	"runtime/pprof"
	"runtime/trace"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/mrpvm/mrpvm/version"
)

// globalFlags are shared by every subcommand.
type globalFlags struct {
	workspace  string
	force      bool // ingest even an unsafe workspace (engine.CheckWorkspace)
	db         string
	json       bool
	cpuProfile string // hidden: a CPU profile of the whole command
	memProfile string // hidden: a heap profile taken when the command ends
	traceFile  string // hidden: a runtime execution trace of the whole command
}

var (
	flags   globalFlags
	rootCmd = &cobra.Command{
		Use:           "mrpvm",
		Short:         "A knowledge base of your Markdown, answered through a typed plugin VM",
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       version.String(),
	}
)

func init() {
	rootCmd.SetVersionTemplate("mrpvm {{.Version}}\n")
	pf := rootCmd.PersistentFlags()
	pf.StringVarP(&flags.workspace, "workspace", "w", ".", "workspace folder")
	pf.BoolVar(&flags.force, "force", false, "use the workspace even when it is your home folder or a filesystem root (refused otherwise, unless it holds a .mrpvm folder)")
	pf.StringVar(&flags.db, "db", "", "knowledge base file (default: the user cache directory)")
	pf.BoolVar(&flags.json, "json", false, "print machine-readable JSON")
	pf.StringVar(&flags.cpuProfile, "cpuprofile", "", "write a CPU profile of the whole command to this file")
	_ = pf.MarkHidden("cpuprofile")
	pf.StringVar(&flags.memProfile, "memprofile", "", "write a heap profile to this file when the command ends")
	_ = pf.MarkHidden("memprofile")
	pf.StringVar(&flags.traceFile, "trace", "", "write a runtime execution trace of the whole command to this file")
	_ = pf.MarkHidden("trace")
}

// startProfile starts the CPU profile --cpuprofile asks for; the returned
// function stops it and writes the heap profile --memprofile asks for. It
// is safe to call when neither was asked for.
func startProfile() (stop func(), err error) {
	stop = func() {
		if flags.memProfile == "" {
			return
		}
		f, err := os.Create(flags.memProfile)
		if err == nil {
			err = pprof.Lookup("allocs").WriteTo(f, 0)
			f.Close()
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "mrpvm: --memprofile:", err)
		}
	}
	if flags.traceFile != "" {
		f, err := os.Create(flags.traceFile)
		if err != nil {
			return nil, fmt.Errorf("--trace: %w", err)
		}
		if err := trace.Start(f); err != nil {
			f.Close()
			return nil, fmt.Errorf("--trace: %w", err)
		}
		heap := stop
		stop = func() { trace.Stop(); f.Close(); heap() }
	}
	if flags.cpuProfile == "" {
		return stop, nil
	}
	f, err := os.Create(flags.cpuProfile)
	if err != nil {
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	heap := stop
	return func() { pprof.StopCPUProfile(); f.Close(); heap() }, nil
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
	stopProfile := func() {}
	rootCmd.PersistentPreRunE = func(*cobra.Command, []string) (err error) {
		stopProfile, err = startProfile()
		return err
	}
	err := rootCmd.ExecuteContext(ctx)
	stopProfile()
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "mrpvm:", safeText(err.Error()))
		var ee *exitError
		if errors.As(err, &ee) {
			os.Exit(ee.code)
		}
		os.Exit(1)
	}
}
