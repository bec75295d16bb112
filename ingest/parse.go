package ingest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"
	"unicode/utf8"

	"github.com/mrpvm/mrpvm/internal/fsafe"
	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/store"
)

// work is one source to read, parse and commit.
type work struct {
	sourceID string
	path     string
	size     int64
	modTime  int64
	text     []byte        // set for virtual sources
	doc      *kus.Document // set for virtual sources read by a plugin
	old      *store.SourceRecord
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
	// record is the stored form of the source record made on the parse
	// workers (store.EncodeRecord), with unitIDs in document order.
	record   []byte
	unitIDs  []string
	parsedAt time.Time
}

func (w work) displayPath() string {
	if w.path != "" {
		return w.path
	}
	return w.sourceID
}

func displayPath(rec *store.SourceRecord) string {
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
		p.encoded = store.EncodeUnits(w.doc.Units)
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
	p.encoded = store.EncodeUnits(doc.Units)
	p.encodeRecord()
	kb.prepare(w.sourceID, doc)
	return p
}

// sourceRecord is the record committing p stores; its ingestedAt is the
// time p was parsed (the time its KUs carry).
func (p *parsed) sourceRecord() *store.SourceRecord {
	rec := &store.SourceRecord{
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
	if v, err := store.EncodeRecord(p.sourceRecord()); err == nil {
		p.record = v
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

// SourceReader reads one workspace file into its KU hierarchy: the seed
// detector configured for the file (its normalizePersistentContext). It is
// called on the ingest's parse workers, concurrently for different files,
// with the file's valid UTF-8 text, which it must not change or keep. An
// error skips the file with a CodeParseFailed warning; the document's
// error and warning diagnostics are reported as the file's warnings.
type SourceReader func(ctx context.Context, info kus.SourceInfo, text []byte) (*kus.Document, error)
