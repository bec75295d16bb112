package evaluation

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/mrpvm/mrpvm/test/internal/tldrpages"
)

// ErrWorkspaceUnavailable marks a workspace whose material is missing on
// this machine (the tldr-pages archive outside a CI layout).
var ErrWorkspaceUnavailable = errors.New("workspace material not available")

// Prepare builds the named workspace under dst (which must exist and be
// empty) from the repository at root: mrpvm-docs is README.md plus docs/,
// tldr is pages/common and pages/linux of the tldr-pages archive (as
// common/ and linux/), golibs is a copy of test/evaluation/testdata/golibs.
// The knowledge base is never written inside the repository.
func Prepare(root, name, dst string) error {
	switch name {
	case WorkspaceDocs:
		if err := copyFile(filepath.Join(root, "README.md"), filepath.Join(dst, "README.md")); err != nil {
			return err
		}
		return copyTree(filepath.Join(root, "docs"), filepath.Join(dst, "docs"))
	case WorkspaceTLDR:
		archive, err := tldrpages.Archive()
		if err != nil {
			return fmt.Errorf("%w: %v", ErrWorkspaceUnavailable, err)
		}
		n, err := tldrpages.Extract(archive, dst, map[string]string{"common": "common", "linux": "linux"})
		if err != nil {
			return err
		}
		if n["common"] == 0 || n["linux"] == 0 {
			return fmt.Errorf("%s: no pages/common or pages/linux pages", archive)
		}
		return nil
	case WorkspaceGolibs:
		return copyTree(filepath.Join(root, "test", "evaluation", "testdata", "golibs"), dst)
	}
	return fmt.Errorf("unknown workspace %q", name)
}

// SourceExists reports whether an acceptable file of a question exists in
// a prepared workspace: a workspace-relative path, or plugin::<id> for a
// built-in plugin's plugin.kus.md (looked up in the repository at root).
func SourceExists(root, wsDir, source string) bool {
	if id, ok := strings.CutPrefix(source, "plugin::"); ok {
		m, _ := filepath.Glob(filepath.Join(root, "plugins", "*", id, "plugin.kus.md"))
		return len(m) == 1
	}
	if filepath.IsAbs(source) || strings.Contains(source, "..") || strings.Contains(source, `\`) {
		return false
	}
	st, err := os.Stat(filepath.Join(wsDir, filepath.FromSlash(source)))
	return err == nil && st.Mode().IsRegular()
}

func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		return copyFile(p, filepath.Join(dst, rel))
	})
}

func copyFile(src, dst string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, b, 0o644)
}
