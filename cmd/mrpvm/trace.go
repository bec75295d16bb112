package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/mrpvm/mrpvm/store"
	"github.com/mrpvm/mrpvm/vm"
)

// codeTraceNotFound: no kept trace has the request id asked for.
const codeTraceNotFound = "trace_not_found"

func init() {
	cmd := &cobra.Command{
		Use:   "trace [REQUEST_ID]",
		Short: "Print the trace of a past request (the last one by default)",
		Long: `trace prints what the VM loop did for a past request (the last one by
default): the request, session and final status, then one row per stage call
(stage, plugin, status, milliseconds, notes: the model used, LLM calls and
the stage's errors), then the request's own errors and notes. The last 200
traces are kept in the knowledge base.

With --json it prints the whole trace: {"requestId", "sessionId",
"plannerPluginId", "plannerAttempts", "stages": [{"stage", "pluginId",
"status", "durationMs", "llmCalls", "sufficient", "model", "modelRole",
"plannerPluginId"}], "finalStatus", "finalAnswerStatus", "frameDepth",
"framePurpose", "question", "searchedFor", "frames", "errors", "notes"}.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			a, err := openApp(cmd.Context(), kbOptions{quiet: true, reads: true})
			if err != nil {
				return err
			}
			defer a.Close()
			id := ""
			if len(args) == 1 {
				id = args[0]
			}
			t, err := a.vm.Trace(id)
			if err != nil {
				var se *store.Error
				if !errors.As(err, &se) {
					err = &codedError{code: codeTraceNotFound, err: err}
				}
				return &exitError{code: exitFailure, err: err}
			}
			if flags.json {
				return printJSON(os.Stdout, t)
			}
			return printTrace(os.Stdout, t)
		},
	}
	rootCmd.AddCommand(cmd)
}

// printTrace renders a trace for a terminal: a header, a table of the
// stage calls and the request-level errors and notes.
func printTrace(w io.Writer, t *vm.Trace) error {
	termf(w, "request %s · session %s · %s", t.RequestID, t.SessionID, t.FinalStatus)
	if t.FinalAnswerStatus != "" {
		termf(w, " (%s)", t.FinalAnswerStatus)
	}
	fmt.Fprintln(w)
	if t.Question != "" {
		termf(w, "question: %s\n", text(oneLine(t.Question, 200)))
	}
	if t.SearchedFor != "" {
		termf(w, "searched for: %s\n", text(oneLine(t.SearchedFor, 200)))
	}
	stageNotes := make([][]string, len(t.Outcome.Stages))
	var requestErrs []string
	for _, e := range t.Errors {
		msg := e.Code
		if e.Message != "" {
			msg += ": " + e.Message
		}
		if e.Stage >= 0 && e.Stage < len(stageNotes) {
			stageNotes[e.Stage] = append(stageNotes[e.Stage], msg)
		} else {
			requestErrs = append(requestErrs, msg)
		}
	}
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "STAGE\tPLUGIN\tSTATUS\tMS\tNOTES")
	for i, s := range t.Outcome.Stages {
		var notes []string
		if s.Model != "" {
			m := "model " + s.Model
			if s.ModelRole != "" {
				m += " (" + s.ModelRole + ")"
			}
			notes = append(notes, m)
		}
		if s.LLMCalls > 0 {
			notes = append(notes, fmt.Sprintf("%d LLM calls", s.LLMCalls))
		}
		notes = append(notes, stageNotes[i]...)
		termf(tw, "%s\t%s\t%s\t%d\t%s\n", s.Stage, s.PluginID, s.Status, s.DurationMs, text(oneLine(strings.Join(notes, "; "), 160)))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, e := range requestErrs {
		termf(w, "error: %s\n", text(e))
	}
	for _, n := range t.Notes {
		termf(w, "note: %s\n", text(n))
	}
	return nil
}
