package plugin

import (
	"context"

	"github.com/mrpvm/mrpvm/kus"
)

// The optional interfaces of the plugin contract. A plugin (or a value the
// core hands to plugins) implements one to offer more than its family
// interface; callers find it by type assertion and do without it when it
// is missing. Each is declared here and nowhere else.

// Closer is implemented by plugins holding resources; the catalog calls it
// on shutdown.
type Closer interface {
	Close() error
}

// IndexVersioner is implemented by kb-plugins whose private index format can
// change: when the version differs from the one the index was built with,
// the core drops the plugin's namespace and replays OnSourceText for every
// stored source.
type IndexVersioner interface {
	IndexVersion() string
}

// Searcher is implemented by kb-plugins that rank their index for a free
// text query outside the VM loop (mrpvm search, the editors' search
// command, the benchmarks). A search returns an error wrapping an *Error
// with code CodeIndexCorrupt when the plugin's private index cannot be
// read; the caller rebuilds it from the stored KUs and asks again.
type Searcher interface {
	Search(ctx context.Context, req SearchRequest) (*SearchResult, error)
}

// Warmer is implemented by kb-plugins whose searches read in-memory state
// built from the persistent index on first use (unit tables, fact graphs).
// Warm builds it ahead of the first query, so that a server answers its
// first question as fast as the next, and a batch times its queries rather
// than opening the index. It is safe to call at any time and cheap when the
// state is current; an index that cannot be read is reported like Search
// reports it.
type Warmer interface {
	Warm(ctx context.Context) error
}

// TermCounter is implemented by kb-plugins that can say how common a term
// is in the knowledge base: how many sources hold term (analysed as
// sdk/text analyses it: lower-cased, stemmed) out of how many sources. The
// core builds the run context's Corpus on it.
type TermCounter interface {
	TermFreq(ctx context.Context, term string) (holding, sources int, err error)
}

// SourcePreparer is implemented by kb-plugins (and the core's source hooks
// that carry them) that can do the CPU-bound part of indexing a parsed
// source (analysis, encoding) outside its transaction. PrepareSource runs
// on the ingest's parse workers, concurrently for different sources,
// before OnSourceText for the same document; it must not write anything,
// and indexing must give the same result whether it ran or not.
type SourcePreparer interface {
	PrepareSource(sourceID string, doc *kus.Document)
}

// SharedNamespacer is implemented by the KV namespaces the core hands to
// kb-plugins inside a transaction: Shared opens a namespace of that
// transaction which every kb-plugin reaches by the same name, so that
// plugins built on one retrieval engine keep one copy of an index they
// share.
type SharedNamespacer interface {
	Shared(name string) (KV, error)
}

// SharedStater is implemented by the plugin stores the core hands to
// kb-plugins: SharedState returns the value kept under name for the
// store's whole knowledge base, made by mk on first use, the same value
// for every plugin asking by that name (an in-memory index that the
// shared namespace's plugins share).
type SharedStater interface {
	SharedState(name string, mk func() any) any
}
