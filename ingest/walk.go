package ingest

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"unicode/utf8"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"

	"github.com/mrpvm/mrpvm/config"
	"github.com/mrpvm/mrpvm/internal/fsafe"
)

// Walk warning codes.
const (
	CodeSymlinkLoop   = "symlink_loop"
	CodeBrokenSymlink = "broken_symlink"
	CodeWalkFailed    = "walk_failed"
	// CodeTooManyFiles is the warning of a walk that stopped at
	// WalkOptions.MaxFiles: what was listed before it is ingested.
	CodeTooManyFiles = "workspace_too_many_files"
	// CodeBadExclude is the warning of an exclude pattern that is not a
	// valid glob; it matches nothing.
	CodeBadExclude = "bad_exclude_pattern"
)

// DefaultMaxFiles is the default cap on the Markdown files (and on the
// folders) one walk of a workspace lists.
const DefaultMaxFiles = 100_000

// WalkOptions narrow what a workspace walk lists.
type WalkOptions struct {
	// Exclude are gitignore-style patterns relative to the workspace root
	// (the exclude settings), laid over every ignore file: they win over
	// them, and a "!pattern" among them re-includes.
	Exclude []string
	// MaxFiles caps the Markdown files, and separately the folders, one
	// walk lists (DefaultMaxFiles when 0). The walk stops at the cap, so a
	// huge tree costs neither unbounded memory nor time; which files make
	// it is fixed by the walk order (folder entries by name, depth first).
	MaxFiles int
}

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

// SourceFiles lists the absolute paths of the workspace's Markdown files,
// sorted by source id: the files an ingest reads (.gitignore honoured,
// hidden folders and node_modules skipped, symlinks followed only inside the
// root and without loops).
func SourceFiles(root string) ([]string, error) {
	cands, _, err := walkWorkspace(root, true)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(cands))
	for i, c := range cands {
		out[i] = c.path
	}
	return out, nil
}

// skipDir reports whether a folder is never walked.
func skipDir(name string) bool {
	return name == "node_modules" || (strings.HasPrefix(name, ".") && name != ".")
}

// Ignore files read in every folder, in increasing precedence: a .ignore
// (the convention of ripgrep and other tools) wins over the .gitignore
// beside it.
var ignoreFiles = []string{".gitignore", ".ignore"}

// walker lists the Markdown files of a workspace, honouring ignore files
// with git's semantics (.git/info/exclude, then each folder's .gitignore
// and .ignore, deeper files winning, the last matching pattern deciding,
// "!" re-including), then the exclude patterns; it skips hidden folders and
// node_modules, and follows symlinks without loops and only to targets
// inside the workspace.
type walker struct {
	root    *fsafe.Root
	opt     WalkOptions
	folders int  // folders listed
	full    bool // MaxFiles was reached: the walk stopped
	exclude []gitignore.Pattern
	visited map[string]bool // real paths of folders already walked
	out     []candidate
	issues  []FileError
	noStat  bool // leave size and mtime of plain files unknown (-1)
	// pending are the plain files of the folder being read still to stat
	// (indexes in out); statFiles stats them with the folder's descriptor.
	pending []int
	dropped bool // some candidate vanished before its stat
	hint    int  // expected number of files (the sources stored)
}

// walkWorkspace lists the workspace's Markdown files sorted by source id.
// With noStat the plain files are not stat'ed (their size is -1): a cold
// ingest has nothing to compare them with, and the parse workers stat them
// in parallel instead of the walk doing it one by one.
func walkWorkspace(root string, noStat bool) ([]candidate, []FileError, error) {
	return walkWorkspaceHint(root, noStat, 0)
}

// walkWorkspaceHint is walkWorkspace told how many files to expect.
func walkWorkspaceHint(root string, noStat bool, hint int) ([]candidate, []FileError, error) {
	return walkWorkspaceOpts(root, noStat, hint, WalkOptions{})
}

// walkWorkspaceOpts is walkWorkspaceHint with exclude patterns and a file cap.
func walkWorkspaceOpts(root string, noStat bool, hint int, opt WalkOptions) ([]candidate, []FileError, error) {
	if opt.MaxFiles <= 0 {
		opt.MaxFiles = DefaultMaxFiles
	}
	info, err := os.Stat(root)
	if err != nil {
		return nil, nil, fmt.Errorf("workspace %s: %w", root, err)
	}
	if !info.IsDir() {
		return nil, nil, fmt.Errorf("workspace %s: not a folder", root)
	}
	r, err := fsafe.NewRoot(root)
	if err != nil {
		return nil, nil, fmt.Errorf("workspace %s: %w", root, err)
	}
	w := &walker{root: r, opt: opt, visited: map[string]bool{}, noStat: noStat}
	if hint > 0 {
		w.out = make([]candidate, 0, min(hint+hint/8, opt.MaxFiles))
	}
	w.exclude = w.excludePatterns(root)
	// .git/info/exclude holds the repository's own ignore rules, below
	// every .gitignore.
	rules := w.ignoreFile(filepath.Join(root, ".git", "info", "exclude"), nil)
	if err := w.dir(root, "", rules); err != nil {
		return nil, nil, err
	}
	if w.dropped {
		out := w.out[:0]
		for _, c := range w.out {
			if c.size != vanished {
				out = append(out, c)
			}
		}
		w.out = out
	}
	if !sort.SliceIsSorted(w.out, func(i, j int) bool { return w.out[i].sourceID < w.out[j].sourceID }) {
		sort.Slice(w.out, func(i, j int) bool { return w.out[i].sourceID < w.out[j].sourceID })
	}
	return w.out, w.issues, nil
}

// Stat'ing the pending files: a goroutine takes statBlock files at a time;
// fewer than statParallelMin files are stat'ed on the walking goroutine.
const (
	statBlock       = 256
	statParallelMin = 2 * statBlock
	maxStatWorkers  = 4
)

// vanished marks a candidate whose file could not be stat'ed after it was
// listed; statFiles drops it, as the walk always has.
const vanished = -2

// statFiles fills in the size and mtime of the folder's pending plain
// files, stat'ing each by name relative to the open folder dir (what
// fs.DirEntry.Info does, without resolving the whole path again). A
// stat costs a couple of microseconds in the kernel, most of an unchanged
// workspace's check, so a large folder spreads them over a few goroutines
// that take blocks of files from a shared counter (no per-file hand-off).
// A file that vanished since the folder was read is marked and dropped.
func (w *walker) statFiles(dir *os.File) {
	pending := w.pending
	w.pending = w.pending[:0]
	if len(pending) == 0 {
		return
	}
	var lost atomic.Bool
	stat := statIn(dir)
	statAll := func(idx []int) {
		for _, i := range idx {
			c := &w.out[i]
			size, modTime, err := stat(baseName(c.sourceID))
			if err != nil {
				c.size = vanished // vanished since the folder was read
				lost.Store(true)
				continue
			}
			c.size, c.modTime = size, modTime
		}
	}
	n := len(pending)
	workers := min(max(runtime.GOMAXPROCS(0), 2), maxStatWorkers, (n+statBlock-1)/statBlock)
	if n < statParallelMin || workers < 2 {
		statAll(pending)
	} else {
		var next atomic.Int64
		var wg sync.WaitGroup
		for range workers {
			wg.Go(func() {
				for {
					lo := int(next.Add(statBlock)) - statBlock
					if lo >= n {
						return
					}
					statAll(pending[lo:min(lo+statBlock, n)])
				}
			})
		}
		wg.Wait()
	}
	if lost.Load() {
		w.dropped = true
	}
}

func (w *walker) dir(abs, rel string, rules []gitignore.Pattern) error {
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		w.issues = append(w.issues, FileError{Path: abs, Code: CodeWalkFailed, Message: err.Error(), Warning: true})
		return nil
	}
	if !w.root.Contains(real) {
		w.issues = append(w.issues, FileError{Path: abs, Code: CodeOutsideRoot,
			Message: "folder resolves to " + real + ", outside the workspace; skipped", Warning: true})
		return nil
	}
	if w.visited[real] {
		w.issues = append(w.issues, FileError{Path: abs, Code: CodeSymlinkLoop,
			Message: "folder already walked through another path (symlink loop); skipped", Warning: true})
		return nil
	}
	w.visited[real] = true
	if w.folders++; w.folders > w.opt.MaxFiles {
		w.stop(fmt.Sprintf("the workspace has more than %d folders", w.opt.MaxFiles))
		return nil
	}
	var domain []string
	if rel != "" {
		domain = strings.Split(rel, "/")
	}
	for _, name := range ignoreFiles {
		if ps := w.ignoreFile(filepath.Join(abs, name), domain); len(ps) > 0 {
			rules = append(rules[:len(rules):len(rules)], ps...)
		}
	}
	var match gitignore.Matcher
	if len(rules)+len(w.exclude) > 0 {
		match = gitignore.NewMatcher(append(rules[:len(rules):len(rules)], w.exclude...))
	}
	entries, f, err := readDir(abs)
	if err != nil {
		if rel == "" {
			return fmt.Errorf("read workspace %s: %w", abs, err)
		}
		w.issues = append(w.issues, FileError{Path: abs, Code: CodeWalkFailed, Message: err.Error(), Warning: true})
		return nil
	}
	defer f.Close()
	for _, e := range entries {
		if w.full {
			break
		}
		name := e.Name()
		childAbs := filepath.Join(abs, name)
		childRel := name
		if rel != "" {
			childRel = rel + "/" + name
		}
		mode := e.Type()
		linked := mode&fs.ModeSymlink != 0
		var info fs.FileInfo
		if linked {
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
		if !isDir && !IsSourceFile(name) {
			continue // never read
		}
		if match != nil && match.Match(strings.Split(childRel, "/"), isDir) {
			continue
		}
		if !utf8.ValidString(name) {
			w.issues = append(w.issues, FileError{Path: strings.ToValidUTF8(abs, "\ufffd"), Code: CodeNameNotUTF8, Warning: true,
				Message: fmt.Sprintf("the name %q is not valid UTF-8; skipped (rename it to ingest it)", name)})
			continue
		}
		if linked {
			// A symlink is followed only to a target inside the workspace.
			target, err := filepath.EvalSymlinks(childAbs)
			if err == nil && !w.root.Contains(target) {
				err = fmt.Errorf("symlink resolves to %s, outside the workspace; skipped", target)
			}
			if err != nil {
				w.issues = append(w.issues, FileError{Path: childAbs, Code: CodeOutsideRoot, Message: err.Error(), Warning: true})
				continue
			}
		}
		if !isDir && !mode.IsRegular() {
			w.issues = append(w.issues, FileError{Path: childAbs, Code: CodeNotRegular, Warning: true,
				Message: "not a regular file (a FIFO, device or socket); skipped"})
			continue
		}
		if !isDir && len(w.out) >= w.opt.MaxFiles {
			w.stop(fmt.Sprintf("the workspace has more than %d Markdown files", w.opt.MaxFiles))
			break
		}
		if isDir {
			w.statFiles(f) // the subfolder reuses pending
			if err := w.dir(childAbs, childRel, rules); err != nil {
				return err
			}
			continue
		}
		if info == nil && w.noStat {
			w.out = append(w.out, candidate{path: childAbs, sourceID: childRel, size: -1})
			continue
		}
		if info == nil {
			w.pending = append(w.pending, len(w.out))
			w.out = append(w.out, candidate{path: childAbs, sourceID: childRel})
			continue
		}
		w.out = append(w.out, candidate{path: childAbs, sourceID: childRel, size: info.Size(), modTime: info.ModTime().UnixNano()})
	}
	w.statFiles(f)
	return nil
}

// ignoreFile reads the patterns of an ignore file whose folder has the
// path components domain, or returns nil when there is none. One that
// cannot be read safely (a FIFO, a device, a symlink out of the workspace,
// over the configuration size cap) is reported and ignored.
func (w *walker) ignoreFile(path string, domain []string) []gitignore.Pattern {
	b, err := w.root.ReadFile(path, fsafe.MaxConfigBytes)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
			w.issues = append(w.issues, FileError{Path: path, Code: fsafe.CodeOr(err, CodeReadFailed),
				Message: err.Error() + "; its rules are not applied", Warning: true})
		}
		return nil
	}
	return parseIgnore(b, domain)
}

// parseIgnore reads ignore patterns as git does: a UTF-8 byte order mark
// is skipped, lines end at LF with an optional CR before it, blank lines
// and lines starting with "#" are not patterns (ParsePattern handles
// trailing spaces, "\ ", "!" and the other escapes).
func parseIgnore(b []byte, domain []string) []gitignore.Pattern {
	b = bytes.TrimPrefix(b, []byte("\ufeff"))
	var ps []gitignore.Pattern
	for line := range bytes.SplitSeq(b, []byte("\n")) {
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(line) == 0 || line[0] == '#' || len(bytes.Trim(line, " ")) == 0 {
			continue
		}
		ps = append(ps, parsePattern(string(line), domain))
	}
	return ps
}

// parsePattern is gitignore.ParsePattern with one correction: go-git lets
// a trailing "/**" match the folder itself, which would prune it, while
// git matches only what is inside ("logs/**" then "!logs/keep.md" keeps
// logs/keep.md). "dir/**/*" is what git means.
func parsePattern(p string, domain []string) gitignore.Pattern {
	if t := strings.TrimRight(p, " "); strings.HasSuffix(t, "/**") && !strings.HasSuffix(p, "\\ ") {
		p = t + "/*"
	}
	return gitignore.ParsePattern(p, domain)
}

// excludePatterns compiles the exclude option; a pattern that is not a
// valid glob is reported (it would match nothing).
func (w *walker) excludePatterns(root string) []gitignore.Pattern {
	var ps []gitignore.Pattern
	for _, p := range w.opt.Exclude {
		if err := config.CheckGlob(p); err != nil {
			w.issues = append(w.issues, FileError{Path: root, Code: CodeBadExclude, Warning: true, Message: err.Error()})
			continue
		}
		if strings.TrimSpace(p) == "" || strings.HasPrefix(p, "#") {
			continue
		}
		ps = append(ps, parsePattern(p, nil))
	}
	return ps
}

// stop ends the walk at the file cap and says so once.
func (w *walker) stop(why string) {
	if w.full {
		return
	}
	w.full = true
	w.issues = append(w.issues, FileError{Path: w.root.Dir(), Code: CodeTooManyFiles, Warning: true,
		Message: fmt.Sprintf("%s: only the first %d found (folders read in name order, depth first) are ingested; raise maxWorkspaceFiles in %s or exclude folders (the exclude setting)",
			why, len(w.out), ".mrpvm/engine.json")})
}

// readDir reads a folder's entries sorted by name, as os.ReadDir does, and
// keeps the folder open for statFiles.
func readDir(path string) ([]fs.DirEntry, *os.File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	entries, err := f.ReadDir(-1)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, f, nil
}
