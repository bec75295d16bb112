package ingest

import (
	"context"
	"errors"
	"time"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/store"
)

// VirtualSource is a source with no file, such as a built-in plugin's KUs
// (sourceId plugin::<id>).
type VirtualSource struct {
	ID   string
	Name string
	Text []byte
	// Doc, when set, is the source's KU hierarchy as a plugin read it
	// (normalizePersistentContext); the Markdown reader is not used.
	Doc *kus.Document
}

// Progress is told about each committed or skipped source.
type Progress func(done, total int, sourceID string)

// RunOptions tune one ingest run.
type RunOptions struct {
	Progress Progress
	// Only restricts the run to these absolute file paths (saved files); the
	// rest of the workspace is neither walked nor removed.
	Only []string
	// Compact rewrites the file bucket by bucket after the run (see
	// KB.Compact). A failure to compact is reported as a CodeCompact
	// warning and leaves the file as it was.
	Compact bool
	// First names absolute file paths to ingest before the rest (the
	// documents open in an editor): they are parsed and committed as a batch
	// of their own, so they are searchable while the others are still read.
	First []string
	// Planned, when set, is told the number of sources the run will commit
	// or remove and how many of them are workspace files (the others are
	// built-in sources such as plugin::<id>), once known and before the
	// first of them.
	Planned func(total, files int)
}

// Ingest brings the knowledge base up to date with the workspace: new and
// changed files are parsed in parallel and committed one transaction per
// source (or per group of sources parsed faster than they commit);
// unchanged files are skipped; deleted files are removed. Runs, hook
// rebuilds and compaction of one KB are serialised.
func (kb *KB) Ingest(ctx context.Context, opt RunOptions) (*Report, error) {
	kb.ingestMu.Lock()
	defer kb.ingestMu.Unlock()
	start := time.Now()
	rep := &Report{Errors: []FileError{}, Warnings: []FileWarning{}}
	hr := kb.beginHookRun()
	defer kb.endHookRun(hr, rep)
	if err := kb.backfillHooks(ctx); err != nil {
		return nil, err
	}
	pl, err := kb.plan(opt.Only, rep)
	if err != nil {
		return nil, err
	}
	if len(pl.jobs) >= bulkJobs {
		defer bulkGC()()
	}
	if err := kb.apply(ctx, pl, opt, rep); err != nil {
		return nil, err
	}
	if opt.Compact {
		if err := kb.compactAfterRun(rep); err != nil {
			return nil, err
		}
	}
	if rep.KUs, err = kb.countKUs(); err != nil {
		return nil, err
	}
	rep.Seconds = time.Since(start).Seconds()
	return rep, nil
}

// apply carries out a plan: it removes the sources that went away, then
// parses and commits the jobs, those of opt.First ahead of the rest, and
// reports each source to opt.Progress as it is done.
func (kb *KB) apply(ctx context.Context, pl *plan, opt RunOptions, rep *Report) error {
	total := len(pl.jobs) + len(pl.removals)
	done := 0
	step := func(id string) {
		done++
		if opt.Progress != nil {
			opt.Progress(done, total, id)
		}
	}
	if len(pl.jobs) > 1 {
		kb.store.DeferSync() // one fsync at the end instead of one per source
	}
	if opt.Planned != nil {
		opt.Planned(total, pl.files())
	}
	if err := kb.removeAll(ctx, pl.removals, rep, step); err != nil {
		return kb.finish(err)
	}
	first, rest := splitFirst(pl.jobs, opt.First)
	err := kb.parseAndCommit(ctx, first, rep, step)
	if err == nil {
		err = kb.parseAndCommit(ctx, rest, rep, step)
	}
	return kb.finish(err)
}

// compactAfterRun compacts the file at the end of a run (RunOptions.Compact):
// a failure is a CodeCompact warning, unless the file could not be opened
// again.
func (kb *KB) compactAfterRun(rep *Report) error {
	err := kb.store.Compact()
	if err == nil {
		return nil
	}
	if errors.Is(err, store.ErrClosed) {
		return err
	}
	rep.Errors = append(rep.Errors, FileError{Path: kb.store.Path(), Code: CodeCompact, Message: err.Error(), Warning: true})
	return nil
}
