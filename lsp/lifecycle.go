package lsp

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/mrpvm/mrpvm/version"
)

// initialize records the client's capabilities and settings, starts
// opening the folders' knowledge bases in the background and answers at once.
func (s *Server) initialize(raw json.RawMessage) (any, error) {
	var p initializeParams
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &p); err != nil {
			return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "bad_params: initialize: "+err.Error())
		}
	}
	caps := clientCaps{
		WorkDoneProgress:   p.Capabilities.Window.WorkDoneProgress,
		DynamicWatch:       p.Capabilities.Workspace.DidChangeWatchedFiles.DynamicRegistration,
		Configuration:      p.Capabilities.Workspace.Configuration,
		WorkspaceFolders:   p.Capabilities.Workspace.WorkspaceFolders,
		ShowMessageRequest: true,
	}
	var st Settings
	if len(p.InitializationOptions) > 0 && string(p.InitializationOptions) != "null" {
		if err := json.Unmarshal(p.InitializationOptions, &st); err != nil {
			return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "bad_settings: initializationOptions: "+err.Error())
		}
	}
	if !validHover(st.Hover) {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("bad_settings: initializationOptions: hover is %q; want terms, links or off", st.Hover))
	}
	var named []folderRef
	for _, f := range p.WorkspaceFolders {
		named = append(named, f)
	}
	if len(named) == 0 {
		u := p.RootURI
		if u == "" && p.RootPath != "" {
			u = pathToURI(p.RootPath)
		}
		if u != "" {
			named = append(named, folderRef{URI: u, Name: filepath.Base(uriToPath(u))})
		}
	}
	var roots []folderRef
	for _, r := range named {
		if s.acceptRoot(uriToPath(r.URI)) {
			roots = append(roots, r)
		}
	}
	s.mu.Lock()
	s.caps = caps
	s.settings = st
	s.initialized = true
	if len(roots) == 0 {
		s.findRoots = true // a single file opened with no folder
	}
	s.mu.Unlock()
	if bad := badGlobs(st.Exclude); bad != "" {
		s.rootNote(protocol.MessageTypeWarning, "settings:exclude", "mrpvm: the exclude setting: "+bad)
	}
	for i, r := range roots {
		s.addFolder(r, i == 0)
	}
	return jsonrpc2.RawMessage(mustJSON(initializeResult())), nil
}

func initializeResult() map[string]any {
	return map[string]any{
		"capabilities": serverCapabilities(),
		"serverInfo":   map[string]any{"name": "mrpvm", "version": version.Version()},
	}
}

// serverCapabilities is the capabilities part of the initialize result.
func serverCapabilities() json.RawMessage {
	yes := true
	incremental := protocol.TextDocumentSyncKindIncremental
	no := false
	md := func(kind protocol.FileOperationPatternKind, glob string) protocol.FileOperationFilter {
		scheme := "file"
		return protocol.FileOperationFilter{Scheme: &scheme, Pattern: protocol.FileOperationPattern{Glob: glob, Matches: kind}}
	}
	caps := protocol.ServerCapabilities{
		PositionEncoding: protocol.PositionEncodingKindUTF16,
		TextDocumentSync: &protocol.TextDocumentSyncOptions{
			OpenClose: &yes,
			Change:    &incremental,
			Save:      &protocol.SaveOptions{IncludeText: &no},
		},
		HoverProvider:           protocol.Boolean(true),
		DocumentSymbolProvider:  protocol.Boolean(true),
		WorkspaceSymbolProvider: protocol.Boolean(true),
		DefinitionProvider:      protocol.Boolean(true),
		ReferencesProvider:      protocol.Boolean(true),
		RenameProvider:          &protocol.RenameOptions{PrepareProvider: &yes},
		CodeLensProvider:        &protocol.CodeLensOptions{},
		DocumentLinkProvider:    &protocol.DocumentLinkOptions{},
		FoldingRangeProvider:    protocol.Boolean(true),
		CodeActionProvider: &protocol.CodeActionOptions{CodeActionKinds: []protocol.CodeActionKind{
			protocol.CodeActionKindQuickFix, protocol.CodeActionKindEmpty}},
		CompletionProvider:     &protocol.CompletionOptions{TriggerCharacters: []string{"\"", ":", " ", "[", "(", "#", "/"}},
		ExecuteCommandProvider: protocol.ExecuteCommandOptions{Commands: Commands},
		Workspace: &protocol.WorkspaceOptions{
			WorkspaceFolders: &protocol.WorkspaceFoldersServerCapabilities{Supported: &yes, ChangeNotifications: protocol.Boolean(true)},
			FileOperations: &protocol.FileOperationOptions{
				WillRename: protocol.FileOperationRegistrationOptions{Filters: []protocol.FileOperationFilter{
					md(protocol.FileOperationPatternKindFile, "**/*.{md,markdown}"),
					md(protocol.FileOperationPatternKindFolder, "**/*"),
				}},
				DidRename: protocol.FileOperationRegistrationOptions{Filters: []protocol.FileOperationFilter{
					md(protocol.FileOperationPatternKindFile, "**/*.{md,markdown}"),
					md(protocol.FileOperationPatternKindFolder, "**/*"),
				}},
			},
		},
	}
	b, err := protocol.Marshal(&caps)
	if err != nil {
		panic(fmt.Sprintf("server capabilities: %v", err))
	}
	return json.RawMessage(b)
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// onInitialized registers file watching, pulls the configuration and
// starts the background ingest of every folder.
func (s *Server) onInitialized() {
	s.flushRootNotes()
	s.goBG(func() {
		s.mu.Lock()
		caps := s.caps
		noWatcher := s.settings.NoWatcher
		s.mu.Unlock()
		if caps.Configuration {
			s.pullConfiguration()
		}
		registered := false
		if caps.DynamicWatch {
			err := s.call(s.ctx, "client/registerCapability", map[string]any{
				"registrations": []map[string]any{{
					"id":     "mrpvm-watch",
					"method": "workspace/didChangeWatchedFiles",
					"registerOptions": map[string]any{"watchers": []map[string]any{
						{"globPattern": "**/*.md"},
						{"globPattern": "**/plugin.kus.md"},
						{"globPattern": "**/plugin.json"},
						{"globPattern": "**/manifest.json"},
						{"globPattern": "**/.mrpvm/*.json"},
					}},
				}},
			}, nil)
			if err != nil {
				s.log.Warn("dynamic registration of watched files failed; using the built-in watcher", "err", err)
			} else {
				registered = true
			}
		}
		if !registered && !noWatcher {
			w, err := newWatcher(s)
			if err != nil {
				s.log.Warn("built-in watcher", "err", err)
			} else {
				s.mu.Lock()
				s.watcher = w
				for _, f := range s.folders {
					w.add(f.root)
				}
				s.mu.Unlock()
			}
		}
	})
	for _, f := range s.folderList() {
		f := f
		s.goBG(func() { s.ingestFolder(s.ctx, f, nil) })
	}
}

// closeAll stops background work and closes every folder's knowledge base.
func (s *Server) closeAll() {
	s.mu.Lock()
	folders := s.folders
	s.folders = nil
	w := s.watcher
	s.watcher = nil
	s.mu.Unlock()
	if w != nil {
		w.close()
	}
	for _, f := range folders {
		f.close()
	}
	waitTimeout(&s.bg, 10*time.Second)
}

func waitTimeout(wg *sync.WaitGroup, d time.Duration) bool {
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
		return true
	case <-time.After(d):
		return false
	}
}

// shutdownRequest answers shutdown: from now on every request but exit is
// refused; nothing is closed until exit or the end of the stream.
func (s *Server) shutdownRequest() (any, error) {
	s.mu.Lock()
	s.shutdown = true
	s.mu.Unlock()
	if s.opt.OnShutdown != nil {
		runtime.GC()
		s.opt.OnShutdown()
	}
	return nil, nil
}

// exit ends Serve; an exit without a prior shutdown makes Serve return
// ExitError.
func (s *Server) exit() {
	s.mu.Lock()
	s.exitCalled = true
	s.mu.Unlock()
	select {
	case <-s.exited:
	default:
		close(s.exited)
	}
}
