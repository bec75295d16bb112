package main

import (
	"fmt"
	"log/slog"
	"os"
	"runtime/pprof"

	"github.com/spf13/cobra"

	"github.com/mrpvm/mrpvm/lsp"
)

func init() {
	var logFile, memProfile string
	cmd := &cobra.Command{
		Use:   "lsp",
		Short: "Run the language server on standard input/output",
		Long: `lsp speaks the Language Server Protocol over standard input and output for
an editor: hover and symbols from the workspace's Knowledge Units, diagnostics
for plugin files, and the mrpvm.* commands (ask, ingest, plugins, trace, kb,
stats). The workspace folders come from the editor; --db names the knowledge
base of the first one. Nothing is written to standard error unless --log is
unset and the server fails to start.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			logger := slog.New(slog.DiscardHandler)
			if logFile != "" {
				f, err := os.OpenFile(logFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
				if err != nil {
					return fmt.Errorf("--log: %w", err)
				}
				defer f.Close()
				logger = slog.New(slog.NewTextHandler(f, &slog.HandlerOptions{Level: slog.LevelDebug}))
			}
			opt := lsp.Options{DBPath: flags.db, Logger: logger}
			if memProfile != "" {
				opt.OnShutdown = func() {
					if err := writeHeapProfile(memProfile); err != nil {
						logger.Error("heap profile", "err", err)
					}
				}
			}
			err := lsp.Serve(cmd.Context(), lsp.Stdio(), opt)
			if err == lsp.ExitError {
				return &exitError{code: 1, err: err}
			}
			return err
		},
	}
	cmd.Flags().StringVar(&logFile, "log", "", "append the server's log to this file")
	cmd.Flags().StringVar(&memProfile, "memprofile", "", "write a heap profile to this file when the client sends shutdown")
	_ = cmd.Flags().MarkHidden("memprofile")
	rootCmd.AddCommand(cmd)
}

// writeHeapProfile writes a heap profile; it runs when the client sends
// shutdown, while every knowledge base is still open.
func writeHeapProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("--memprofile: %w", err)
	}
	defer f.Close()
	if err := pprof.WriteHeapProfile(f); err != nil {
		return fmt.Errorf("--memprofile: %w", err)
	}
	return nil
}
