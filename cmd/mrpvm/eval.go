package main

import (
	"fmt"
	"os"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/mrpvm/mrpvm/evalsuite"
)

func init() {
	cmd := &cobra.Command{
		Use:   "eval [--json] SUITE_DIR...",
		Short: "Run evaluation suites (eval.json questions over a story.nl story) and report pass rates",
		Long: `eval ingests each suite's story into a fresh knowledge base, asks every
question (once per plugin combo the suite lists, each combo in a fresh
session) and reports the answer pass rate, the context pass rate and the
context F1 per suite. Matching is case-insensitive substring. With --json:
{"suites": [{"suiteId", "answerPassRate", "contextPassRate", "contextF1", "questions": [...]}]}.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, dirs []string) error {
			var out struct {
				Suites []*evalsuite.SuiteResult `json:"suites"`
			}
			for _, d := range dirs {
				res, err := evalsuite.Run(cmd.Context(), d, evalsuite.Options{UserDir: workspaceOptions().UserDir})
				if err != nil {
					return err
				}
				out.Suites = append(out.Suites, res)
			}
			if flags.json {
				return printJSON(os.Stdout, out)
			}
			tw := tabwriter.NewWriter(os.Stdout, 2, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "suite\tquestions\tanswer pass\tcontext pass\tcontext F1")
			for _, s := range out.Suites {
				termf(tw, "%s\t%d\t%.2f\t%.2f\t%.2f\n", s.SuiteID, len(s.Questions), s.AnswerPassRate, s.ContextPassRate, s.ContextF1)
			}
			tw.Flush()
			for _, s := range out.Suites {
				for _, q := range s.Questions {
					mark := "ok  "
					if !q.AnswerPass || !q.ContextPass {
						mark = "FAIL"
					}
					termf(os.Stdout, "%s %s/%s [%s] answer=%v context=%v missing=%v unwanted=%v\n", mark, s.SuiteID, q.ID, q.Status, q.AnswerPass, q.ContextPass, q.Missing, q.Unwanted)
				}
			}
			return nil
		},
	}
	rootCmd.AddCommand(cmd)
}
