package lsp

import (
	"encoding/json"
	"fmt"
	"sort"
	"sync"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/mrpvm/mrpvm/internal/fsafe"
)

// document is the overlay of one open file: the editor's unsaved text.
type document struct {
	uri     string
	version int32
	text    string
}

// docStore holds the open documents. Changes are applied inline on the
// read loop, in wire order.
type docStore struct {
	mu   sync.RWMutex
	docs map[string]*document
}

func newDocStore() *docStore { return &docStore{docs: map[string]*document{}} }

func (d *docStore) get(u string) (document, bool) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	doc, ok := d.docs[u]
	if !ok {
		return document{}, false
	}
	return *doc, true
}

func (d *docStore) set(doc *document) {
	d.mu.Lock()
	d.docs[doc.uri] = doc
	d.mu.Unlock()
}

// uris returns the URIs of the open documents.
func (d *docStore) uris() []string {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return sortedKeys(d.docs)
}

func (d *docStore) remove(u string) {
	d.mu.Lock()
	delete(d.docs, u)
	d.mu.Unlock()
}

// contentChange is one TextDocumentContentChangeEvent: a whole document
// when Range is nil.
type contentChange struct {
	Range *protocol.Range `json:"range"`
	Text  string          `json:"text"`
}

// apply applies changes in order to text.
func applyChanges(text string, changes []contentChange) (string, error) {
	for _, c := range changes {
		if c.Range == nil {
			text = c.Text
			continue
		}
		start := offsetOf(text, c.Range.Start)
		end := offsetOf(text, c.Range.End)
		if end < start {
			return text, fmt.Errorf("change range ends before it starts")
		}
		text = text[:start] + c.Text + text[end:]
	}
	return text, nil
}

func (s *Server) didOpen(raw json.RawMessage) error {
	var p struct {
		TextDocument struct {
			URI     string `json:"uri"`
			Version int32  `json:"version"`
			Text    string `json:"text"`
		} `json:"textDocument"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return err
	}
	td := p.TextDocument
	s.docs.set(&document{uri: td.URI, version: td.Version, text: td.Text})
	s.indexText(td.URI, td.Text)
	s.rootForFile(uriToPath(td.URI))
	s.scheduleDiagnostics(td.URI)
	return nil
}

func (s *Server) didChange(raw json.RawMessage) error {
	var p struct {
		TextDocument struct {
			URI     string `json:"uri"`
			Version int32  `json:"version"`
		} `json:"textDocument"`
		ContentChanges []contentChange `json:"contentChanges"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return err
	}
	doc, ok := s.docs.get(p.TextDocument.URI)
	if !ok {
		return fmt.Errorf("didChange for %s, which is not open", p.TextDocument.URI)
	}
	text, err := applyChanges(doc.text, p.ContentChanges)
	if err != nil {
		return err
	}
	s.docs.set(&document{uri: doc.uri, version: p.TextDocument.Version, text: text})
	s.indexText(doc.uri, text)
	s.scheduleDiagnostics(doc.uri)
	return nil
}

func (s *Server) didClose(raw json.RawMessage) error {
	u, err := textDocumentURI(raw)
	if err != nil {
		return err
	}
	s.docs.remove(u)
	s.indexFile(uriToPath(u)) // the file's text again
	return nil
}

// didSave re-ingests the saved file at once (Options.SaveDebounce).
func (s *Server) didSave(raw json.RawMessage) error {
	u, err := textDocumentURI(raw)
	if err != nil {
		return err
	}
	path := uriToPath(u)
	if path == "" {
		return nil
	}
	s.indexFile(path)
	if f := s.folderFor(path); f != nil {
		f.schedule(path, s.opt.SaveDebounce)
	}
	s.configChanged(path)
	s.scheduleDiagnostics(u)
	return nil
}

// didChangeWatchedFiles re-ingests created, changed and deleted files.
func (s *Server) didChangeWatchedFiles(raw json.RawMessage) error {
	var p struct {
		Changes []struct {
			URI  string `json:"uri"`
			Type int    `json:"type"`
		} `json:"changes"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return err
	}
	for _, c := range p.Changes {
		s.fileChanged(uriToPath(c.URI))
	}
	return nil
}

// fileChanged schedules a re-ingest of path (created, changed or deleted)
// in the folder holding it, and a reload of the folders whose configuration
// it is part of.
func (s *Server) fileChanged(path string) {
	if path == "" {
		return
	}
	s.indexFile(path)
	if f := s.folderFor(path); f != nil {
		f.schedule(path, s.opt.Debounce)
	}
	s.configChanged(path)
}

// sortedKeys returns a map's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// readText returns the text of a document: the overlay when open, else the file.
func (s *Server) readText(u string) (string, error) {
	if d, ok := s.docs.get(u); ok {
		return d.text, nil
	}
	p := uriToPath(u)
	if p == "" {
		return "", fmt.Errorf("not a file URI: %s", u)
	}
	b, err := s.readDiskFile(p)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// readDiskFile reads a file the editor has not opened: confined to the
// workspace folder holding it (when one does), a regular file, and at most
// MaxDiagnosedBytes, so a link to a secret, to /dev/zero or a FIFO is
// refused unread (fsafe's codes).
func (s *Server) readDiskFile(p string) ([]byte, error) {
	root := ""
	if f := s.folderFor(p); f != nil {
		root = f.root
	}
	return fsafe.ReadFile(root, p, MaxDiagnosedBytes)
}

// textDocumentURI is the textDocument.uri of a message's params.
func textDocumentURI(raw json.RawMessage) (string, error) {
	var p struct {
		TextDocument struct {
			URI string `json:"uri"`
		} `json:"textDocument"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return "", err
	}
	return p.TextDocument.URI, nil
}

// positionText decodes the params of a request at a position and reads
// the document's text; readable is false when it cannot be read (there is
// then nothing to answer about).
func (s *Server) positionText(raw json.RawMessage) (p textDocumentPositionParams, text string, readable bool, err error) {
	if err := json.Unmarshal(raw, &p); err != nil {
		return p, "", false, jsonrpc2.NewError(jsonrpc2.InvalidParams, "bad_params: "+err.Error())
	}
	text, err = s.readText(p.TextDocument.URI)
	return p, text, err == nil, nil
}
