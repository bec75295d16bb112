package lsp

import (
	"fmt"
	"path/filepath"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/mrpvm/mrpvm/config"
	"github.com/mrpvm/mrpvm/ingest"
)

// Workspace roots. A folder the client names is served unless it is the
// user's home folder or a filesystem root with no .mrpvm folder in it
// (ingest.CheckWorkspace): ingesting it would read every Markdown file of
// the account. When the client names no folder, or only refused ones, the
// server finds one per opened file instead (ingest.FindRoot): the nearest
// folder above it holding .mrpvm or .git, else the file's own folder,
// unless that too is the home folder or a filesystem root. Each choice
// that is not a marked project folder is told to the user once.

// rootMessage is a message about roots, held until the client is
// initialized.
type rootMessage struct {
	typ  protocol.MessageType
	text string
}

// acceptRoot reports whether a folder the client named may be served; a
// refusal is told to the user and turns on finding roots per file.
func (s *Server) acceptRoot(root string) bool {
	if root == "" {
		return false
	}
	why := ingest.UnsafeRoot(root)
	if why == "" || ingest.OptedIn(root) {
		return true
	}
	s.mu.Lock()
	s.findRoots = true
	s.mu.Unlock()
	s.rootNote(protocol.MessageTypeWarning, root, fmt.Sprintf(
		"mrpvm: not indexing %s: it is %s, and every Markdown file under it would be read. Markdown files opened from it are served from their project folder (one holding .git or .mrpvm) or their own folder. Create %s to index it whole.",
		root, why, filepath.Join(root, ".mrpvm")))
	return false
}

// rootNote shows a message about roots once per folder, after initialized.
func (s *Server) rootNote(typ protocol.MessageType, dir, text string) {
	s.mu.Lock()
	if s.rootNoted == nil {
		s.rootNoted = map[string]bool{}
	}
	if s.rootNoted[dir] {
		s.mu.Unlock()
		return
	}
	s.rootNoted[dir] = true
	if !s.rootsLive {
		s.rootPending = append(s.rootPending, rootMessage{typ: typ, text: text})
		s.mu.Unlock()
		return
	}
	s.mu.Unlock()
	s.showMessage(typ, text)
}

// flushRootNotes shows the messages held until the client was initialized.
func (s *Server) flushRootNotes() {
	s.mu.Lock()
	pending := s.rootPending
	s.rootPending = nil
	s.rootsLive = true
	s.mu.Unlock()
	for _, m := range pending {
		s.showMessage(m.typ, m.text)
	}
}

// rootForFile serves the folder of a file opened outside every folder when
// the server finds roots per file (see above), and starts its ingest.
func (s *Server) rootForFile(path string) {
	s.mu.Lock()
	find := s.findRoots
	s.mu.Unlock()
	if !find || path == "" || !ingest.IsSourceFile(path) || s.folderFor(path) != nil {
		return
	}
	c := ingest.FindRoot(path)
	if c.Root == "" {
		dir := filepath.Dir(path)
		s.rootNote(protocol.MessageTypeWarning, dir, fmt.Sprintf(
			"mrpvm: %s is in %s (%s) with no .git or .mrpvm folder above it: not indexing it. Create a .mrpvm folder in the top folder of your notes to make it a workspace.",
			filepath.Base(path), dir, c.Refused))
		return
	}
	if c.Marker == "" {
		s.rootNote(protocol.MessageTypeInfo, c.Root, fmt.Sprintf(
			"mrpvm: no .git or .mrpvm folder above %s: indexing its folder %s only. Create a .mrpvm folder in the top folder of your notes to index all of them.",
			filepath.Base(path), c.Root))
	}
	s.log.Info("workspace root for an opened file", "file", path, "root", c.Root, "marker", c.Marker)
	f := s.addFolder(folderRef{URI: pathToURI(c.Root), Name: filepath.Base(c.Root)}, len(s.folderList()) == 0)
	if f != nil {
		s.goBG(func() { s.ingestFolder(s.ctx, f, nil) })
	}
}

// badGlobs describes the exclude patterns that are not valid globs ("" when
// all are); the walk reports and skips them too.
func badGlobs(globs []string) string {
	var bad []string
	for _, g := range globs {
		if err := config.CheckGlob(g); err != nil {
			bad = append(bad, err.Error())
		}
	}
	return strings.Join(bad, "; ")
}
