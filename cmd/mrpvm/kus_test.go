package main

import (
	"path/filepath"
	"testing"
)

// TestSourceIDOf: a file inside the workspace is named by its
// workspace-relative path (also one whose name begins with ".."), one
// outside by its cleaned path; kus confines the read to the workspace or
// to the outside file's own folder.
func TestSourceIDOf(t *testing.T) {
	ws := t.TempDir()
	out := t.TempDir()
	flags = globalFlags{workspace: ws}
	defer func() { flags = globalFlags{workspace: "."} }()
	for _, tc := range []struct{ path, id, root string }{
		{filepath.Join(ws, "notes", "a.md"), "notes/a.md", ws},
		{filepath.Join(ws, "..a.md"), "..a.md", ws},
		{filepath.Join(out, "b.md"), filepath.ToSlash(filepath.Join(out, "b.md")), out},
		{filepath.Join(ws, "..", filepath.Base(out), "b.md"), filepath.ToSlash(filepath.Join(out, "b.md")), out},
	} {
		if got := sourceIDOf(tc.path); got != tc.id {
			t.Errorf("sourceIDOf(%q) = %q, want %q", tc.path, got, tc.id)
		}
		if got := kusRoot(tc.path); got != tc.root {
			t.Errorf("kusRoot(%q) = %q, want %q", tc.path, got, tc.root)
		}
	}
}
