package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/pprof"
	"runtime/trace"
	"syscall"

	"github.com/spf13/cobra"

	_ "github.com/mrpvm/mrpvm/plugins/all" // every built-in plugin is in the binary
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

// startProfile starts the execution trace (--trace) and CPU profile
// (--cpuprofile) asked for; the returned function stops them and writes
// the allocation profile --memprofile asks for. It is safe to call when
// none was asked for; on an error, what had started is already stopped
// and stop does nothing.
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
	for _, r := range []struct {
		flag, path  string
		start       func(io.Writer) error
		stopWriting func()
	}{
		{"--trace", flags.traceFile, trace.Start, trace.Stop},
		{"--cpuprofile", flags.cpuProfile, pprof.StartCPUProfile, pprof.StopCPUProfile},
	} {
		if r.path == "" {
			continue
		}
		f, err := os.Create(r.path)
		if err == nil {
			if err = r.start(f); err != nil {
				f.Close()
			}
		}
		if err != nil {
			stop()
			return func() {}, fmt.Errorf("%s: %w", r.flag, err)
		}
		next := stop
		stop = func() { r.stopWriting(); f.Close(); next() }
	}
	return stop, nil
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
