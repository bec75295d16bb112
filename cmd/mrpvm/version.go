package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/mrpvm/mrpvm/version"
)

func init() {
	rootCmd.AddCommand(&cobra.Command{
		Use:   "version",
		Short: "Print the version of this build",
		Long: `version prints the module version (or "(devel)" for a build from a checkout)
and, when the build recorded them, the VCS revision, its time and whether the
tree was modified; the same line as mrpvm --version. With --json it prints
{"version", "revision", "time", "modified", "goVersion"}.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			in := version.Get()
			return printResult(in, func(w io.Writer) error {
				_, err := fmt.Fprintln(w, "mrpvm", in.String())
				return err
			})
		},
	})
}
