package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mrpvm/mrpvm/ingest"
	"github.com/mrpvm/mrpvm/internal/fsafe"
	"github.com/mrpvm/mrpvm/kus"
)

func init() {
	cmd := &cobra.Command{
		Use:   "kus FILE",
		Short: "Show the KU tree of one Markdown file: ids, levels, roles and line ranges",
		Long: `kus reads one file with the same reader ingest uses and prints its
Knowledge Unit hierarchy, so you can see how a document will be split.
It does not touch the knowledge base. With --json it prints the document:
{"source": {"sourceId", "sourceName", "sourceType"}, "title", "tags",
"units": [{"id", "kuType", "level", "title", "role", ..., "range"}],
"diagnostics": [{"line", "col", "severity", "code", "message"}]}.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			path := args[0]
			src, err := fsafe.ReadFile(kusRoot(path), path, ingest.DefaultMaxFileSize)
			if err != nil {
				if c := fsafe.Code(err); c != "" {
					return fmt.Errorf("%s: %s", c, err)
				}
				return err
			}
			id := sourceIDOf(path)
			doc, err := kus.Parse(src, kus.SourceInfo{SourceID: id, SourceName: filepath.Base(path), SourceType: kus.SourceMarkdown})
			if err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			return printResult(doc, func(w io.Writer) error {
				printKUTree(w, doc)
				for _, d := range doc.Diagnostics {
					termf(os.Stderr, "%s:%d:%d: %s: %s\n", path, d.Line, d.Col, d.Code, text(d.Message))
				}
				return nil
			})
		},
	}
	rootCmd.AddCommand(cmd)
}

// kusRoot is the folder a file named to kus is confined to: the workspace
// when the file lies in it (a symlink out of a cloned repository is not
// followed), else the file's own folder.
func kusRoot(path string) string {
	if ws, _, ok := inWorkspace(path); ok {
		return ws
	}
	abs, _ := filepath.Abs(path)
	return filepath.Dir(abs)
}

// sourceIDOf is the workspace-relative id of path, or its cleaned path when
// it lies outside the workspace.
func sourceIDOf(path string) string {
	if _, rel, ok := inWorkspace(path); ok {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(filepath.Clean(path))
}

// inWorkspace reports whether path lies inside the workspace folder of
// the global flags, with that folder made absolute and path relative to
// it.
func inWorkspace(path string) (ws, rel string, ok bool) {
	ws, err1 := filepath.Abs(flags.workspace)
	abs, err2 := filepath.Abs(path)
	if err1 != nil || err2 != nil {
		return "", "", false
	}
	rel, err := filepath.Rel(ws, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", "", false
	}
	return ws, rel, true
}

// printKUTree writes doc's units as a tree, children indented under
// their parent; a unit no root reaches is printed as a root.
func printKUTree(w io.Writer, doc *kus.Document) {
	byID := make(map[string]*kus.KU, len(doc.Units))
	for _, u := range doc.Units {
		byID[u.ID] = u
	}
	var walk func(u *kus.KU, depth int)
	printed := map[string]bool{}
	walk = func(u *kus.KU, depth int) {
		if printed[u.ID] {
			return
		}
		printed[u.ID] = true
		termf(w, "%s%s  [%s %s %s] L%d-%d  %s\n", strings.Repeat("  ", depth), u.ID, u.Level, u.KUType, u.Role,
			u.Range.StartLine, u.Range.EndLine, oneLine(u.Title, 60))
		for _, c := range u.ChildUnitIDs {
			if child := byID[c]; child != nil {
				walk(child, depth+1)
			}
		}
	}
	for _, u := range doc.Units {
		if len(u.ParentUnitIDs) == 0 {
			walk(u, 0)
		}
	}
	for _, u := range doc.Units { // anything not reachable from a root
		walk(u, 0)
	}
}

func oneLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > max {
		return string(r[:max-1]) + "…"
	}
	return s
}
