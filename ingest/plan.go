package ingest

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"

	"github.com/mrpvm/mrpvm/internal/fsafe"
	"github.com/mrpvm/mrpvm/store"
)

// plan is what one run has to do.
type plan struct {
	jobs     []work                // sources to read, parse and commit
	removals []*store.SourceRecord // stored sources whose file went away
}

// files counts the workspace files among the plan's sources (the others
// are built-in sources such as plugin::<id>).
func (pl *plan) files() int {
	n := len(pl.removals)
	for _, j := range pl.jobs {
		if j.path != "" {
			n++
		}
	}
	return n
}

// planner finds what changed since the last run. It reads each source's
// (size, mtime) from the small stat bucket; the full record is read only
// for sources that changed or went away. Decoding every record would touch
// (and, through the kernel's fault-around, map) most of a large file before
// any work is done.
type planner struct {
	kb   *KB
	full bool // the whole workspace, not RunOptions.Only
	// cold is a knowledge base with no source at all: it needs no record
	// look-ups and no stat of the files during the walk.
	cold    bool
	stats   []store.FileStat // sorted by source id (full runs)
	records map[string]*store.SourceRecord
}

// plan walks the workspace (or stats the files of only) and compares what
// it finds with the stored sources.
func (kb *KB) plan(only []string, rep *Report) (*plan, error) {
	pr := &planner{kb: kb, full: len(only) == 0}
	if err := pr.loadStored(only); err != nil {
		return nil, err
	}
	var cands []candidate // sorted by source id
	if pr.full {
		var issues []FileError
		var err error
		cands, issues, err = walkWorkspaceOpts(kb.workspace, pr.cold, len(pr.stats), kb.walk)
		if err != nil {
			return nil, err
		}
		rep.Errors = append(rep.Errors, issues...)
	} else {
		cands = kb.onlyCandidates(only, pr.records, rep)
	}
	pl := &plan{}
	gone, err := pr.changedFiles(cands, pl, rep)
	if err != nil {
		return nil, err
	}
	if !pr.full {
		return pl, nil
	}
	virtual, err := pr.changedVirtual(pl)
	if err != nil {
		return nil, err
	}
	for _, id := range gone {
		if virtual[id] {
			continue
		}
		rec, err := pr.record(id)
		if err != nil {
			return nil, err
		}
		if rec != nil {
			pl.removals = append(pl.removals, rec)
		}
	}
	return pl, nil
}

// loadStored reads the stored stats (a full run) or the records of the
// files of only.
func (pr *planner) loadStored(only []string) error {
	var err error
	if !pr.full {
		pr.records, err = pr.kb.onlyRecords(only) // a saved file need not decode every record
		return err
	}
	pr.records = map[string]*store.SourceRecord{}
	if pr.stats, err = pr.kb.store.FileStats(); err != nil {
		return err
	}
	if len(pr.stats) == 0 {
		n, _, err := pr.kb.store.Counts()
		if err != nil {
			return err
		}
		pr.cold = n == 0
	}
	return nil
}

// record returns the stored record of a source, reading it once.
func (pr *planner) record(id string) (*store.SourceRecord, error) {
	if rec, ok := pr.records[id]; ok || !pr.full || pr.cold {
		return rec, nil
	}
	rec, err := pr.kb.store.Source(id)
	if err != nil {
		return nil, fmt.Errorf("read source %s: %w", id, err)
	}
	pr.records[id] = rec
	return rec, nil
}

// changedFiles adds a job for every file whose size or mtime differs from
// its stored stat and returns the stored sources with no file any more, in
// id order. Both lists are sorted by source id: one merge pass pairs each
// file with its stored stat.
func (pr *planner) changedFiles(cands []candidate, pl *plan, rep *Report) (gone []string, err error) {
	stats := pr.stats
	si := 0
	for _, c := range cands {
		for si < len(stats) && stats[si].SourceID < c.sourceID {
			gone = append(gone, stats[si].SourceID)
			si++
		}
		if si < len(stats) && stats[si].SourceID == c.sourceID {
			st := stats[si]
			si++
			if st.Size == c.size && st.ModTime == c.modTime {
				rep.Unchanged++
				continue
			}
		}
		old, err := pr.record(c.sourceID)
		if err != nil {
			return nil, err
		}
		if old != nil && old.Size == c.size && old.ModTime == c.modTime {
			rep.Unchanged++
			continue
		}
		pl.jobs = append(pl.jobs, work{sourceID: c.sourceID, path: c.path, size: c.size, modTime: c.modTime, old: old})
	}
	for ; si < len(stats); si++ {
		gone = append(gone, stats[si].SourceID)
	}
	return gone, nil
}

// changedVirtual adds a job for every virtual source whose text changed and
// returns the ids of all of them.
func (pr *planner) changedVirtual(pl *plan) (map[string]bool, error) {
	virtual := make(map[string]bool, len(pr.kb.virtual))
	for _, v := range pr.kb.virtual {
		virtual[v.ID] = true
		old, err := pr.record(v.ID)
		if err != nil {
			return nil, err
		}
		if old != nil && old.Hash == hashText(v.Text) {
			continue
		}
		pl.jobs = append(pl.jobs, work{sourceID: v.ID, size: int64(len(v.Text)), text: v.Text, doc: v.Doc, old: old})
	}
	return virtual, nil
}

// splitFirst moves the jobs of the paths in first ahead of the others,
// keeping each part's order.
func splitFirst(jobs []work, first []string) (head, tail []work) {
	if len(first) == 0 {
		return nil, jobs
	}
	want := make(map[string]bool, len(first))
	for _, p := range first {
		want[p] = true
	}
	for _, j := range jobs {
		if j.path != "" && want[j.path] {
			head = append(head, j)
		} else {
			tail = append(tail, j)
		}
	}
	return head, tail
}

// onlyRecords loads the source records of the given file paths.
func (kb *KB) onlyRecords(paths []string) (map[string]*store.SourceRecord, error) {
	m := make(map[string]*store.SourceRecord, len(paths))
	for _, p := range paths {
		id, err := kb.sourceIDFor(p)
		if err != nil {
			continue // reported by onlyCandidates
		}
		rec, err := kb.store.Source(id)
		if err != nil {
			return nil, fmt.Errorf("read source %s: %w", id, err)
		}
		if rec != nil {
			m[id] = rec
		}
	}
	return m, nil
}

// onlyCandidates stats the given files for a partial ingest.
func (kb *KB) onlyCandidates(paths []string, records map[string]*store.SourceRecord, rep *Report) []candidate {
	var out []candidate
	for _, p := range paths {
		id, err := kb.sourceIDFor(p)
		if err != nil {
			rep.Errors = append(rep.Errors, FileError{Path: p, Code: CodeReadFailed, Message: err.Error()})
			continue
		}
		if !utf8.ValidString(id) {
			rep.Errors = append(rep.Errors, FileError{Path: strings.ToValidUTF8(p, "\ufffd"), Code: CodeNameNotUTF8, Warning: true,
				Message: fmt.Sprintf("the path %q is not valid UTF-8; skipped (rename it to ingest it)", p)})
			continue
		}
		if kb.ignoredSource(id, records, rep) {
			continue
		}
		if _, err := kb.root.Resolve(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			rep.Errors = append(rep.Errors, FileError{Path: p, Code: fsafe.CodeOr(err, CodeReadFailed), Message: err.Error() + "; skipped", Warning: true})
			if rec := records[id]; rec != nil && fsafe.Code(err) != "" {
				if err := kb.removeSource(context.Background(), rec); err == nil {
					rep.Removed++
				}
			}
			continue
		}
		info, err := os.Stat(p)
		if errors.Is(err, fs.ErrNotExist) {
			if rec := records[id]; rec != nil {
				if err := kb.removeSource(context.Background(), rec); err != nil {
					rep.Errors = append(rep.Errors, FileError{Path: p, Code: CodeCommit, Message: err.Error()})
				} else {
					rep.Removed++
				}
			}
			continue
		}
		if err != nil {
			rep.Errors = append(rep.Errors, FileError{Path: p, Code: CodeReadFailed, Message: err.Error()})
			continue
		}
		out = append(out, candidate{path: p, sourceID: id, size: info.Size(), modTime: info.ModTime().UnixNano()})
	}
	return out
}

// ignoredSource reports whether the source id (a saved file ingested on
// its own) is one a full walk would leave out: under a skipped folder or
// matched by the ignore files of its folders or the exclude patterns. A
// stored record of it is removed, as the full walk would.
func (kb *KB) ignoredSource(id string, records map[string]*store.SourceRecord, rep *Report) bool {
	parts := strings.Split(id, "/")
	w := &walker{root: kb.root, opt: kb.walk}
	w.exclude = w.excludePatterns(kb.workspace)
	rules := w.ignoreFile(filepath.Join(kb.workspace, ".git", "info", "exclude"), nil)
	dir := kb.workspace
	ignored := false
	for i := range parts {
		for _, name := range ignoreFiles {
			rules = append(rules, w.ignoreFile(filepath.Join(dir, name), parts[:i])...)
		}
		isDir := i < len(parts)-1
		if isDir && skipDir(parts[i]) {
			ignored = true
			break
		}
		if len(rules)+len(w.exclude) > 0 && gitignore.NewMatcher(append(rules[:len(rules):len(rules)], w.exclude...)).Match(parts[:i+1], isDir) {
			ignored = true
			break
		}
		dir = filepath.Join(dir, parts[i])
	}
	// An ignore file that cannot be read was reported by the full walk;
	// a save does not report it again.
	if !ignored {
		return false
	}
	if rec := records[id]; rec != nil {
		if err := kb.removeSource(context.Background(), rec); err != nil {
			rep.Errors = append(rep.Errors, FileError{Path: displayPath(rec), Code: CodeCommit, Message: err.Error()})
		} else {
			rep.Removed++
		}
	}
	return true
}
