package lsp

import (
	"encoding/json"
	"path/filepath"
	"strings"

	"go.lsp.dev/jsonrpc2"

	"github.com/mrpvm/mrpvm/config"
)

// folderList returns the open folders in order.
func (s *Server) folderList() []*folder {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*folder(nil), s.folders...)
}

// folderFor returns the folder holding path (the deepest root), else the first.
func (s *Server) folderFor(path string) *folder {
	fs := s.folderList()
	var best *folder
	for _, f := range fs {
		if within(f.root, path) && (best == nil || len(f.root) > len(best.root)) {
			best = f
		}
	}
	if best == nil && len(fs) > 0 && path == "" {
		best = fs[0]
	}
	return best
}

// folderByURI picks a folder by its URI ("" : the first).
func (s *Server) folderByURI(u string) (*folder, error) {
	fs := s.folderList()
	if len(fs) == 0 {
		return nil, rpcError(jsonrpc2.InvalidRequest, "no_workspace", "no workspace folder is open")
	}
	if u == "" {
		return fs[0], nil
	}
	p := uriToPath(u)
	if f := s.folderFor(p); f != nil {
		return f, nil
	}
	return nil, rpcError(jsonrpc2.InvalidParams, "bad_argument", "%s is in no workspace folder", u)
}

func within(root, path string) bool {
	if path == root {
		return true
	}
	return strings.HasPrefix(path, root+string(filepath.Separator))
}

// didChangeWorkspaceFolders opens added folders and closes removed ones.
func (s *Server) didChangeWorkspaceFolders(raw json.RawMessage) error {
	var p struct {
		Event struct {
			Added   []folderRef `json:"added"`
			Removed []folderRef `json:"removed"`
		} `json:"event"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return err
	}
	for _, r := range p.Event.Removed {
		root := uriToPath(r.URI)
		s.mu.Lock()
		var gone *folder
		for i, f := range s.folders {
			if f.root == root {
				gone = f
				s.folders = append(s.folders[:i:i], s.folders[i+1:]...)
				break
			}
		}
		w := s.watcher
		s.mu.Unlock()
		if gone != nil {
			if w != nil {
				w.remove(gone.root)
			}
			s.goBG(gone.close)
		}
	}
	for _, r := range p.Event.Added {
		if !s.acceptRoot(uriToPath(r.URI)) {
			continue
		}
		f := s.addFolder(r, len(s.folderList()) == 0)
		if f != nil {
			s.goBG(func() { s.ingestFolder(s.ctx, f, nil) })
		}
	}
	return nil
}

// addFolder starts opening one workspace folder's knowledge base.
func (s *Server) addFolder(r folderRef, first bool) *folder {
	root := uriToPath(r.URI)
	if root == "" {
		return nil
	}
	if abs, err := filepath.Abs(root); err == nil {
		root = abs
	}
	s.mu.Lock()
	for _, f := range s.folders {
		if f.root == root {
			s.mu.Unlock()
			return nil
		}
	}
	dbPath := ""
	if first {
		dbPath = s.opt.DBPath
		if s.settings.DBPath != "" {
			dbPath = s.settings.DBPath
		}
	}
	userDir := s.opt.UserDir
	if s.settings.UserDir != "" {
		userDir = s.settings.UserDir
	}
	noLLM := s.opt.NoLLM
	if s.settings.NoLLM != nil {
		noLLM = *s.settings.NoLLM
	}
	user := config.ParseUserFolder(userDir)
	f := newFolder(s, root, r.Name, dbPath, user, noLLM)
	f.llm = s.settings.LLM
	f.setSwitches(s.settings.Plugins)
	f.setExclude(s.settings.Exclude)
	s.folders = append(s.folders, f)
	if s.watcher != nil {
		s.watcher.add(root)
	}
	s.mu.Unlock()
	s.goBG(f.open)
	s.goBG(f.buildLinks)
	return f
}
