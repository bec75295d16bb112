// Command mrpvm turns a workspace's Markdown into a knowledge base of
// Knowledge Units and answers questions about it through a typed plugin VM.
//
// Subcommands live in their own files of this package and add themselves to
// the root command in init().
package main

import (
	"context"
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
	force      bool // ingest even an unsafe workspace (ingest.CheckWorkspace)
	db         string
	json       bool
	quiet      bool   // no progress and no notes on standard error
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
	pf.BoolVar(&flags.json, "json", false, "print machine-readable JSON (errors too: {\"error\": {\"code\", \"message\"}} on standard output)")
	pf.BoolVarP(&flags.quiet, "quiet", "q", false, "print no progress and no notes on standard error (warnings and errors are still printed)")
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

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	stopProfile := func() {}
	rootCmd.PersistentPreRunE = func(*cobra.Command, []string) (err error) {
		stopProfile, err = startProfile()
		return err
	}
	setupCommands()
	cmd, err := rootCmd.ExecuteContextC(ctx)
	stopProfile()
	stop()
	exitWith(cmd, err)
}

// setupCommands applies the conventions every command shares once all of
// them are registered: usage errors exit 2, and shell completion knows
// plugin ids, stages and session ids.
func setupCommands() {
	rootCmd.InitDefaultHelpCmd()
	rootCmd.InitDefaultCompletionCmd()
	markUsageErrors(rootCmd)
	registerCompletions(rootCmd)
}
