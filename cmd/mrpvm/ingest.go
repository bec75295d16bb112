package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/mrpvm/mrpvm/ingest"
)

func init() {
	var o kbOptions
	var compact bool
	cmd := &cobra.Command{
		Use:   "ingest",
		Short: "Bring the knowledge base up to date with the workspace's Markdown",
		Long: `Ingest walks the workspace, parses new and changed Markdown files into
Knowledge Units and commits each file in its own transaction. Unchanged files
are skipped; deleted files are removed. With --json it prints one object:
{"files", "unchanged", "removed", "kus", "errors": [{"path","code","message"}],
"warnings": [{"path","line","col","code","message"}], "seconds"}.
Skipped files (too large, binary, not UTF-8) are listed in errors but do not
make the command fail; a file that could not be read or committed does.
Warnings are problems found in the files read this run (a Context Unit
block with an unknown role, say); those files are ingested as well as they
could be read, and the command succeeds.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			a, err := openApp(cmd.Context(), o)
			if err != nil {
				return err
			}
			defer a.Close()
			if s := a.KB.Store(); s.MovedAside != "" {
				warnf("moved the old knowledge base aside to %s", s.MovedAside)
			}
			rep, err := a.KB.Ingest(cmd.Context(), ingest.RunOptions{Progress: newProgress(os.Stderr, flags.json || flags.quiet), Compact: compact})
			if err != nil {
				return err
			}
			if err := a.Close(); err != nil {
				return err
			}
			if err := printResult(rep, func(w io.Writer) error { printIngestSummary(w, rep); return nil }); err != nil {
				return err
			}
			if rep.Failed() {
				return failedAfterOutput(errors.New("ingest finished with errors"))
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&o.rebuild, "rebuild", false, "move the existing knowledge base file aside and rebuild it from the workspace")
	cmd.Flags().BoolVar(&compact, "compact", false, "after ingesting, rewrite the knowledge base file so each index is contiguous (smaller, less memory when searching large workspaces; takes a few seconds)")
	cmd.Flags().Int64Var(&o.maxFileSize, "max-file-size", ingest.DefaultMaxFileSize, "skip Markdown files larger than this many bytes")
	rootCmd.AddCommand(cmd)
}

func printIngestSummary(w io.Writer, rep *ingest.Report) {
	for _, e := range rep.Errors {
		kind := "error"
		if e.Warning {
			kind = "skipped"
		}
		termf(w, "%s: %s: %s: %s\n", kind, e.Path, e.Code, text(e.Message))
	}
	for _, x := range rep.Warnings {
		termf(w, "warning: %s:%d:%d: %s: %s\n", x.Path, x.Line, x.Col, x.Code, text(x.Message))
	}
	fmt.Fprintf(w, "ingested %d files (%d unchanged, %d removed); %d KUs in the knowledge base; %.2fs\n",
		rep.Files, rep.Unchanged, rep.Removed, rep.KUs, rep.Seconds)
}

// newProgress shows a progress bar on a terminal and plain lines otherwise.
func newProgress(w *os.File, quiet bool) ingest.Progress {
	if term.IsTerminal(int(w.Fd())) && !quiet {
		var bar *progressbar.ProgressBar
		return func(done, total int, _ string) {
			if bar == nil {
				bar = progressbar.NewOptions(total,
					progressbar.OptionSetWriter(w),
					progressbar.OptionSetDescription("ingest"),
					progressbar.OptionShowCount(),
					progressbar.OptionSetItsString("files"),
					progressbar.OptionShowIts(),
					progressbar.OptionThrottle(100*time.Millisecond),
					progressbar.OptionClearOnFinish())
			}
			_ = bar.Set(done)
		}
	}
	if quiet {
		return nil
	}
	last := -1
	return func(done, total int, _ string) {
		step := done * 10 / total
		if step != last || done == total {
			last = step
			fmt.Fprintf(w, "ingest: %d/%d files\n", done, total)
		}
	}
}
