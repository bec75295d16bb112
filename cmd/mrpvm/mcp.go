package main

import (
	"log/slog"
	"os"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/mrpvm/mrpvm/mcp"
)

func init() {
	var noIngest bool
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve the workspace's knowledge base to AI agents over the Model Context Protocol (stdio)",
		Long: `mcp speaks the Model Context Protocol over standard input and output, for AI
coding agents and chat clients. Tools: ask (a cited answer from the VM loop),
search (one kb-plugin's ranking), trace (a past request's trace) and ingest.
Resources: mrpvm://ku/<id> (one Knowledge Unit) and mrpvm://source/<path>
(an ingested source file of the workspace).

The workspace (--workspace, default the current folder) is opened as the
other commands open it: its .mrpvm/ files can narrow but not widen the
wrapper allowlist and cannot choose the model endpoint. ask and search bring
the knowledge base up to date first (changed files only) unless --no-ingest.
Logs and plugin problems go to standard error.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
			return withApp(cmd.Context(), kbOptions{}, func(a *app) error {
				return mcp.New(a.Workspace, mcp.Options{NoIngest: noIngest, Logger: log}).Run(cmd.Context(), &mcpsdk.StdioTransport{})
			})
		},
	}
	cmd.Flags().BoolVar(&noIngest, "no-ingest", false, "answer from the knowledge base as it is, without checking the workspace for changes")
	rootCmd.AddCommand(cmd)
}
