package ingest

import (
	"fmt"
	"os"
	"path/filepath"
)

// RootMarkers name the entries that make a folder a project's top folder,
// most explicit first: a .mrpvm folder (mrpvm's own configuration) or a
// .git folder or file (a repository or a worktree of one).
var RootMarkers = []string{".mrpvm", ".git"}

// CodeUnsafeWorkspace is the error of a workspace that is the user's home
// folder or a filesystem root, refused unless forced or opted in.
const CodeUnsafeWorkspace = "unsafe_workspace"

// UnsafeRoot says why dir should not be ingested whole unless the user
// asked for it: it is the user's home folder, or a filesystem root ("/",
// a volume). It returns "" for any other folder. Both sides are compared
// as files, so a symlinked or differently spelled home folder is caught.
func UnsafeRoot(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	if filepath.Dir(abs) == abs {
		return "a filesystem root"
	}
	if home, err := os.UserHomeDir(); err == nil && home != "" && sameDir(abs, home) {
		return "your home folder"
	}
	return ""
}

// OptedIn reports whether dir holds a .mrpvm folder: the user made it a
// workspace on purpose, even when it is an unsafe root.
func OptedIn(dir string) bool {
	info, err := os.Stat(filepath.Join(dir, ".mrpvm"))
	return err == nil && info.IsDir()
}

// CheckWorkspace refuses a workspace that is an unsafe root (UnsafeRoot)
// with no .mrpvm folder; the error starts with CodeUnsafeWorkspace.
func CheckWorkspace(dir string) error {
	why := UnsafeRoot(dir)
	if why == "" || OptedIn(dir) {
		return nil
	}
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	return fmt.Errorf("%s: %s is %s: every Markdown file under it would be ingested; name a project folder, or create %s to make it a workspace",
		CodeUnsafeWorkspace, dir, why, filepath.Join(dir, ".mrpvm"))
}

// RootChoice is the workspace folder chosen for a file opened with none.
type RootChoice struct {
	// Root is the folder to serve; "" when none may be served.
	Root string
	// Marker is the marker found in Root (RootMarkers), "" when Root is
	// only the file's own folder.
	Marker string
	// Refused is why no folder is served: the file's folder is an unsafe
	// root (UnsafeRoot) and no marked folder holds it.
	Refused string
}

// FindRoot picks the workspace folder of a Markdown file opened without
// one: the nearest folder above it holding a root marker, skipping an
// unsafe root unless it holds .mrpvm (a home folder kept in git for its
// dotfiles is no notes workspace); failing that, the file's own folder,
// unless that is itself an unsafe root.
func FindRoot(file string) RootChoice {
	abs, err := filepath.Abs(file)
	if err != nil {
		return RootChoice{Refused: err.Error()}
	}
	dir := filepath.Dir(abs)
	for d := dir; ; {
		for _, m := range RootMarkers {
			if _, err := os.Lstat(filepath.Join(d, m)); err != nil {
				continue
			}
			if UnsafeRoot(d) == "" || (m == ".mrpvm" && OptedIn(d)) {
				return RootChoice{Root: d, Marker: m}
			}
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	if why := UnsafeRoot(dir); why != "" {
		return RootChoice{Refused: why}
	}
	return RootChoice{Root: dir}
}

func sameDir(a, b string) bool {
	ia, err := os.Stat(a)
	if err != nil {
		return false
	}
	ib, err := os.Stat(b)
	if err != nil {
		return false
	}
	return os.SameFile(ia, ib)
}
