package ireval

import (
	"fmt"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/retrieval/bm25"
	"github.com/mrpvm/mrpvm/retrieval/hdc"
	"github.com/mrpvm/mrpvm/retrieval/thinkingdb"
)

// Method is one retrieval method under evaluation.
type Method interface {
	// Name names the method (and its bbolt namespace).
	Name() string
	// Index indexes or re-indexes one source inside a write transaction.
	Index(kv plugin.KV, sourceID string, units []*kus.KU) error
	// Search returns source ids, best first (a source scores as its best KU).
	Search(kv plugin.KV, query string, k int) ([]string, error)
}

// Prepared is a dataset read into KUs.
type Prepared struct {
	DS    *Dataset
	Units [][]*kus.KU // by document
	Bytes int64       // Markdown bytes of the corpus
	Parse time.Duration
}

// Prepare reads every document into KUs, in parallel.
func Prepare(ds *Dataset) (*Prepared, error) {
	p := &Prepared{DS: ds, Units: make([][]*kus.KU, len(ds.Docs))}
	t0 := time.Now()
	var wg sync.WaitGroup
	errs := make([]error, runtime.GOMAXPROCS(0))
	for w := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(ds.Docs); i += len(errs) {
				u, err := Units(ds.Docs[i])
				if err != nil {
					errs[w] = err
					return
				}
				p.Units[i] = u
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	p.Parse = time.Since(t0)
	for _, d := range ds.Docs {
		p.Bytes += int64(len(Markdown(d)))
	}
	return p, nil
}

// Build indexes every document with m, one write transaction per source
// (as the engine's ingest commits them), with fsync deferred to the end.
func Build(db *DB, m Method, p *Prepared) (time.Duration, error) {
	st := db.Store(m.Name())
	if err := db.SetNoSync(true); err != nil {
		return 0, err
	}
	t0 := time.Now()
	for i, d := range p.DS.Docs {
		err := st.Update(func(kv plugin.KV) error { return m.Index(kv, SourceID(d.ID), p.Units[i]) })
		if err != nil {
			return 0, fmt.Errorf("ireval: index %s with %s: %w", d.ID, m.Name(), err)
		}
	}
	if err := db.SetNoSync(false); err != nil {
		return 0, err
	}
	return time.Since(t0), nil
}

// Run answers every query with m, each in its own read transaction, and
// returns the run (document ids) and the per-query latencies, sorted.
func Run(db *DB, m Method, queries []Query, k int) (map[string][]string, []time.Duration, error) {
	st := db.Store(m.Name())
	run := make(map[string][]string, len(queries))
	lat := make([]time.Duration, 0, len(queries))
	for _, q := range queries {
		t0 := time.Now()
		var srcs []string
		err := st.View(func(kv plugin.KV) error {
			var err error
			srcs, err = m.Search(kv, q.Text, k)
			return err
		})
		if err != nil {
			return nil, nil, fmt.Errorf("ireval: query %s with %s: %w", q.ID, m.Name(), err)
		}
		lat = append(lat, time.Since(t0))
		run[q.ID] = mapStrings(srcs, DocID)
	}
	slices.Sort(lat)
	return run, lat, nil
}

// BM25 evaluates a bm25.Index.
type BM25 struct {
	X   *bm25.Index
	Tag string
}

// Name returns the method's name.
func (b *BM25) Name() string { return tagOr(b.Tag, "bm25") }

// Index indexes one source.
func (b *BM25) Index(kv plugin.KV, sourceID string, units []*kus.KU) error {
	return b.X.IndexSource(kv, sourceID, units, nil)
}

// Search returns the best sources.
func (b *BM25) Search(kv plugin.KV, query string, k int) ([]string, error) {
	r, err := b.X.SearchQuery(kv, bm25.Query{Text: query, K: k, OnePerSource: true})
	if err != nil {
		return nil, err
	}
	return mapStrings(r.Hits, func(h bm25.Hit) string { return h.SourceID }), nil
}

// Balanced evaluates BM25 candidates reranked by an hdc.Index.
type Balanced struct {
	B     *bm25.Index
	H     *hdc.Index
	Depth int // BM25 candidates (units) to rerank; 300 when 0
	Tag   string
}

// Name returns the method's name.
func (b *Balanced) Name() string { return tagOr(b.Tag, "balanced") }

// Index indexes one source in both indexes.
func (b *Balanced) Index(kv plugin.KV, sourceID string, units []*kus.KU) error {
	return indexWithBM25(kv, sourceID, units, b.B, b.H.IndexSource)
}

// Search returns the best sources.
func (b *Balanced) Search(kv plugin.KV, query string, k int) ([]string, error) {
	r, err := bm25Candidates(kv, b.B, query, b.Depth, k)
	if err != nil {
		return nil, err
	}
	ranked, err := b.H.Rerank(kv, hdc.Query{Text: query, Terms: r.Terms, IDF: r.IDF, K: k, OnePerSource: true}, r.Hits)
	if err != nil {
		return nil, err
	}
	return mapStrings(ranked, func(h hdc.Ranked) string { return h.SourceID }), nil
}

// ThinkingDB evaluates BM25 fused with the proofs of a thinkingdb.Index.
type ThinkingDB struct {
	B     *bm25.Index
	T     *thinkingdb.Index
	Depth int // BM25 candidates (units); 300 when 0
	Tag   string
}

// Name returns the method's name.
func (m *ThinkingDB) Name() string { return tagOr(m.Tag, "thinkingdb") }

// Index indexes one source in both indexes.
func (m *ThinkingDB) Index(kv plugin.KV, sourceID string, units []*kus.KU) error {
	return indexWithBM25(kv, sourceID, units, m.B, m.T.IndexSource)
}

// Search returns the best sources.
func (m *ThinkingDB) Search(kv plugin.KV, query string, k int) ([]string, error) {
	r, err := bm25Candidates(kv, m.B, query, m.Depth, k)
	if err != nil {
		return nil, err
	}
	reasoning, err := m.T.Reason(kv, thinkingdb.Query{Text: query, Terms: r.Terms, IDF: r.IDF})
	if err != nil {
		return nil, err
	}
	ranked := m.T.Fuse(r.Hits, reasoning, k, true)
	return mapStrings(ranked, func(h thinkingdb.Ranked) string { return h.SourceID }), nil
}

// BuildAll indexes every document with all methods, one write transaction
// per source covering every method's namespace (as the engine calls all
// kb-plugin hooks in the source's transaction), fsync deferred to the end.
func BuildAll(db *DB, ms []Method, p *Prepared) (time.Duration, error) {
	names := methodNames(ms)
	if err := db.SetNoSync(true); err != nil {
		return 0, err
	}
	t0 := time.Now()
	for i, d := range p.DS.Docs {
		err := db.UpdateAll(names, indexAll(ms, SourceID(d.ID), p.Units[i]))
		if err != nil {
			return 0, fmt.Errorf("ireval: index %s: %w", d.ID, err)
		}
	}
	if err := db.SetNoSync(false); err != nil {
		return 0, err
	}
	return time.Since(t0), nil
}

// Reindex re-indexes changed documents one at a time with all methods, each
// in its own durable (fsynced) transaction, and returns the latencies,
// sorted: the cost of saving one file.
func Reindex(db *DB, ms []Method, docs []Doc) ([]time.Duration, error) {
	names := methodNames(ms)
	lat := make([]time.Duration, 0, len(docs))
	for _, d := range docs {
		t0 := time.Now()
		units, err := Units(d)
		if err != nil {
			return nil, err
		}
		err = db.UpdateAll(names, indexAll(ms, SourceID(d.ID), units))
		if err != nil {
			return nil, fmt.Errorf("ireval: reindex %s: %w", d.ID, err)
		}
		lat = append(lat, time.Since(t0))
	}
	slices.Sort(lat)
	return lat, nil
}

// Copies returns the dataset with its corpus repeated n times (copy i > 0
// renames every document id with the suffix "-c<i>"), for scaling runs.
func Copies(ds *Dataset, n int) *Dataset {
	out := &Dataset{Queries: ds.Queries, Qrels: ds.Qrels}
	for c := 0; c < n; c++ {
		for _, d := range ds.Docs {
			if c > 0 {
				d.ID = fmt.Sprintf("%s-c%d", d.ID, c)
			}
			out.Docs = append(out.Docs, d)
		}
	}
	return out
}

// Preparer is a method that can do the CPU-bound half of indexing a source
// (analysis, encoding, extraction) outside the write transaction.
type Preparer interface {
	Prepare(sourceID string, units []*kus.KU)
}

// Prepare runs the BM25 analysis ahead of Index.
func (b *BM25) Prepare(_ string, units []*kus.KU) { b.X.Prepare(units) }

// Prepare runs the analysis and encoding ahead of Index.
func (b *Balanced) Prepare(_ string, units []*kus.KU) {
	b.B.Prepare(units)
	b.H.Prepare(units)
}

// Prepare runs the analysis and extraction ahead of Index.
func (m *ThinkingDB) Prepare(sourceID string, units []*kus.KU) {
	m.B.Prepare(units)
	m.T.Prepare(sourceID, units)
}

// BuildAllPrepared is BuildAll with the methods' Prepare run by workers
// goroutines up to 256 documents ahead of the transactions, as an ingest
// could do in its parse workers: the transactions then only write.
func BuildAllPrepared(db *DB, ms []Method, p *Prepared, workers int) (time.Duration, error) {
	names := methodNames(ms)
	if err := db.SetNoSync(true); err != nil {
		return 0, err
	}
	t0 := time.Now()
	done := make([]chan struct{}, len(p.DS.Docs))
	for i := range done {
		done[i] = make(chan struct{})
	}
	jobs := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				for _, m := range ms {
					if pr, ok := m.(Preparer); ok {
						pr.Prepare(SourceID(p.DS.Docs[i].ID), p.Units[i])
					}
				}
				close(done[i])
			}
		}()
	}
	const lookahead = 256
	dispatched := 0
	dispatch := func(upto int) {
		for ; dispatched < min(upto, len(p.DS.Docs)); dispatched++ {
			jobs <- dispatched
		}
	}
	var err error
	for i, d := range p.DS.Docs {
		dispatch(i + lookahead)
		<-done[i]
		err = db.UpdateAll(names, indexAll(ms, SourceID(d.ID), p.Units[i]))
		if err != nil {
			err = fmt.Errorf("ireval: index %s: %w", d.ID, err)
			break
		}
	}
	close(jobs)
	wg.Wait()
	if err != nil {
		return 0, err
	}
	if err := db.SetNoSync(false); err != nil {
		return 0, err
	}
	return time.Since(t0), nil
}

// tagOr returns tag, or name when tag is empty.
func tagOr(tag, name string) string {
	if tag != "" {
		return tag
	}
	return name
}

// indexWithBM25 indexes a source in a BM25 index, then with also (the
// index reranking or fusing its candidates).
func indexWithBM25(kv plugin.KV, sourceID string, units []*kus.KU, b *bm25.Index,
	also func(plugin.KV, string, []*kus.KU, []string) error) error {
	if err := b.IndexSource(kv, sourceID, units, nil); err != nil {
		return err
	}
	return also(kv, sourceID, units, nil)
}

// bm25Candidates returns the best depth units by BM25 (300 when depth is
// not positive, at least k) for a method to rerank or fuse.
func bm25Candidates(kv plugin.KV, b *bm25.Index, query string, depth, k int) (*bm25.Result, error) {
	if depth <= 0 {
		depth = 300
	}
	return b.SearchQuery(kv, bm25.Query{Text: query, K: max(depth, k)})
}

// mapStrings returns f of each element of xs, in order.
func mapStrings[T any](xs []T, f func(T) string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}

// methodNames returns the methods' names (their namespaces).
func methodNames(ms []Method) []string {
	names := make([]string, len(ms))
	for i, m := range ms {
		names[i] = m.Name()
	}
	return names
}

// indexAll returns the transaction body indexing one source with every
// method, kvs[j] being method j's namespace.
func indexAll(ms []Method, sourceID string, units []*kus.KU) func(kvs []plugin.KV) error {
	return func(kvs []plugin.KV) error {
		for j, m := range ms {
			if err := m.Index(kvs[j], sourceID, units); err != nil {
				return fmt.Errorf("%s: %w", m.Name(), err)
			}
		}
		return nil
	}
}
