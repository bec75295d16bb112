package main

import (
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/spf13/cobra"

	"github.com/mrpvm/mrpvm/store"
)

func init() {
	var verify bool
	cmd := &cobra.Command{
		Use:   "stats",
		Short: "Show sources, KUs by level and the knowledge base's size",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return withApp(cmd.Context(), kbOptions{reads: true, ingest: true}, func(a *app) error {
				return runStats(a, verify)
			})
		},
	}
	cmd.Flags().BoolVar(&verify, "verify", false, "also check that every source's KUs exist and every KU has a source")
	rootCmd.AddCommand(cmd)
}

// runStats prints the knowledge base's statistics; verify first checks
// that sources and KUs agree (exit status 1 when they do not).
func runStats(a *app, verify bool) error {
	st, err := a.KB.Store().Stats()
	if err != nil {
		return err
	}
	if verify {
		problems, err := a.KB.Store().Verify()
		if err != nil {
			return err
		}
		for _, p := range problems {
			termf(os.Stderr, "inconsistent: %s\n", text(p))
		}
		if len(problems) > 0 {
			return &exitError{code: 1, err: &store.Error{Code: store.CodeCorrupt, Path: st.DBPath,
				Err: fmt.Errorf("%d inconsistencies between sources and KUs", len(problems))}}
		}
	}
	return printResult(st, func(w io.Writer) error {
		termf(w, "knowledge base: %s (%s)\n", st.DBPath, humanBytes(st.DBBytes))
		fmt.Fprintf(w, "sources: %d\nKUs: %d\n", st.Sources, st.KUs)
		levels := make([]string, 0, len(st.KUsByLevel))
		for l := range st.KUsByLevel {
			levels = append(levels, l)
		}
		sort.Strings(levels)
		for _, l := range levels {
			termf(w, "  %-8s %d\n", l, st.KUsByLevel[l])
		}
		if len(st.Plugins) > 0 {
			termf(w, "plugin indexes: %v\n", st.Plugins)
		}
		return nil
	})
}

func humanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}
