package lsp

import (
	"encoding/json"
	"os"
	"strings"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/mrpvm/mrpvm/ingest"
	"github.com/mrpvm/mrpvm/internal/fsafe"
	"github.com/mrpvm/mrpvm/markdown/links"
)

// The link index of a folder (markdown/links) is built from the folder's
// Markdown files when it opens, kept current with the open documents'
// text (didOpen, didChange), and re-read from disk on saves, closes and
// file events. It does not depend on the knowledge base, so link features
// answer while an ingest runs.

// buildLinks indexes every Markdown file of the folder; open documents
// are indexed from their editor text.
func (f *folder) buildLinks() {
	defer close(f.linksReady)
	f.scanLinks()
}

// scanLinks (re)indexes every Markdown file of the folder and drops the
// files that are gone.
func (f *folder) scanLinks() {
	paths, err := ingest.SourceFiles(f.root)
	if err != nil {
		f.s.log.Warn("link index: list files", "folder", f.root, "err", err)
		return
	}
	seen := make(map[string]bool, len(paths))
	for _, p := range paths {
		if f.s.ctx.Err() != nil {
			return
		}
		rel, ok := f.links.Rel(p)
		if !ok {
			continue
		}
		if text, ok := readLinkSource(f.root, p); ok {
			f.s.updateLinks(f, rel, text)
			seen[rel] = true
		}
	}
	// The open documents: their text wins over the files.
	for _, u := range f.s.docs.uris() {
		if d, ok := f.s.docs.get(u); ok {
			f.s.indexText(u, d.text)
		}
	}
	for _, x := range f.links.Files() {
		if !seen[x.Rel] {
			if _, open := f.s.docs.get(f.relURIString(x.Rel)); !open {
				f.s.removeLinks(f, x.Rel)
			}
		}
	}
}

// readLinkSource reads a Markdown file of folder root for the link index
// through the workspace's confined reader (inside root, regular, at most
// MaxDiagnosedBytes, the cap ingest applies too); unreadable files are left
// out.
func readLinkSource(root, p string) (string, bool) {
	b, err := fsafe.ReadFile(root, p, MaxDiagnosedBytes)
	if err != nil {
		return "", false
	}
	return string(b), true
}

// indexText updates the link index entry of document u from its text.
// A text over MaxDiagnosedBytes is not indexed (and drops the entry an
// earlier, smaller text left).
func (s *Server) indexText(u, text string) {
	path := uriToPath(u)
	if path == "" || !ingest.IsSourceFile(path) {
		return
	}
	if f := s.folderFor(path); f != nil && within(f.root, path) {
		if rel, ok := f.links.Rel(path); ok {
			if len(text) > MaxDiagnosedBytes {
				s.removeLinks(f, rel)
				return
			}
			s.updateLinks(f, rel, text)
		}
	}
}

// indexFile re-reads path from disk into its folder's link index (the
// open document's text wins), dropping it when it is gone.
func (s *Server) indexFile(path string) {
	if path == "" || !ingest.IsSourceFile(path) {
		return
	}
	if d, ok := s.docs.get(pathToURI(path)); ok {
		s.indexText(d.uri, d.text)
		return
	}
	f := s.folderFor(path)
	if f == nil || !within(f.root, path) || hiddenPath(f.root, path) {
		return
	}
	rel, ok := f.links.Rel(path)
	if !ok {
		return
	}
	if text, ok := readLinkSource(f.root, path); ok {
		s.updateLinks(f, rel, text)
	} else {
		s.removeLinks(f, rel)
	}
}

// updateLinks indexes text as rel's entry of f's link index. When what
// other files can link to changed (the file is new, or its title or
// heading anchors differ), the diagnostics of the files linking to it are
// refreshed too, after the diagnostics' quiet period.
func (s *Server) updateLinks(f *folder, rel, text string) *links.File {
	old := f.links.File(rel)
	nf := f.links.Update(rel, text)
	if !links.SameTargets(old, nf) {
		s.scheduleLinkers(f, rel)
	}
	return nf
}

// removeLinks drops rel from f's link index and refreshes the diagnostics
// of the files that linked to it.
func (s *Server) removeLinks(f *folder, rel string) {
	if f.links.File(rel) == nil {
		return
	}
	// Found before the removal: wiki links to it stop resolving after.
	linkers := f.links.Linkers(rel)
	f.links.Remove(rel)
	if f.linksBuilt() {
		for _, r := range linkers {
			s.scheduleDiagnostics(f.relURIString(r))
		}
	}
}

// scheduleLinkers refreshes, after the diagnostics' quiet period, the
// diagnostics of the files linking to rel (edits in a burst, such as
// typing a heading, look the linking files up once). While the index is
// first built nothing is scheduled: every file is new then.
func (s *Server) scheduleLinkers(f *folder, rel string) {
	if !f.linksBuilt() {
		return
	}
	s.debounce(&s.ltimers, f.root+"\x00"+rel, func() {
		for _, r := range f.links.Linkers(rel) {
			if s.ctx.Err() != nil {
				return
			}
			s.refreshDiagnostics(f.relURIString(r))
		}
	})
}

// linksBuilt reports whether the folder's link index has been built.
func (f *folder) linksBuilt() bool {
	select {
	case <-f.linksReady:
		return true
	default:
		return false
	}
}

// didRenameFiles moves renamed files (or folders) in the link index.
func (s *Server) didRenameFiles(raw json.RawMessage) error {
	var p protocol.RenameFilesParams
	if err := json.Unmarshal(raw, &p); err != nil {
		return err
	}
	for _, r := range p.Files {
		oldPath, newPath := uriToPath(r.OldURI), uriToPath(r.NewURI)
		if f := s.folderFor(oldPath); f != nil {
			if rel, ok := f.links.Rel(oldPath); ok {
				prefix := rel + "/"
				for _, x := range f.links.Files() {
					if x.Rel == rel || strings.HasPrefix(x.Rel, prefix) {
						s.removeLinks(f, x.Rel)
					}
				}
			}
		}
		if info, err := os.Stat(newPath); err == nil && info.IsDir() {
			if nf := s.folderFor(newPath); nf != nil {
				if paths, err := ingest.SourceFiles(newPath); err == nil {
					for _, p := range paths {
						s.indexFile(p)
					}
				}
			}
			continue
		}
		s.indexFile(newPath)
	}
	return nil
}

// workspaceEdit turns index edits into an LSP workspace edit.
func workspaceEdit(f *folder, edits []links.Edit) *protocol.WorkspaceEdit {
	ch := map[uri.URI][]protocol.TextEdit{}
	for _, e := range edits {
		u := f.relURI(e.Rel)
		ch[u] = append(ch[u], protocol.TextEdit{Range: spanRange(e.Span), NewText: e.NewText})
	}
	return &protocol.WorkspaceEdit{Changes: ch}
}
