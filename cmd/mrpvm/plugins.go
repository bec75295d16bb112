package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins"
	_ "github.com/mrpvm/mrpvm/plugins/all"
	"github.com/mrpvm/mrpvm/workspace"
)

func init() {
	list := &cobra.Command{
		Use:   "plugins",
		Short: "List the plugins: built-ins and discovered wrappers, with their descriptors",
		Long: "List every built-in plugin and every wrapper found in <workspace>/wrappers and the user\n" +
			"configuration folder, whether it is enabled and loaded, and its descriptor. Problems\n" +
			"(skipped wrappers, configuration errors) are printed on standard error; the exit status\n" +
			"is 1 when any of them is an error rather than a warning.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			wo := workspaceOptions()
			root, err := filepath.Abs(wo.Root)
			if err != nil {
				return err
			}
			wo.Root = root
			c := workspace.LoadCatalog(wo)
			defer c.Close()
			if flags.json {
				err = printJSON(os.Stdout, c.JSON())
			} else {
				err = printCatalog(c)
			}
			if err != nil {
				return err
			}
			errs := reportProblems(c.Problems)
			if errs > 0 {
				return &exitError{code: exitFailure, err: fmt.Errorf("%d plugin problem(s)", errs), shown: flags.json}
			}
			return nil
		},
	}
	check := &cobra.Command{
		Use:   "check DIR...",
		Short: "Validate plugin folders (plugin.json + plugin.kus.md) or wrapper folders (manifest.json)",
		Long: "Validate each folder and print its problems as file:line: code: message. The exit\n" +
			"status is 1 when any problem is an error. Whether a wrapper is allowlisted is not checked.",
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, dirs []string) error {
			var all []*plugin.PluginError
			for _, d := range dirs {
				all = append(all, plugins.CheckDir(d)...)
			}
			errs := 0
			for _, p := range all {
				if !p.Warning {
					errs++
				}
			}
			if flags.json {
				if all == nil {
					all = []*plugin.PluginError{}
				}
				for _, p := range all {
					p.File = displayPath(p.File)
					p.Ref = displayPath(p.Ref)
				}
				if err := printJSON(os.Stdout, all); err != nil {
					return err
				}
			} else {
				for _, p := range all {
					termf(os.Stdout, "%s\n", text(problemLine(p)))
				}
				if len(all) == 0 {
					termf(os.Stdout, "ok: %s\n", text(strings.Join(dirs, ", ")))
				}
			}
			if errs > 0 {
				return &exitError{code: exitFailure, err: fmt.Errorf("%d error(s) in %s", errs, strings.Join(dirs, ", ")), shown: flags.json}
			}
			return nil
		},
	}
	list.AddCommand(check)
	rootCmd.AddCommand(list)
}

// reportProblems prints each problem on standard error and returns the
// number of errors (problems that are not warnings).
func reportProblems(problems []*plugin.PluginError) int {
	errs := 0
	for _, p := range problems {
		if p.Warning {
			warnf("%s", text(problemLine(p)))
			continue
		}
		errs++
		termf(os.Stderr, "mrpvm: error: %s\n", text(problemLine(p)))
	}
	return errs
}

// problemLine renders "file:line: code: message (plugin id, stage s)".
func problemLine(p *plugin.PluginError) string {
	loc := displayPath(p.File)
	if loc == "" {
		loc = displayPath(p.Ref)
	}
	loc = safeField(loc) // a file name's line feed would end the line
	if loc != "" && p.Line > 0 {
		loc = fmt.Sprintf("%s:%d", loc, p.Line)
	}
	var b strings.Builder
	if loc != "" {
		b.WriteString(loc)
		b.WriteString(": ")
	}
	b.WriteString(p.Code)
	b.WriteString(": ")
	b.WriteString(p.Message)
	var who []string
	if p.ID != "" && !strings.Contains(p.Message, p.ID) {
		who = append(who, "plugin "+p.ID)
	}
	if p.Stage != "" {
		who = append(who, "stage "+string(p.Stage))
	}
	if len(who) > 0 {
		fmt.Fprintf(&b, " (%s)", strings.Join(who, ", "))
	}
	return b.String()
}

// displayPath shows paths under the current folder relative to it.
func displayPath(p string) string {
	if p == "" || !filepath.IsAbs(p) {
		return p
	}
	wd, err := os.Getwd()
	if err != nil {
		return p
	}
	if rel, err := filepath.Rel(wd, p); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return p
}

func printCatalog(c *plugins.Catalog) error {
	tw := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tTYPE\tENABLED\tCOST\tLLM\tDESCRIPTION")
	for _, e := range c.SortedEntries() {
		d := e.Descriptor
		enabled := "no"
		switch {
		case e.Loaded:
			enabled = "yes"
		case e.Enabled:
			enabled = "failed"
		}
		llm := "no"
		if d.UsesLLM {
			llm = fmt.Sprintf("<=%d", d.MaxLLMCalls)
		}
		id := d.ID
		if e.Origin == plugins.OriginWrapper {
			id += " (wrapper)"
		}
		termf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", id, d.Type, enabled, d.CostClass, llm, d.Description)
	}
	return tw.Flush()
}
