package lsp

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/mrpvm/mrpvm/config"
)

// Configuration reload. The plugin catalog, the enabled kb-plugins and the
// LLM bridge are built when a folder's workspace is opened, from the
// configuration files of the folder's .mrpvm folder and of the user
// configuration folder. When one of those files is saved (or changes on
// disk), the folder's workspace is reopened on the same knowledge base —
// debounced, so a burst of saves reloads once — and a whole-folder ingest
// then adds the KUs of newly enabled plugins and drops those of disabled
// ones.

// reloadResult is the mrpvm/didReload notification, sent after every reload.
type reloadResult struct {
	Folder string   `json:"folder"`
	Files  []string `json:"files"` // the configuration files that changed
	Error  string   `json:"error,omitempty"`
}

// configChanged schedules a reload of the folders whose configuration
// includes path: a workspace file (<root>/.mrpvm/<name>.json) reloads its
// folder, a file of the user configuration folder every folder that reads
// that folder. It reports whether some folder was scheduled.
func (s *Server) configChanged(path string) bool {
	if path == "" || !slices.Contains(config.Names, filepath.Base(path)) {
		return false
	}
	dir := filepath.Dir(path)
	found := false
	for _, f := range s.folderList() {
		if sameDir(dir, filepath.Join(f.root, config.WorkspaceDir)) || f.readsUserDir(dir) {
			f.scheduleReload(path, s.opt.Debounce)
			found = true
		}
	}
	return found
}

// readsUserDir reports whether the folder's configuration includes the
// user configuration folder dir.
func (f *folder) readsUserDir(dir string) bool {
	ud := f.userDir.Dir()
	return ud != "" && sameDir(dir, ud)
}

// scheduleReload reopens the folder's workspace after delay; the files
// changed meanwhile are reloaded together.
func (f *folder) scheduleReload(path string, delay time.Duration) {
	f.pmu.Lock()
	defer f.pmu.Unlock()
	if f.reloadFiles == nil {
		f.reloadFiles = map[string]bool{}
	}
	f.reloadFiles[path] = true
	if f.reloadTimer != nil {
		f.reloadTimer.Stop()
	}
	// A timer that already fired and waits for pmu sees a newer
	// generation and does nothing: the new timer takes its files.
	f.reloadGen++
	gen := f.reloadGen
	f.reloadTimer = time.AfterFunc(delay, func() {
		f.pmu.Lock()
		if gen != f.reloadGen {
			f.pmu.Unlock()
			return
		}
		files := sortedKeys(f.reloadFiles)
		f.reloadFiles = nil
		f.reloadTimer = nil
		f.pmu.Unlock()
		if f.s.ctx.Err() != nil {
			return
		}
		f.s.goBG(func() { f.s.reloadFolder(f, files) })
	})
}

// reloadFolder reopens a folder's workspace, says so with mrpvm/didReload,
// ingests the folder and refreshes the diagnostics of open configuration
// files (which check plugin ids against the catalog).
func (s *Server) reloadFolder(f *folder, files []string) {
	start := time.Now()
	err := f.reopen(s.ctx)
	res := reloadResult{Folder: pathToURI(f.root), Files: files}
	if err != nil {
		res.Error = err.Error()
		s.log.Error("reload configuration", "folder", f.root, "err", err)
		if s.ctx.Err() == nil {
			s.showMessage(protocol.MessageTypeError, fmt.Sprintf("mrpvm: reloading the configuration of %s failed: %v", f.name, err))
		}
	} else {
		s.log.Info("configuration reloaded", "folder", f.root, "files", files, "took", time.Since(start))
	}
	s.notify("mrpvm/didReload", res)
	if err != nil {
		return
	}
	_, _ = s.ingestFolder(nil, f, nil)
	for _, u := range s.docs.uris() {
		if p := uriToPath(u); s.configFile(p) {
			s.scheduleDiagnostics(u)
		}
	}
}

// reopen closes the folder's workspace and opens it again on the same
// knowledge base file (the private copy when serving from one), so the
// configuration files are read anew.
func (f *folder) reopen(ctx context.Context) error {
	if err := f.lockForSwitch(ctx); err != nil {
		return err
	}
	defer f.mu.Unlock()
	dbPath := f.dbPath
	if f.tmpPath != "" {
		dbPath = f.tmpPath
	}
	// bbolt locks the file per open descriptor: the old workspace must be
	// closed before the file can be opened again.
	if f.ws != nil {
		if err := f.ws.Close(); err != nil {
			f.s.log.Error("close workspace", "folder", f.root, "err", err)
		}
		f.ws = nil
	}
	f.hovers.invalidate()
	ws, err := f.openWS(dbPath, false)
	if err != nil {
		f.openErr = err
		return rpcError(jsonrpc2.InternalError, "kb_open_failed", "reopen %s: %v", dbPath, err)
	}
	f.ws, f.openErr = ws, nil
	return nil
}
