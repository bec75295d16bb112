package ingest

import (
	"context"
	"errors"
	"fmt"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/store"
)

// SourceHook is told about every committed source. kb-plugins are adapted to
// this interface so each keeps its private index in its own namespace.
type SourceHook interface {
	// HookID names the hook's private namespace (the plugin id).
	HookID() string
	// OnSource indexes or un-indexes one source. It is called inside the
	// write transaction that commits (or removes) the source, with ev.KV
	// the hook's namespace and ev.KUs the committed KUs in that same
	// transaction, so the hook's index changes land with the source's KUs
	// or not at all. An error aborts that source's transaction; the source
	// is reported as failed and retried on the next ingest.
	OnSource(ctx context.Context, ev *plugin.SourceText) error
}

// HookVersioner is implemented by hooks whose index format can change; a
// new version makes the ingest rebuild that hook's index from stored KUs.
type HookVersioner interface {
	HookVersion() string
}

func hookVersion(h SourceHook) string {
	if v, ok := h.(HookVersioner); ok {
		return v.HookVersion()
	}
	return "1"
}

// hookError marks a failure inside a SourceHook.
type hookError struct {
	hook string
	err  error
}

func (e *hookError) Error() string { return fmt.Sprintf("index %s: %v", e.hook, e.err) }
func (e *hookError) Unwrap() error { return e.err }

// upserted is the event of a source committed with doc.
func upserted(sourceID, path string, text []byte, doc *kus.Document, oldIDs []string) *plugin.SourceText {
	return &plugin.SourceText{HookType: plugin.HookSourceText, SourceID: sourceID, Path: path, Text: text, Doc: doc, OldUnitIDs: oldIDs}
}

// runHooks tells every hook about ev inside tx, the source's transaction.
func (kb *KB) runHooks(ctx context.Context, tx *store.Tx, ev *plugin.SourceText) error {
	ev.KUs = tx
	for _, h := range kb.hooks {
		if kb.hooksRun.isDisabled(h.HookID()) {
			continue // its index is marked stale and rebuilt on the next ingest
		}
		kv, err := tx.PluginKV(h.HookID())
		if err != nil {
			return err
		}
		ev.KV = kv
		if err := kb.callHook(ctx, h, ev); err != nil {
			return &hookError{hook: h.HookID(), err: err}
		}
	}
	ev.KV = nil
	return nil
}

// prepare lets every hook that implements plugin.SourcePreparer work on a
// parsed document, before its OnSource.
func (kb *KB) prepare(sourceID string, doc *kus.Document) {
	for _, h := range kb.hooks {
		if sp, ok := h.(plugin.SourcePreparer); ok {
			func() {
				defer func() { _ = recover() }() // OnSource reports the problem in its transaction
				sp.PrepareSource(sourceID, doc)
			}()
		}
	}
}

// backfillHooks rebuilds the index of every hook that is new to this file
// or whose version changed, from the KUs already stored.
func (kb *KB) backfillHooks(ctx context.Context) error {
	for _, h := range kb.hooks {
		var current string
		if err := kb.store.View(func(tx *store.Tx) error {
			current = tx.HookVersion(h.HookID())
			return nil
		}); err != nil {
			return err
		}
		if current == hookVersion(h) {
			continue
		}
		if err := kb.rebuildHook(ctx, h.HookID()); err != nil {
			return err
		}
	}
	return nil
}

// RepairHook rebuilds one hook's private index from the stored KUs, waiting
// for any ingest in progress; used when a plugin reports its index corrupt.
//
// A rebuild starts the plugin's index over from the stored KUs: an index
// the rebuild itself still finds corrupt lies in pages that starting over
// does not reach (a damaged page of a shared index whose keys a clear no
// longer finds), so the file is damaged and the error is kb_corrupt, with
// the hint to rebuild it; so is a plugin's own report of a damaged file.
func (kb *KB) RepairHook(ctx context.Context, id string) error {
	kb.ingestMu.Lock()
	defer kb.ingestMu.Unlock()
	hr := kb.beginHookRun()
	defer kb.endHookRun(hr, nil)
	err := kb.rebuildHook(ctx, id)
	if err != nil && (plugin.IsIndexCorrupt(err) || reportsKBCorrupt(err)) && !errors.Is(err, store.ErrCorrupt) {
		return &store.Error{Code: store.CodeCorrupt, Path: kb.store.Path(), Err: err}
	}
	return err
}

// reportsKBCorrupt reports whether err is, or carries, a plugin's report
// that the knowledge base file is damaged (plugin.CodeKBCorrupt).
func reportsKBCorrupt(err error) bool {
	var pe *plugin.Error
	return errors.Is(err, plugin.ErrKBCorrupt) || errors.As(err, &pe) && pe.Code == plugin.CodeKBCorrupt
}

// rebuildHook drops one hook's private index and rebuilds it from the
// stored KUs, one transaction per source (used for new hooks and for a
// corrupt plugin bucket). The caller holds the ingest lock (RepairHook
// takes it).
func (kb *KB) rebuildHook(ctx context.Context, id string) error {
	var hook SourceHook
	for _, h := range kb.hooks {
		if h.HookID() == id {
			hook = h
		}
	}
	if hook == nil {
		return fmt.Errorf("rebuild index: no hook %q", id)
	}
	if err := kb.store.Update(func(tx *store.Tx) error {
		if err := tx.DropPluginKV(id); err != nil {
			return err
		}
		return tx.ForgetHookVersion(id)
	}); err != nil {
		return fmt.Errorf("rebuild index %s: %w", id, err)
	}
	recs, err := kb.store.Sources()
	if err != nil {
		return err
	}
	if len(recs) > 1 {
		kb.store.DeferSync()
	}
	for _, rec := range recs {
		if err := ctx.Err(); err != nil {
			return kb.finish(err)
		}
		err := kb.store.Update(func(tx *store.Tx) error {
			doc := &kus.Document{Source: kus.SourceInfo{SourceID: rec.SourceID}, Title: rec.Title}
			for _, uid := range rec.UnitIDs {
				u, err := tx.KU(uid)
				if err != nil {
					return err
				}
				if u != nil {
					doc.Units = append(doc.Units, u)
				}
			}
			kv, err := tx.PluginKV(id)
			if err != nil {
				return err
			}
			ev := upserted(rec.SourceID, rec.Path, kb.sourceText(rec), doc, nil)
			ev.KV, ev.KUs = kv, tx
			if kb.hooksRun.isDisabled(id) {
				return &hookError{hook: id, err: errors.New("disabled after repeated timeouts; the rebuild resumes on the next ingest")}
			}
			if err := kb.callHook(ctx, hook, ev); err != nil {
				return &hookError{hook: id, err: err}
			}
			return nil
		})
		if err != nil {
			return kb.finish(fmt.Errorf("rebuild index %s: source %s: %w", id, rec.SourceID, err))
		}
	}
	if err := kb.finish(nil); err != nil {
		return err
	}
	return kb.store.Update(func(tx *store.Tx) error { return tx.SetHookVersion(id, hookVersion(hook)) })
}
