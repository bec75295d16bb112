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
// runs fn again, returning what the second run returns. A failed rebuild
// is returned as a *RepairError.
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
	return fn()
}

// RepairError is Do's error when rebuilding the index failed.
type RepairError struct {
	Plugin string
	Err    error
}

func (e *RepairError) Error() string {
	return fmt.Sprintf("%s: %s: rebuilding the index failed: %v", e.Plugin, plugin.CodeIndexCorrupt, e.Err)
}

func (e *RepairError) Unwrap() error { return e.Err }

// Reported is the error a plugin call reported in its result rather than
// returned: e when status is plugin.StatusError and e is set, else nil. It
// lets Do see a Retrieve result's index_corrupt report.
func Reported(status plugin.Status, e *plugin.Error) error {
	if status != plugin.StatusError || e == nil {
		return nil
	}
	return e
}
