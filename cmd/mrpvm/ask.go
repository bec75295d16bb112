package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/mrpvm/mrpvm/config"
	"github.com/mrpvm/mrpvm/llm"
	"github.com/mrpvm/mrpvm/store"
	"github.com/mrpvm/mrpvm/vm"
)

func init() {
	var session string
	var pins, prefers []string
	var noIngest bool
	var llmCache bool
	cmd := &cobra.Command{
		Use:   "ask [flags] QUESTION | -",
		Short: "Answer a question from the workspace's knowledge base through the plugin VM",
		Long: `ask brings the knowledge base up to date (changed files only), then runs the
VM loop: seed detection, planning, retrieval, goal solving and validation.
It prints the answer, its numbered sources and a compact trace of every stage.
With --json it prints one object:
{"requestId", "sessionId", "status", "answerMarkdown", "evidence": [{"kuId", "title", "sourceId", "uri", "range"}], "trace": {...}}.
status is answered, no-context, failure or invalid; the exit status is 0 for
answered and no-context, 1 for failure and 2 for an invalid request.

LLM-backed plugins (sd-llm-*, gs-llm-*, val-llm) run when a model endpoint is
configured: MRPVM_LLM_BASE_URL (e.g. http://localhost:11434/v1 for Ollama),
MRPVM_LLM_MODEL and, for hosted services, MRPVM_LLM_API_KEY. Without
MRPVM_LLM_BASE_URL, OPENAI_BASE_URL (key: OPENAI_API_KEY; OPENAI_API_KEY alone
means https://api.openai.com/v1) is used, then OLLAMA_HOST (as http://HOST/v1,
no key); MRPVM_LLM_PROBE_OLLAMA=1 lets a local Ollama be found when nothing is
set. Per-role models go in llm-role-settings.json. Without an endpoint the
LLM plugins step aside and the symbolic path answers. --pin gs=gs-llm-fast forces a stage's plugin for this question;
--prefer kb=kb-thinkingdb makes a plugin the session's preference for a stage
(tried first, the others kept as fallbacks; kept for the session's later
questions; --prefer kb= clears it); --llm-cache reuses replies to identical
prompts.

A QUESTION of "-" is read from standard input (for long or multi-line
questions, which the command line cannot carry).`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			question := strings.Join(args, " ")
			if question == "-" {
				b, err := io.ReadAll(io.LimitReader(cmd.InOrStdin(), 16<<20))
				if err != nil {
					return fmt.Errorf("read the question from standard input: %w", err)
				}
				question = string(b)
			}
			pinMap, err := parsePins(pins)
			if err != nil {
				return &usageError{err: err}
			}
			prefMap, err := parsePrefers(prefers)
			if err != nil {
				return &usageError{err: err}
			}
			a, err := openApp(cmd.Context(), kbOptions{quiet: flags.json, llmCache: llmCache, reads: true})
			if err != nil {
				return err
			}
			defer a.Close()
			if !noIngest {
				if err := a.ingest(cmd.Context()); err != nil {
					return err
				}
			}
			if session == "new" {
				session = "" // a new session with a fresh id, printed after the answer
			}
			resp, err := a.vm.Ask(cmd.Context(), vm.Request{Question: question, SessionID: session, Pins: pinMap, Preferences: prefMap})
			if errors.Is(err, store.ErrCorrupt) {
				return err
			}
			if errors.Is(err, vm.ErrSessionNotFound) {
				err = fmt.Errorf("%w; start a session with --session new (or no --session) and continue it with the id printed after the answer", err)
			}
			if err != nil {
				shown := false
				if flags.json && resp != nil {
					shown = printJSON(os.Stdout, resp) == nil
				}
				return &exitError{code: exitInvalid, err: err, shown: shown}
			}
			if flags.json {
				if err := printJSON(os.Stdout, resp); err != nil {
					return err
				}
			} else {
				printAnswer(os.Stdout, resp)
				hint := resp.Hint
				if hint == "" && a.LLM == nil && firstOfflineAsk() {
					hint = llm.Hint
				}
				if hint != "" {
					notef("%s", text(hint))
				}
			}
			if resp.Status == vm.StatusFailure {
				return &exitError{code: exitFailure, err: errors.New("no answer"), shown: flags.json}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&session, "session", "", "continue the session with this id (printed after every answer); \"new\" or empty starts a new one, and an unknown id is an error (exit 2)")
	cmd.Flags().StringArrayVar(&prefers, "prefer", nil, "make a plugin the session's preference for a stage, as stage=plugin-id (stage= clears it); repeatable")
	cmd.Flags().StringArrayVar(&pins, "pin", nil, "pin a stage to one plugin, as stage=plugin-id (stages: sd, plan, kb, gs, val); repeatable")
	cmd.Flags().BoolVar(&llmCache, "llm-cache", false, "answer repeated LLM prompts (same model, messages and settings) from an on-disk cache in the knowledge base file")
	cmd.Flags().BoolVar(&noIngest, "no-ingest", false, "answer from the knowledge base as it is, without checking the workspace for changes")
	rootCmd.AddCommand(cmd)

}

// firstOfflineAsk reports whether this is the user's first answer without
// a model, so that the hint saying how to configure one is shown once
// rather than on every ask (a pinned LLM plugin that steps aside always
// shows it). It remembers in the user's configuration folder; when that
// cannot be written the hint is shown.
func firstOfflineAsk() bool {
	dir := config.UserDir()
	if dir == "" {
		return true
	}
	marker := filepath.Join(dir, ".llm-hint-shown")
	if _, err := os.Stat(marker); err == nil {
		return false
	}
	if os.MkdirAll(dir, 0o755) == nil {
		_ = os.WriteFile(marker, []byte("the hint on configuring an LLM endpoint was shown\n"), 0o644)
	}
	return true
}

// parsePins reads --pin stage=plugin-id values.
func parsePins(pins []string) (map[string]string, error) {
	out := map[string]string{}
	for _, p := range pins {
		stage, id, ok := strings.Cut(p, "=")
		if !ok || strings.TrimSpace(stage) == "" || strings.TrimSpace(id) == "" {
			return nil, fmt.Errorf("--pin %q: want stage=plugin-id, for example --pin gs=gs-symbolic", p)
		}
		out[strings.TrimSpace(stage)] = strings.TrimSpace(id)
	}
	return out, nil
}

// parsePrefers reads --prefer stage=plugin-id values; an empty id clears
// the stage's preference.
func parsePrefers(prefers []string) (map[string]string, error) {
	out := map[string]string{}
	for _, p := range prefers {
		stage, id, ok := strings.Cut(p, "=")
		if !ok || strings.TrimSpace(stage) == "" {
			return nil, fmt.Errorf("--prefer %q: want stage=plugin-id, for example --prefer kb=kb-thinkingdb", p)
		}
		out[strings.TrimSpace(stage)] = strings.TrimSpace(id)
	}
	return out, nil
}

// printAnswer renders a response for a terminal.
func printAnswer(w io.Writer, r *vm.Response) {
	termf(w, "%s\n", text(strings.TrimSpace(r.AnswerMarkdown)))
	if len(r.Evidence) > 0 && !strings.Contains(r.AnswerMarkdown, "Sources") {
		fmt.Fprintln(w, "\nSources:")
		for i, e := range r.Evidence {
			termf(w, "  [%d] %s — %s:%d\n", i+1, e.Title, e.SourceID, e.Range.StartLine)
		}
	}
	termf(w, "\n%s · request %s · session %s\n", r.Status, r.RequestID, r.SessionID)
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	for _, s := range r.Trace.Outcome.Stages {
		model := ""
		if s.Model != "" {
			model = " " + safeField(s.Model)
		}
		termf(tw, "  %s\t%s\t%s\t%dms%s\n", s.Stage, s.PluginID, s.Status, s.DurationMs, text(model))
	}
	tw.Flush()
}
