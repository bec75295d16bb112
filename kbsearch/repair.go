package kbsearch

import (
	"context"
	"fmt"
	"time"

	"github.com/mrpvm/mrpvm/plugin"
)

// Repairer rebuilds one kb-plugin's private index from the stored KUs
// (ingest.KB.RepairHook).
type Repairer interface {
	RepairHook(ctx context.Context, id string) error
}

// Repair is the one rule every search of a kb-plugin follows when the
// plugin reports its index corrupt: rebuild the index from the stored KUs
// and ask once more. It repairs at most once in its life, so a plugin
// that keeps reporting its index corrupt is asked twice, not forever.
// mrpvm search, the MCP and editor search commands, the VM's kb stage and
// hover all go through it. A Repair is not for concurrent use.
type Repair struct {
	// Index rebuilds the plugin's index; nil: a corrupt index is
	// reported as it is, never rebuilt.
	Index Repairer
	// Plugin is the id of the kb-plugin whose index is rebuilt.
	Plugin string
	// Started, when set, is told a rebuild starts, with the report that
	// caused it.
	Started func(cause error)
	// Ended, when set, is told the rebuild ended, how long it took and
	// why it failed (nil when it succeeded).
	Ended func(took time.Duration, err error)

	repaired bool
}

// Do runs fn and, when fn's error says the plugin's index is corrupt
// (plugin.IsIndexCorrupt) and r has not repaired yet, rebuilds the index and
// runs fn again, returning what the second run returns. A failed rebuild,
// and a second run that still reports the index corrupt, are returned as a
// *RepairError.
func (r *Repair) Do(ctx context.Context, fn func() error) error {
	err := fn()
	if err == nil || !plugin.IsIndexCorrupt(err) || r.repaired || r.Index == nil {
		return err
	}
	r.repaired = true
	if r.Started != nil {
		r.Started(err)
	}
	t0 := time.Now()
	err = r.Index.RepairHook(ctx, r.Plugin)
	if r.Ended != nil {
		r.Ended(time.Since(t0), err)
	}
	if err != nil {
		return &RepairError{Plugin: r.Plugin, Err: err}
	}
	err = fn()
	if err != nil && plugin.IsIndexCorrupt(err) {
		// Rebuilt from the stored KUs and still corrupt: the damage lies
		// where starting the index over does not reach.
		return &RepairError{Plugin: r.Plugin, Err: err, Rebuilt: true}
	}
	return err
}

// RepairError is Do's error when rebuilding the index failed, or when the
// rebuilt index is still reported corrupt (Rebuilt). The latter is a
// damaged knowledge base file: it matches plugin.ErrKBCorrupt, and its
// message says how to rebuild the file.
type RepairError struct {
	Plugin  string
	Err     error
	Rebuilt bool
}

func (e *RepairError) Error() string {
	if e.Rebuilt {
		return fmt.Sprintf("%s: %s: the index is still corrupt after it was rebuilt from the stored KUs (%v): the knowledge base file is damaged; run `mrpvm ingest --rebuild` to move it aside and rebuild it from the workspace",
			plugin.CodeKBCorrupt, e.Plugin, e.Err)
	}
	return fmt.Sprintf("%s: %s: rebuilding the index failed: %v", e.Plugin, plugin.CodeIndexCorrupt, e.Err)
}

func (e *RepairError) Unwrap() error { return e.Err }

// Is matches plugin.ErrKBCorrupt when the rebuilt index is still corrupt.
func (e *RepairError) Is(target error) bool { return e.Rebuilt && target == plugin.ErrKBCorrupt }

// Reported is the error a plugin call reported in its result rather than
// returned: e when status is plugin.StatusError and e is set, else nil. It
// lets Do see a Retrieve result's index_corrupt report.
func Reported(status plugin.Status, e *plugin.Error) error {
	if status != plugin.StatusError || e == nil {
		return nil
	}
	return e
}
