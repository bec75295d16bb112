package ingest

import (
	"context"

	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/store"
)

// removeAll removes the sources whose file went away, each in its own
// transaction; a failure is reported and the others go on.
func (kb *KB) removeAll(ctx context.Context, recs []*store.SourceRecord, rep *Report, step func(string)) error {
	for _, rec := range recs {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := kb.removeSource(ctx, rec); err != nil {
			rep.Errors = append(rep.Errors, FileError{Path: displayPath(rec), Code: CodeCommit, Message: err.Error()})
		} else {
			rep.Removed++
		}
		step(rec.SourceID)
	}
	return nil
}

// removeSource deletes a source, its KUs and its entries in every hook's index.
func (kb *KB) removeSource(ctx context.Context, rec *store.SourceRecord) error {
	return kb.store.Update(func(tx *store.Tx) error {
		if err := tx.RemoveSource(rec); err != nil {
			return err
		}
		return kb.runHooks(ctx, tx, &plugin.SourceText{HookType: plugin.HookSourceText, SourceID: rec.SourceID, Path: rec.Path,
			OldUnitIDs: rec.UnitIDs, Removed: true})
	})
}
