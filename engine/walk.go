package engine

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	ignore "github.com/sabhiram/go-gitignore"
)

// Walk warning codes.
const (
	CodeSymlinkLoop   = "symlink_loop"
	CodeBrokenSymlink = "broken_symlink"
	CodeWalkFailed    = "walk_failed"
)

// candidate is one Markdown file found in the workspace.
type candidate struct {
	path     string // absolute path as walked (may pass through symlinks)
	sourceID string // workspace-relative, forward slashes
	size     int64  // -1: not known yet (a walk without stats)
	modTime  int64
}

// IsSourceFile reports whether a file name is Markdown source text.
func IsSourceFile(name string) bool {
	ext := strings.ToLower(filepath.Ext(name))
	return ext == ".md" || ext == ".markdown"
}

// skipDir reports whether a folder is never walked.
func skipDir(name string) bool {
	return name == "node_modules" || (strings.HasPrefix(name, ".") && name != ".")
}

type ignoreRule struct {
	dir     string // workspace-relative folder of the .gitignore, "" for the root
	matcher *ignore.GitIgnore
}

// walker lists the Markdown files of a workspace, honouring .gitignore files,
// skipping hidden folders and node_modules, and following symlinks without loops.
type walker struct {
	root    string
	visited map[string]bool // real paths of folders already walked
	out     []candidate
	issues  []FileError
	noStat  bool // leave size and mtime of plain files unknown (-1)
}

// walkWorkspace lists the workspace's Markdown files sorted by source id.
// With noStat the plain files are not stat'ed (their size is -1): a cold
// ingest has nothing to compare them with, and the parse workers stat them
// in parallel instead of the walk doing it one by one.
func walkWorkspace(root string, noStat bool) ([]candidate, []FileError, error) {
	w := &walker{root: root, visited: map[string]bool{}, noStat: noStat}
	info, err := os.Stat(root)
	if err != nil {
		return nil, nil, fmt.Errorf("workspace %s: %w", root, err)
	}
	if !info.IsDir() {
		return nil, nil, fmt.Errorf("workspace %s: not a folder", root)
	}
	if err := w.dir(root, "", nil); err != nil {
		return nil, nil, err
	}
	sort.Slice(w.out, func(i, j int) bool { return w.out[i].sourceID < w.out[j].sourceID })
	return w.out, w.issues, nil
}

func (w *walker) dir(abs, rel string, rules []ignoreRule) error {
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		w.issues = append(w.issues, FileError{Path: abs, Code: CodeWalkFailed, Message: err.Error(), Warning: true})
		return nil
	}
	if w.visited[real] {
		w.issues = append(w.issues, FileError{Path: abs, Code: CodeSymlinkLoop,
			Message: "folder already walked through another path (symlink loop); skipped", Warning: true})
		return nil
	}
	w.visited[real] = true
	if m, err := ignore.CompileIgnoreFile(filepath.Join(abs, ".gitignore")); err == nil {
		rules = append(rules[:len(rules):len(rules)], ignoreRule{dir: rel, matcher: m})
	}
	entries, err := os.ReadDir(abs)
	if err != nil {
		if rel == "" {
			return fmt.Errorf("read workspace %s: %w", abs, err)
		}
		w.issues = append(w.issues, FileError{Path: abs, Code: CodeWalkFailed, Message: err.Error(), Warning: true})
		return nil
	}
	for _, e := range entries {
		name := e.Name()
		childAbs := filepath.Join(abs, name)
		childRel := name
		if rel != "" {
			childRel = rel + "/" + name
		}
		mode := e.Type()
		var info fs.FileInfo
		if mode&fs.ModeSymlink != 0 {
			info, err = os.Stat(childAbs)
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					if IsSourceFile(name) {
						w.issues = append(w.issues, FileError{Path: childAbs, Code: CodeBrokenSymlink, Message: "symlink target does not exist", Warning: true})
					}
				} else {
					w.issues = append(w.issues, FileError{Path: childAbs, Code: CodeSymlinkLoop, Message: err.Error(), Warning: true})
				}
				continue
			}
			mode = info.Mode().Type()
		}
		isDir := mode.IsDir()
		if isDir && skipDir(name) {
			continue
		}
		if ignored(rules, childRel, isDir) {
			continue
		}
		if isDir {
			if err := w.dir(childAbs, childRel, rules); err != nil {
				return err
			}
			continue
		}
		if !mode.IsRegular() || !IsSourceFile(name) {
			continue
		}
		if info == nil && w.noStat {
			w.out = append(w.out, candidate{path: childAbs, sourceID: childRel, size: -1})
			continue
		}
		if info == nil {
			if info, err = e.Info(); err != nil {
				continue // vanished since ReadDir
			}
		}
		w.out = append(w.out, candidate{path: childAbs, sourceID: childRel, size: info.Size(), modTime: info.ModTime().UnixNano()})
	}
	return nil
}

func ignored(rules []ignoreRule, rel string, isDir bool) bool {
	for _, r := range rules {
		sub := rel
		if r.dir != "" {
			if !strings.HasPrefix(rel, r.dir+"/") {
				continue
			}
			sub = strings.TrimPrefix(rel, r.dir+"/")
		}
		if r.matcher.MatchesPath(sub) || (isDir && r.matcher.MatchesPath(sub+"/")) {
			return true
		}
	}
	return false
}
