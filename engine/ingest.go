package engine

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	bolt "go.etcd.io/bbolt"

	"github.com/mrpvm/mrpvm/internal/fsafe"
	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugins/sdk"
)

// Ingest issue codes. Warnings skip a file; errors make the run fail.
const (
	CodeTooLarge = fsafe.CodeTooLarge
	// CodeNotRegular skips a source that is a FIFO, device or socket.
	CodeNotRegular = fsafe.CodeNotRegular
	// CodeOutsideRoot skips a symlink resolving outside the workspace.
	CodeOutsideRoot = fsafe.CodeOutsideRoot
	// CodeNameNotUTF8 skips a file or folder whose name is not valid
	// UTF-8: source ids, JSON output and URIs could not name it.
	CodeNameNotUTF8 = "file_name_not_utf8"
	CodeNotUTF8     = "not_utf8"
	CodeBinary      = "binary_file"
	CodeVanished    = "file_vanished"
	CodeReadFailed  = "read_failed"
	CodeParseFailed = "parse_failed"
	CodeHookFailed  = "hook_failed"
	CodeCommit      = "commit_failed"
	// CodeCompact is a warning: the knowledge base stays as it was, only
	// less compact (IngestOptions.Compact).
	CodeCompact = "compact_failed"
)

// DefaultMaxFileSize is the size cap above which a file is skipped.
const DefaultMaxFileSize = fsafe.MaxSourceBytes

// FileError is one problem met while ingesting.
type FileError struct {
	Path    string `json:"path"`
	Code    string `json:"code"`
	Message string `json:"message"`
	// Warning marks a skipped file that does not make the run fail.
	Warning bool `json:"-"`
}

func (e FileError) Error() string { return fmt.Sprintf("%s: %s: %s", e.Path, e.Code, e.Message) }

// IngestReport summarises one ingest run.
type IngestReport struct {
	Files     int `json:"files"`     // workspace files (re)ingested this run
	Unchanged int `json:"unchanged"` // workspace files found unchanged
	// PluginSources counts built-in sources (plugin::<id>) re-ingested
	// because a plugin's KUs changed; unchanged ones are not counted.
	PluginSources int         `json:"pluginSources"`
	Removed       int         `json:"removed"` // sources removed with their KUs
	KUs           int         `json:"kus"`     // total KUs in the knowledge base
	Errors        []FileError `json:"errors"`
	// Warnings are the problems the reader found in the files parsed in
	// this run (a Context Unit block with a bad role, say): the files were
	// ingested, as well as they could be read.
	Warnings []FileWarning `json:"warnings"`
	Seconds  float64       `json:"seconds"`
}

// Failed reports whether any issue was an error rather than a skipped file.
func (r *IngestReport) Failed() bool {
	for _, e := range r.Errors {
		if !e.Warning {
			return true
		}
	}
	return false
}

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

// IngestOptions tune one ingest run.
type IngestOptions struct {
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

// work is one source to read, parse and commit.
type work struct {
	sourceID string
	path     string
	size     int64
	modTime  int64
	text     []byte        // set for virtual sources
	doc      *kus.Document // set for virtual sources read by a plugin
	old      *SourceRecord
}

// parsed is a work item after reading and parsing.
type parsed struct {
	work
	text  []byte
	hash  string
	doc   *kus.Document
	touch bool // same content: only size/mtime change
	issue *FileError
	// encoded holds the stored form of each of doc.Units, made on the
	// parse workers so the write transaction only copies bytes.
	encoded [][]byte
	// record is the source record (JSON) made on the parse workers, with
	// unitIDs in document order.
	record   []byte
	unitIDs  []string
	parsedAt time.Time
}

// Ingest brings the knowledge base up to date with the workspace: new and
// changed files are parsed in parallel and committed one transaction per
// source; unchanged files are skipped; deleted files are removed.
func (kb *KB) Ingest(ctx context.Context, opt IngestOptions) (*IngestReport, error) {
	kb.ingestMu.Lock()
	defer kb.ingestMu.Unlock()
	start := time.Now()
	rep := &IngestReport{Errors: []FileError{}, Warnings: []FileWarning{}}
	hr := kb.beginHookRun()
	defer kb.endHookRun(hr, rep)
	if err := kb.backfillHooks(ctx); err != nil {
		return nil, err
	}
	// The check reads each source's (size, mtime) from the small stat
	// bucket; the full record is read only for sources that changed or went
	// away. Decoding every record would touch (and, through the kernel's
	// fault-around, map) most of a large file before any work is done.
	full := len(opt.Only) == 0
	var records map[string]*SourceRecord
	var stats []statEntry // sorted by source id
	var err error
	if full {
		stats, err = kb.store.fileStatList()
		records = map[string]*SourceRecord{}
	} else {
		records, err = kb.onlyRecords(opt.Only) // a saved file need not decode every record
	}
	if err != nil {
		return nil, err
	}
	// A knowledge base with no source at all (a cold ingest) needs no
	// record look-ups and no stat of the files during the walk.
	cold := false
	if full && len(stats) == 0 {
		n, _, err := kb.store.Counts()
		if err != nil {
			return nil, err
		}
		cold = n == 0
	}
	record := func(id string) (*SourceRecord, error) {
		if rec, ok := records[id]; ok || !full || cold {
			return rec, nil
		}
		rec, err := kb.store.Source(id)
		if err != nil {
			return nil, fmt.Errorf("read source %s: %w", id, err)
		}
		records[id] = rec
		return rec, nil
	}
	var cands []candidate // sorted by source id
	if full {
		var issues []FileError
		cands, issues, err = walkWorkspaceOpts(kb.workspace, cold, len(stats), kb.walk)
		if err != nil {
			return nil, err
		}
		rep.Errors = append(rep.Errors, issues...)
	} else {
		cands = kb.onlyCandidates(opt.Only, records, rep)
	}

	// Both lists are sorted by source id: one merge pass pairs each file
	// with its stored stat and finds the stats no file has any more.
	var jobs []work
	var gone []string // stored sources with no file, in id order
	si := 0
	for _, c := range cands {
		for si < len(stats) && stats[si].id < c.sourceID {
			gone = append(gone, stats[si].id)
			si++
		}
		if si < len(stats) && stats[si].id == c.sourceID {
			st := stats[si].fileStat
			si++
			if st.size == c.size && st.modTime == c.modTime {
				rep.Unchanged++
				continue
			}
		}
		old, err := record(c.sourceID)
		if err != nil {
			return nil, err
		}
		if old != nil && old.Size == c.size && old.ModTime == c.modTime {
			rep.Unchanged++
			continue
		}
		jobs = append(jobs, work{sourceID: c.sourceID, path: c.path, size: c.size, modTime: c.modTime, old: old})
	}
	for ; si < len(stats); si++ {
		gone = append(gone, stats[si].id)
	}
	var removals []*SourceRecord
	if full {
		virtual := make(map[string]bool, len(kb.virtual))
		for _, v := range kb.virtual {
			virtual[v.ID] = true
			old, err := record(v.ID)
			if err != nil {
				return nil, err
			}
			if old != nil && old.Hash == hashText(v.Text) {
				continue
			}
			jobs = append(jobs, work{sourceID: v.ID, size: int64(len(v.Text)), text: v.Text, doc: v.Doc, old: old})
		}
		for _, id := range gone {
			if virtual[id] {
				continue
			}
			rec, err := record(id)
			if err != nil {
				return nil, err
			}
			if rec != nil {
				removals = append(removals, rec)
			}
		}
	}

	total := len(jobs) + len(removals)
	done := 0
	if len(jobs) > 1 {
		kb.store.db.NoSync = true // one fsync at the end instead of one per source
	}
	if len(jobs) >= bulkJobs {
		defer bulkGC()()
	}
	if opt.Planned != nil {
		files := len(removals)
		for _, j := range jobs {
			if j.path != "" {
				files++
			}
		}
		opt.Planned(total, files)
	}
	for _, rec := range removals {
		if err := ctx.Err(); err != nil {
			return nil, kb.finish(err)
		}
		if err := kb.removeSource(ctx, rec); err != nil {
			rep.Errors = append(rep.Errors, FileError{Path: displayPath(rec), Code: CodeCommit, Message: err.Error()})
		} else {
			rep.Removed++
		}
		done++
		kb.report(opt.Progress, done, total, rec.SourceID)
	}
	step := func(id string) {
		done++
		kb.report(opt.Progress, done, total, id)
	}
	first, rest := splitFirst(jobs, opt.First)
	err = kb.parseAndCommit(ctx, first, rep, step)
	if err == nil {
		err = kb.parseAndCommit(ctx, rest, rep, step)
	}
	if err := kb.finish(err); err != nil {
		return nil, err
	}
	if opt.Compact {
		if err := kb.store.compact(); err != nil {
			if kb.store.db == nil {
				return nil, err // the file could not be opened again
			}
			rep.Errors = append(rep.Errors, FileError{Path: kb.store.path, Code: CodeCompact, Message: err.Error(), Warning: true})
		}
	}
	if rep.KUs, err = kb.countKUs(); err != nil {
		return nil, err
	}
	rep.Seconds = time.Since(start).Seconds()
	return rep, nil
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

// bulkJobs is the number of sources from which an ingest counts as bulk
// (a cold ingest, a branch switch) and trades memory for less GC work.
const bulkJobs = 256

// Garbage collector settings of a bulk ingest. A cold ingest allocates
// many short-lived bytes per byte of Markdown (analysis, encoding, bbolt
// nodes), so a higher GOGC trades heap for less collector CPU, and the
// soft memory limit keeps that heap from growing with the workspace. Both
// are left alone when the user set GOGC or GOMEMLIMIT. The figures behind
// the values are in docs/performance.md (Ingest tuning).
const (
	bulkGCPercent   = 300
	bulkMemoryLimit = 256 << 20
)

// bulkGC applies the bulk ingest's GC settings and returns the function
// that restores the previous ones. The settings are process-wide (a
// language server answering queries while it ingests shares them), so
// concurrent bulk ingests of several knowledge bases apply them once and
// the last one to finish restores them.
func bulkGC() (restore func()) {
	bulk.Lock()
	defer bulk.Unlock()
	if bulk.active == 0 {
		bulk.percent, bulk.limit = -1, -1
		if os.Getenv("GOGC") == "" {
			bulk.percent = debug.SetGCPercent(bulkGCPercent)
		}
		if os.Getenv("GOMEMLIMIT") == "" && debug.SetMemoryLimit(-1) == math.MaxInt64 {
			bulk.limit = debug.SetMemoryLimit(bulkMemoryLimit)
		}
	}
	bulk.active++
	return func() {
		bulk.Lock()
		defer bulk.Unlock()
		if bulk.active--; bulk.active > 0 {
			return
		}
		if bulk.percent != -1 {
			debug.SetGCPercent(bulk.percent)
		}
		if bulk.limit != -1 {
			debug.SetMemoryLimit(bulk.limit)
		}
	}
}

// bulk is the state bulkGC restores.
var bulk struct {
	sync.Mutex
	active  int
	percent int   // GC percent before, -1: not changed
	limit   int64 // memory limit before, -1: not changed
}

func (kb *KB) report(p Progress, done, total int, id string) {
	if p != nil {
		p(done, total, id)
	}
}

// finish restores durable commits and flushes what NoSync left in the page cache.
func (kb *KB) finish(runErr error) error {
	db := kb.store.db
	if db.NoSync {
		db.NoSync = false
		if err := db.Sync(); err != nil {
			return errors.Join(runErr, fmt.Errorf("sync %s: %w", kb.store.path, err))
		}
	}
	return runErr
}

// onlyRecords loads the source records of the given file paths.
func (kb *KB) onlyRecords(paths []string) (map[string]*SourceRecord, error) {
	m := make(map[string]*SourceRecord, len(paths))
	for _, p := range paths {
		id, err := kb.SourceIDFor(p)
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
func (kb *KB) onlyCandidates(paths []string, records map[string]*SourceRecord, rep *IngestReport) []candidate {
	var out []candidate
	for _, p := range paths {
		id, err := kb.SourceIDFor(p)
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

// parseAndCommit reads and parses jobs on every core and commits each
// source in its own write transaction as soon as it is parsed.
func (kb *KB) parseAndCommit(ctx context.Context, jobs []work, rep *IngestReport, step func(string)) error {
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
	// larger commits write less (SciFact: 32 -> 96 saved 5 % of the CPU).
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
func (kb *KB) commitGroup(ctx context.Context, group []parsed, rep *IngestReport) {
	if len(group) > 1 {
		err := kb.store.update(func(tx *bolt.Tx) error {
			for _, p := range group {
				if err := kb.commitSourceTx(ctx, tx, p); err != nil {
					return err
				}
			}
			return nil
		})
		if err == nil {
			for _, p := range group {
				rep.addWarnings(p)
				if p.path == "" {
					rep.PluginSources++
				} else {
					rep.Files++
				}
			}
			return
		}
	}
	for _, p := range group {
		kb.commitParsed(ctx, p, rep)
	}
}

func (kb *KB) commitParsed(ctx context.Context, p parsed, rep *IngestReport) {
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
	rep.addWarnings(p)
	if p.path == "" {
		rep.PluginSources++
		return
	}
	rep.Files++
}

func (w work) displayPath() string {
	if w.path != "" {
		return w.path
	}
	return w.sourceID
}

func displayPath(rec *SourceRecord) string {
	if rec.Path != "" {
		return rec.Path
	}
	return rec.SourceID
}

// parse reads, checks, hashes and parses one source; the Markdown parse
// stops early when ctx is cancelled (the result is then dropped).
func (kb *KB) parse(ctx context.Context, w work) parsed {
	p := parsed{work: w}
	issue := func(code, msg string, warning bool) parsed {
		p.issue = &FileError{Path: w.displayPath(), Code: code, Message: msg, Warning: warning}
		return p
	}
	text := w.text
	if text == nil && w.size < 0 { // not stat'ed by the walk
		info, err := os.Stat(w.path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return issue(CodeVanished, "deleted before it could be read", true)
		case err != nil:
			return issue(CodeReadFailed, err.Error(), false)
		}
		p.size, p.modTime = info.Size(), info.ModTime().UnixNano()
		w.size = p.size
	}
	if text == nil {
		if w.size > kb.maxFileSize {
			return issue(CodeTooLarge, fmt.Sprintf("%d bytes is over the %d-byte limit; skipped", w.size, kb.maxFileSize), true)
		}
		var err error
		text, err = kb.readFile(w.path, kb.maxFileSize)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return issue(CodeVanished, "deleted before it could be read", true)
		case errors.Is(err, errTooLarge):
			return issue(CodeTooLarge, fmt.Sprintf("grew over the %d-byte limit; skipped", kb.maxFileSize), true)
		case errors.Is(err, fsafe.ErrNotRegular):
			return issue(CodeNotRegular, err.Error()+"; skipped", true)
		case err != nil:
			return issue(CodeReadFailed, err.Error(), false)
		}
	}
	if bytes.IndexByte(text, 0) >= 0 {
		return issue(CodeBinary, "binary content (NUL bytes); skipped", true)
	}
	if !utf8.Valid(text) {
		return issue(CodeNotUTF8, "not valid UTF-8; skipped", true)
	}
	p.text = text
	p.hash = hashText(text)
	if w.old != nil && w.old.Hash == p.hash && w.path != "" {
		p.touch = true
		return p
	}
	p.parsedAt = kb.now()
	if w.doc != nil {
		p.doc = w.doc
		p.encoded = encodeKUs(w.doc.Units)
		p.encodeRecord()
		return p
	}
	info := kus.SourceInfo{
		SourceID:   w.sourceID,
		SourceName: sourceName(w),
		SourceType: kus.SourceMarkdown,
		IngestedAt: p.parsedAt,
	}
	var doc *kus.Document
	var err error
	if kb.reader != nil && w.path != "" {
		doc, err = kb.reader(ctx, info, text)
	} else {
		doc, err = kus.ParseContext(ctx, text, info)
	}
	if err == nil && doc == nil {
		err = errors.New("the reader returned no document")
	}
	if err != nil {
		return issue(CodeParseFailed, err.Error(), true)
	}
	p.doc = doc
	p.encoded = encodeKUs(doc.Units)
	p.encodeRecord()
	kb.prepare(w.sourceID, doc)
	return p
}

// sourceRecord is the record committing p stores; its ingestedAt is the
// time p was parsed (the time its KUs carry).
func (p *parsed) sourceRecord() *SourceRecord {
	rec := &SourceRecord{
		SourceID: p.sourceID, Path: p.path, Size: p.size, ModTime: p.modTime, Hash: p.hash,
		Title: p.doc.Title, IngestedAt: p.parsedAt,
	}
	if p.unitIDs == nil {
		for _, u := range p.doc.Units {
			p.unitIDs = append(p.unitIDs, u.ID)
		}
	}
	rec.UnitIDs = p.unitIDs
	return rec
}

// encodeRecord makes p's source record on a parse worker; the commit
// makes it when this fails.
func (p *parsed) encodeRecord() {
	if v, err := json.Marshal(p.sourceRecord()); err == nil {
		p.record = v
	}
}

// prepare lets every hook that implements sdk.SourcePreparer work on a
// parsed document, before its OnSource.
func (kb *KB) prepare(sourceID string, doc *kus.Document) {
	for _, h := range kb.hooks {
		if sp, ok := h.(sdk.SourcePreparer); ok {
			func() {
				defer func() { _ = recover() }() // OnSource reports the problem in its transaction
				sp.PrepareSource(sourceID, doc)
			}()
		}
	}
}

var errTooLarge = fsafe.ErrTooLarge

// readCapped reads a whole regular file of at most limit bytes; a FIFO,
// device or folder fails with fsafe.ErrNotRegular without being read.
func readCapped(path string, limit int64) ([]byte, error) {
	return fsafe.ReadRegular(path, limit)
}

func sourceName(w work) string {
	if w.path == "" {
		return w.sourceID
	}
	return baseName(w.sourceID)
}

func baseName(id string) string {
	for i := len(id) - 1; i >= 0; i-- {
		if id[i] == '/' {
			return id[i+1:]
		}
	}
	return id
}

func hashText(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// hookError marks a failure inside a SourceHook.
type hookError struct {
	hook string
	err  error
}

func (e *hookError) Error() string { return fmt.Sprintf("index %s: %v", e.hook, e.err) }
func (e *hookError) Unwrap() error { return e.err }

// commitSource replaces one source's KUs and calls every hook, all in one
// write transaction.
func (kb *KB) commitSource(ctx context.Context, p parsed) error {
	return kb.store.update(func(tx *bolt.Tx) error { return kb.commitSourceTx(ctx, tx, p) })
}

// commitSourceTx writes one source's record and KUs and calls every hook
// inside tx.
func (kb *KB) commitSourceTx(ctx context.Context, tx *bolt.Tx, p parsed) error {
	if p.parsedAt.IsZero() {
		p.parsedAt = kb.now()
	}
	rec := p.sourceRecord()
	var oldIDs []string
	if p.old != nil {
		oldIDs = p.old.UnitIDs
	}
	kusB := tx.Bucket(bucketKUs)
	kusB.FillPercent = appendFill
	var c counts
	for _, id := range oldIDs {
		if kusB.Get([]byte(id)) == nil {
			continue
		}
		if err := kusB.Delete([]byte(id)); err != nil {
			return err
		}
		c.units--
	}
	for i, u := range p.doc.Units {
		var v []byte
		if i < len(p.encoded) {
			v = p.encoded[i]
		} else {
			var err error
			if v, err = encodeKU(u); err != nil {
				return err
			}
		}
		if kusB.Get([]byte(u.ID)) == nil {
			c.units++
		}
		if err := kusB.Put([]byte(u.ID), v); err != nil {
			return fmt.Errorf("store ku %s: %w", u.ID, err)
		}
	}
	v := p.record
	if v == nil {
		var err error
		if v, err = json.Marshal(rec); err != nil {
			return err
		}
	}
	srcB := tx.Bucket(bucketSources)
	srcB.FillPercent = appendFill
	if srcB.Get([]byte(p.sourceID)) == nil {
		c.sources++
	}
	if err := srcB.Put([]byte(p.sourceID), v); err != nil {
		return err
	}
	if err := putFileStat(tx, rec); err != nil {
		return err
	}
	if err := addCounts(tx, c); err != nil {
		return err
	}
	return kb.runHooks(ctx, tx, &SourceEvent{
		Kind: SourceUpserted, SourceID: p.sourceID, Path: p.path, Text: p.text, Doc: p.doc, OldUnitIDs: oldIDs,
	})
}

// touchSource records a new size/mtime for a file whose content did not change.
func (kb *KB) touchSource(p parsed) error {
	rec := *p.old
	rec.Size, rec.ModTime, rec.Path = p.size, p.modTime, p.path
	v, err := json.Marshal(&rec)
	if err != nil {
		return err
	}
	return kb.store.update(func(tx *bolt.Tx) error {
		if err := tx.Bucket(bucketSources).Put([]byte(p.sourceID), v); err != nil {
			return err
		}
		return putFileStat(tx, &rec)
	})
}

// removeSource deletes a source, its KUs and its entries in every hook's index.
func (kb *KB) removeSource(ctx context.Context, rec *SourceRecord) error {
	return kb.store.update(func(tx *bolt.Tx) error {
		kusB := tx.Bucket(bucketKUs)
		var c counts
		for _, id := range rec.UnitIDs {
			if kusB.Get([]byte(id)) == nil {
				continue
			}
			if err := kusB.Delete([]byte(id)); err != nil {
				return err
			}
			c.units--
		}
		if tx.Bucket(bucketSources).Get([]byte(rec.SourceID)) != nil {
			if err := tx.Bucket(bucketSources).Delete([]byte(rec.SourceID)); err != nil {
				return err
			}
			c.sources--
		}
		if err := tx.Bucket(bucketStat).Delete([]byte(rec.SourceID)); err != nil {
			return err
		}
		if err := addCounts(tx, c); err != nil {
			return err
		}
		return kb.runHooks(ctx, tx, &SourceEvent{
			Kind: SourceRemoved, SourceID: rec.SourceID, Path: rec.Path, OldUnitIDs: rec.UnitIDs,
		})
	})
}

func (kb *KB) runHooks(ctx context.Context, tx *bolt.Tx, ev *SourceEvent) error {
	ev.KUs = txKUReader{tx}
	for _, h := range kb.hooks {
		if kb.hooksRun.isDisabled(h.HookID()) {
			continue // its index is marked stale and rebuilt on the next ingest
		}
		b, err := ensurePluginBucket(tx, h.HookID())
		if err != nil {
			return err
		}
		ev.KV = boltKV{b}
		if err := kb.callHook(ctx, h, ev); err != nil {
			return &hookError{hook: h.HookID(), err: err}
		}
	}
	ev.KV = nil
	return nil
}

func (kb *KB) countKUs() (int, error) {
	_, n, err := kb.store.Counts()
	return n, err
}
