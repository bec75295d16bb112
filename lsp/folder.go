package lsp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/mrpvm/mrpvm/config"
	"github.com/mrpvm/mrpvm/ingest"
	"github.com/mrpvm/mrpvm/markdown/links"
	"github.com/mrpvm/mrpvm/plugin"
	_ "github.com/mrpvm/mrpvm/plugins/all" // built-in plugins
	"github.com/mrpvm/mrpvm/retrieval"
	"github.com/mrpvm/mrpvm/store"
	"github.com/mrpvm/mrpvm/workspace"
)

// folder is one workspace folder: its own knowledge base, catalog and VM.
type folder struct {
	s       *Server
	root    string
	name    string
	userDir config.UserFolder
	noLLM   bool
	llm     *plugin.RoleSetting // the llm setting, nil: the files alone

	swMu     sync.Mutex
	switches map[string]bool // the plugins setting (config.Options.PluginSwitches)
	exclude  []string        // the exclude setting (workspace.Options.Exclude)

	ready   chan struct{} // closed when the first open finished
	openErr error

	mu       sync.RWMutex // write-locked while the workspace is switched
	ws       *workspace.Workspace
	dbPath   string
	readOnly bool   // serving from a private copy: the real file is locked
	tmpPath  string // the private copy, removed on close
	closed   bool

	ingestCtx    context.Context
	ingestCancel context.CancelFunc

	hovers hoverCache

	links      *links.Index  // the link index (links.go)
	linksReady chan struct{} // closed when the link index is built
	first      *firstIngest  // the first whole-folder ingest (partial.go)

	pmu     sync.Mutex
	pending map[string]bool
	timer   *time.Timer
	due     time.Time // when timer fires

	// Configuration reload (reload.go), under pmu.
	reloadFiles map[string]bool
	reloadTimer *time.Timer
	reloadGen   int
}

func newFolder(s *Server, root, name, dbPath string, userDir config.UserFolder, noLLM bool) *folder {
	if name == "" {
		name = filepath.Base(root)
	}
	f := &folder{s: s, root: root, name: name, dbPath: dbPath, userDir: userDir, noLLM: noLLM,
		ready: make(chan struct{}), pending: map[string]bool{},
		links: links.New(root), linksReady: make(chan struct{}), first: newFirstIngest()}
	f.ingestCtx, f.ingestCancel = context.WithCancel(s.ctx)
	return f
}

// open opens the knowledge base; a file locked by another server makes this
// one serve from a private copy and say so.
func (f *folder) open() {
	defer close(f.ready)
	ws, err := f.openWS(f.dbPath, false)
	if errors.Is(err, store.ErrLocked) {
		ws, err = f.openPrivateCopy()
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if err != nil {
		f.openErr = err
		f.s.log.Error("open workspace", "folder", f.root, "err", err)
		f.s.showMessage(protocol.MessageTypeError, fmt.Sprintf("mrpvm: cannot open the knowledge base of %s: %v", f.name, err))
		return
	}
	if f.closed {
		_ = ws.Close()
		return
	}
	f.ws = ws
	if f.dbPath == "" {
		f.dbPath = ws.KB.Store().Path()
	}
}

// lockTimeout bounds the wait for a knowledge base locked by another
// process. bbolt holds its lock for as long as a file is open, so a lock
// that is still held after a short wait is another server's: waiting
// longer only delays the private copy.
const lockTimeout = 400 * time.Millisecond

func (f *folder) openWS(dbPath string, rebuild bool) (*workspace.Workspace, error) {
	ws, err := workspace.Open(workspace.Options{
		Root:           f.root,
		DBPath:         dbPath,
		Store:          store.Options{LockTimeout: lockTimeout, Rebuild: rebuild},
		Logger:         f.s.log,
		UserDir:        f.userDir,
		NoLLM:          f.noLLM,
		LLMSetting:     f.llm,
		PluginSwitches: f.pluginSwitches(),
		Exclude:        f.excludeSetting(),
	})
	if err == nil {
		f.reportSettingsProblems(ws)
	}
	return ws, err
}

// reportSettingsProblems shows what the catalog found wrong in the plugins
// setting (an unknown id): the setting has no file to hold diagnostics.
func (f *folder) reportSettingsProblems(ws *workspace.Workspace) {
	for _, p := range ws.Catalog.Problems {
		if p.File == config.SettingsFile {
			msg := p.Message
			if p.Stage != "" {
				msg += " (stage " + string(p.Stage) + ")"
			}
			f.s.showMessage(protocol.MessageTypeWarning, fmt.Sprintf("mrpvm: the plugins setting (%s): %s", f.name, msg))
		}
	}
}

// setSwitches sets the plugin switches the next open uses.
func (f *folder) setSwitches(sw map[string]bool) {
	f.swMu.Lock()
	f.switches = maps.Clone(sw)
	f.swMu.Unlock()
}

// setExclude sets the exclude patterns the next open uses.
func (f *folder) setExclude(globs []string) {
	f.swMu.Lock()
	f.exclude = slices.Clone(globs)
	f.swMu.Unlock()
}

func (f *folder) excludeSetting() []string {
	f.swMu.Lock()
	defer f.swMu.Unlock()
	return f.exclude
}

func (f *folder) pluginSwitches() map[string]bool {
	f.swMu.Lock()
	defer f.swMu.Unlock()
	return f.switches
}

// openPrivateCopy copies the locked knowledge base to a temporary file and
// opens that (rebuilding it from the workspace if the copy is unusable).
func (f *folder) openPrivateCopy() (*workspace.Workspace, error) {
	locked := f.dbPath
	if locked == "" {
		p, err := store.DefaultPath(f.root)
		if err != nil {
			return nil, err
		}
		locked = p
	}
	tmp, err := os.CreateTemp("", "mrpvm-lsp-*.db")
	if err != nil {
		return nil, fmt.Errorf("private copy of a locked knowledge base: %w", err)
	}
	tmpPath := tmp.Name()
	if src, err := os.Open(locked); err == nil {
		_, err = io.Copy(tmp, src)
		src.Close()
		if err != nil {
			tmp.Truncate(0)
		}
	}
	tmp.Close()
	ws, err := f.openWS(tmpPath, false)
	if err != nil {
		ws, err = f.openWS(tmpPath, true)
	}
	if err != nil {
		os.Remove(tmpPath)
		return nil, err
	}
	f.readOnly = true
	f.tmpPath = tmpPath
	f.dbPath = locked
	f.s.log.Warn("knowledge base locked; serving from a private copy", "locked", locked, "copy", tmpPath)
	f.s.showMessage(protocol.MessageTypeWarning, fmt.Sprintf(
		"mrpvm: the knowledge base of %s is in use by another mrpvm process (%s). This server answers from a private copy; its changes are not saved.", f.name, locked))
	return ws, nil
}

// errNotReady is returned when a folder's knowledge base could not be opened.
func (f *folder) notReady() error {
	return rpcError(jsonrpc2.InternalError, "kb_unavailable", "the knowledge base of %s is not open: %v", f.name, f.openErr)
}

// withWS runs fn with the folder's workspace, waiting for it to open.
func (f *folder) withWS(ctx context.Context, fn func(ws *workspace.Workspace) error) error {
	select {
	case <-f.ready:
	case <-ctx.Done():
		return ctx.Err()
	}
	f.mu.RLock()
	defer f.mu.RUnlock()
	if f.ws == nil {
		return f.notReady()
	}
	return fn(f.ws)
}

// close cancels the folder's background ingest and closes its knowledge base.
func (f *folder) close() {
	f.ingestCancel()
	f.pmu.Lock()
	if f.timer != nil {
		f.timer.Stop()
	}
	if f.reloadTimer != nil {
		f.reloadTimer.Stop()
		f.reloadGen++
	}
	f.pmu.Unlock()
	<-f.ready
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closed = true
	if f.ws != nil {
		if err := f.ws.Close(); err != nil {
			f.s.log.Error("close workspace", "folder", f.root, "err", err)
		}
		f.ws = nil
	}
	if f.tmpPath != "" {
		os.Remove(f.tmpPath)
	}
}

// lockForSwitch waits for the folder's first open, stops a background
// ingest (so it does not hold the write lock up) and takes f.mu for a
// caller that replaces the workspace; on success the caller unlocks f.mu.
func (f *folder) lockForSwitch(ctx context.Context) error {
	select {
	case <-f.ready:
	case <-ctx.Done():
		return ctx.Err()
	}
	f.ingestCancel()
	f.mu.Lock()
	f.ingestCtx, f.ingestCancel = context.WithCancel(f.s.ctx)
	if f.closed {
		f.mu.Unlock()
		return rpcError(jsonrpc2.InvalidRequest, "folder_closed", "%s was closed", f.name)
	}
	return nil
}

// switchTo closes the current knowledge base and opens the one at dbPath.
func (f *folder) switchTo(ctx context.Context, dbPath string) error {
	return f.switchFile(ctx, dbPath, false)
}

// switchToCopy is switchTo for a private copy the folder owns: it is
// removed when the folder switches away from it or closes.
func (f *folder) switchToCopy(ctx context.Context, copyPath string) error {
	return f.switchFile(ctx, copyPath, true)
}

func (f *folder) switchFile(ctx context.Context, dbPath string, private bool) error {
	if err := f.lockForSwitch(ctx); err != nil {
		return err
	}
	defer f.mu.Unlock()
	ws, err := f.openWS(dbPath, false)
	if err != nil {
		return rpcError(jsonrpc2.InternalError, "kb_open_failed", "open %s: %v", dbPath, err)
	}
	if f.ws != nil {
		if err := f.ws.Close(); err != nil {
			f.s.log.Error("close workspace", "folder", f.root, "err", err)
		}
	}
	if f.tmpPath != "" {
		os.Remove(f.tmpPath)
		f.tmpPath = ""
	}
	if private {
		f.tmpPath = dbPath
	}
	f.ws, f.dbPath, f.readOnly, f.openErr = ws, dbPath, false, nil
	f.hovers.invalidate()
	return nil
}

// schedule queues path for a partial ingest that starts after delay; the
// paths queued meanwhile are ingested together. A shorter delay brings a
// pending run forward (a save flushes the watched-file changes queued with
// it), a longer one never postpones it.
func (f *folder) schedule(path string, delay time.Duration) {
	if !ingest.IsSourceFile(path) || hiddenPath(f.root, path) {
		return
	}
	f.pmu.Lock()
	defer f.pmu.Unlock()
	f.pending[path] = true
	due := time.Now().Add(delay)
	if f.timer != nil {
		if !f.due.After(due) {
			return // an earlier run is already due and will take path
		}
		f.timer.Stop()
	}
	f.due = due
	f.timer = time.AfterFunc(delay, f.flush)
}

// flush ingests the queued paths.
func (f *folder) flush() {
	f.pmu.Lock()
	paths := sortedKeys(f.pending)
	f.pending = map[string]bool{}
	f.timer = nil
	f.pmu.Unlock()
	if len(paths) > 0 {
		f.s.goBG(func() { f.s.ingestFolder(f.currentIngestCtx(), f, paths) })
	}
}

func (f *folder) currentIngestCtx() context.Context {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.ingestCtx
}

// hiddenPath reports whether path lies in a folder the workspace walk skips.
func hiddenPath(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	if err != nil {
		return true
	}
	parts := strings.Split(filepath.ToSlash(rel), "/")
	for _, p := range parts[:len(parts)-1] {
		if p == ".." || p == "node_modules" || (strings.HasPrefix(p, ".") && p != ".") {
			return true
		}
	}
	return false
}

// ingestResult is the mrpvm/didIngest notification: sent after every
// ingest run so clients (and tests) know when saved text is searchable.
type ingestResult struct {
	Folder string         `json:"folder"`
	Paths  []string       `json:"paths,omitempty"`
	Report *ingest.Report `json:"report,omitempty"`
	Error  string         `json:"error,omitempty"`
}

// ingestFolder runs one ingest (the whole folder when paths is nil) with
// progress for whole-folder runs, then refreshes diagnostics.
func (s *Server) ingestFolder(ctx context.Context, f *folder, paths []string) (*ingest.Report, error) {
	if ctx == nil {
		ctx = f.currentIngestCtx()
	}
	var prog *progress
	if paths == nil {
		prog = s.beginProgress(ctx, "mrpvm: ingest "+f.name, "", nil)
	}
	var rep *ingest.Report
	opt := ingest.RunOptions{Only: paths}
	if prog != nil {
		opt.Progress = prog.files
	}
	if paths == nil {
		opt.First = s.openPaths(f)
		if f.first.track(&opt, s.opt.FirstIngestHook) {
			defer f.first.finish() // also when withWS fails or panics
		}
	}
	err := f.withWS(ctx, func(ws *workspace.Workspace) error {
		var err error
		f.hovers.beginIngest()
		// Even a failed or cancelled run may have committed some sources.
		defer f.hovers.endIngest()
		rep, err = ws.KB.Ingest(ctx, opt)
		return err
	})
	if paths == nil {
		f.first.finish() // before didIngest: a client that saw it gets complete answers
	}
	if prog != nil {
		msg := ""
		if rep != nil {
			msg = fmt.Sprintf("%d files ingested, %d unchanged, %d removed; %d KUs", rep.Files, rep.Unchanged, rep.Removed, rep.KUs)
		} else if err != nil {
			msg = "ingest failed: " + err.Error()
		}
		prog.end(msg)
	}
	res := ingestResult{Folder: pathToURI(f.root), Paths: paths, Report: rep}
	if err != nil {
		res.Error = err.Error()
		s.log.Warn("ingest", "folder", f.root, "err", err)
	}
	s.notify("mrpvm/didIngest", res)
	for _, p := range paths {
		s.scheduleDiagnostics(pathToURI(p))
	}
	if paths == nil && err == nil {
		// The knowledge base is current: load what searches keep in
		// memory now, so the first hover or question does not wait for it.
		s.goBG(func() { s.warmFolder(ctx, f) })
	}
	return rep, err
}

// warmFolder loads the in-memory search state of the folder's kb-plugins
// (kb.Warmer). A failure is only logged: the first search reports it.
func (s *Server) warmFolder(ctx context.Context, f *folder) {
	err := f.withWS(ctx, func(ws *workspace.Workspace) error {
		for _, p := range ws.Catalog.Registry.KBPlugins() {
			w, ok := p.(retrieval.Warmer)
			if !ok {
				continue
			}
			if err := w.Warm(ctx); err != nil {
				return fmt.Errorf("%s: %w", p.Descriptor().ID, err)
			}
		}
		return nil
	})
	if err != nil && ctx.Err() == nil {
		s.log.Warn("warm search state", "folder", f.root, "err", err)
	}
}
