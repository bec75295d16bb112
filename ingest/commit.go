package ingest

import (
	"context"
	"errors"
	"runtime"
	"sync"

	"github.com/mrpvm/mrpvm/store"
)

// parseAndCommit reads and parses jobs on every core and commits each
// source in its own write transaction as soon as it is parsed.
func (kb *KB) parseAndCommit(ctx context.Context, jobs []work, rep *Report, step func(string)) error {
	if len(jobs) == 0 {
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	in := make(chan work)
	out := make(chan parsed, 64)
	var wg sync.WaitGroup
	// One parse worker more than there are CPUs: a worker blocked reading
	// its file (or waiting for the committer to take its result) leaves
	// the CPU to another one (docs/performance.md, Ingest tuning).
	workers := runtime.GOMAXPROCS(0) + 1
	for i := 0; i < workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for w := range in {
				select {
				case out <- kb.parse(ctx, w):
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	go func() {
		defer close(in)
		for _, w := range jobs {
			select {
			case in <- w:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(out) }()

	// Sources parsed faster than they commit are committed in groups, one
	// write transaction per group: each source keeps its KUs and its hooks'
	// index changes atomic, and a cold ingest pays one commit (page writes,
	// rebalancing) per group instead of one per file.
	// A bulk ingest parses slower than it commits, so "flush when nothing
	// else is ready" would commit most sources alone; it waits for
	// bulkGroup sources instead (a saved file still commits at once). Each
	// commit rewrites the buckets' right edges and branch pages, so fewer,
	// larger commits write less (docs/performance.md, Ingest tuning).
	minGroup := 1
	if len(jobs) >= bulkJobs {
		minGroup = bulkGroup
	}
	var group []parsed
	flush := func() {
		kb.commitGroup(ctx, group, rep)
		for _, g := range group {
			step(g.sourceID)
		}
		group = group[:0]
	}
	for {
		// A cancelled context ends the loop at once, without waiting for a
		// parse in progress (it stops at its next check).
		var p parsed
		var ok bool
		select {
		case p, ok = <-out:
		case <-ctx.Done():
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if !ok {
			break
		}
		if p.issue != nil || p.touch {
			kb.commitParsed(ctx, p, rep)
			step(p.sourceID)
			continue
		}
		group = append(group, p)
		if len(group) < maxGroup && (len(out) > 0 || len(group) < minGroup) {
			continue // more are ready (or a bulk group is not full): keep collecting
		}
		flush()
	}
	if len(group) > 0 && ctx.Err() == nil {
		flush()
	}
	return ctx.Err()
}

// maxGroup bounds the sources committed in one write transaction;
// bulkGroup is the size a bulk ingest waits for.
const (
	maxGroup  = 128
	bulkGroup = 96
)

// commitGroup commits parsed sources in one transaction; when that fails
// each is committed on its own so only the failing source is reported.
func (kb *KB) commitGroup(ctx context.Context, group []parsed, rep *Report) {
	if len(group) > 1 {
		err := kb.store.Update(func(tx *store.Tx) error {
			for _, p := range group {
				if err := kb.commitSourceTx(ctx, tx, p); err != nil {
					return err
				}
			}
			return nil
		})
		if err == nil {
			for _, p := range group {
				rep.committed(p)
			}
			return
		}
	}
	for _, p := range group {
		kb.commitParsed(ctx, p, rep)
	}
}

// commitParsed commits one parsed source on its own and reports it: an
// issue found while reading it, a new mtime only, or new KUs.
func (kb *KB) commitParsed(ctx context.Context, p parsed, rep *Report) {
	if p.issue != nil {
		rep.Errors = append(rep.Errors, *p.issue)
		// A file that vanished or is no longer valid text leaves the KB; one
		// that could not be read keeps its last good KUs.
		if p.old != nil && p.issue.Code != CodeReadFailed {
			if err := kb.removeSource(ctx, p.old); err == nil && p.issue.Code == CodeVanished {
				rep.Removed++
			}
		}
		return
	}
	if p.touch {
		if err := kb.touchSource(p); err != nil {
			rep.Errors = append(rep.Errors, FileError{Path: p.displayPath(), Code: CodeCommit, Message: err.Error()})
			return
		}
		rep.Unchanged++
		return
	}
	if err := kb.commitSource(ctx, p); err != nil {
		code := CodeCommit
		var he *hookError
		if errors.As(err, &he) {
			code = CodeHookFailed
			if errors.Is(err, errHookTimeout) {
				code = CodeHookTimeout
			}
		}
		rep.Errors = append(rep.Errors, FileError{Path: p.displayPath(), Code: code, Message: err.Error()})
		return
	}
	rep.committed(p)
}

// commitSource replaces one source's KUs and calls every hook, all in one
// write transaction.
func (kb *KB) commitSource(ctx context.Context, p parsed) error {
	return kb.store.Update(func(tx *store.Tx) error { return kb.commitSourceTx(ctx, tx, p) })
}

// commitSourceTx writes one source's record and KUs and calls every hook
// inside tx.
func (kb *KB) commitSourceTx(ctx context.Context, tx *store.Tx, p parsed) error {
	if p.parsedAt.IsZero() {
		p.parsedAt = kb.now()
	}
	var oldIDs []string
	if p.old != nil {
		oldIDs = p.old.UnitIDs
	}
	if err := tx.PutSource(store.SourceWrite{Record: p.sourceRecord(), Encoded: p.record,
		Units: p.doc.Units, EncodedUnits: p.encoded, OldUnitIDs: oldIDs}); err != nil {
		return err
	}
	return kb.runHooks(ctx, tx, upserted(p.sourceID, p.path, p.text, p.doc, oldIDs))
}

// touchSource records a new size/mtime for a file whose content did not change.
func (kb *KB) touchSource(p parsed) error {
	rec := *p.old
	rec.Size, rec.ModTime, rec.Path = p.size, p.modTime, p.path
	return kb.store.Update(func(tx *store.Tx) error { return tx.TouchSource(&rec) })
}

// finish ends a run's deferred syncs (store.Store.DeferSync), joining a
// failure to sync to the run's own error.
func (kb *KB) finish(runErr error) error {
	if err := kb.store.Flush(); err != nil {
		return errors.Join(runErr, err)
	}
	return runErr
}

func (kb *KB) countKUs() (int, error) {
	_, n, err := kb.store.Counts()
	return n, err
}
