// Package engine is the VM core: the bbolt store, the ingest pipeline,
// sessions, execution frames, budgets, the stage runner and the trace.
package engine

import (
	"context"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugins/sdk"
)

// SourceEventKind says what happened to a source.
type SourceEventKind string

// Source event kinds.
const (
	SourceUpserted SourceEventKind = "upsert"
	SourceRemoved  SourceEventKind = "remove"
)

// SourceEvent is handed to every SourceHook inside the write transaction that
// commits (or removes) one source, so a hook's index changes are atomic with
// the source's KUs: either all of them land or none does.
type SourceEvent struct {
	Kind       SourceEventKind
	SourceID   string
	Path       string        // absolute file path; empty for built-in sources such as plugin::<id>
	Text       []byte        // the raw source text (nil on remove)
	Doc        *kus.Document // the KU hierarchy (nil on remove)
	OldUnitIDs []string      // ids of the KUs the source had before this event
	KV         sdk.KV        // the hook's private namespace, inside the source's transaction
	KUs        KUReader      // committed KUs, read inside the same transaction
}

// KUReader reads KUs from the knowledge base.
type KUReader interface {
	// KU returns the unit with the given id, or nil.
	KU(id string) (*kus.KU, error)
}

// SourceHook is told about every committed source. kb-plugins are adapted to
// this interface so each keeps its private index in its own namespace.
type SourceHook interface {
	// HookID names the hook's private namespace (the plugin id).
	HookID() string
	// OnSource indexes or un-indexes one source. An error aborts that
	// source's transaction; the source is reported as failed and retried on
	// the next ingest.
	OnSource(ctx context.Context, ev *SourceEvent) error
}
