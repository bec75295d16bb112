package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"go.lsp.dev/jsonrpc2"

	"github.com/mrpvm/mrpvm/engine/vm"
	"github.com/mrpvm/mrpvm/ingest"
	"github.com/mrpvm/mrpvm/plugins/sdk"
	"github.com/mrpvm/mrpvm/store"
	"github.com/mrpvm/mrpvm/workspace"
)

// executeCommandParams is workspace/executeCommand's params.
type executeCommandParams struct {
	Command       string            `json:"command"`
	Arguments     []json.RawMessage `json:"arguments"`
	WorkDoneToken json.RawMessage   `json:"workDoneToken"`
}

type commandHandler func(s *Server, ctx context.Context, arg json.RawMessage, token json.RawMessage) (any, error)

var commandHandlers map[string]commandHandler

func init() {
	commandHandlers = map[string]commandHandler{
		"mrpvm.ask":     (*Server).cmdAsk,
		"mrpvm.ingest":  (*Server).cmdIngest,
		"mrpvm.plugins": (*Server).cmdPlugins,
		"mrpvm.trace":   (*Server).cmdTrace,
		"mrpvm.kb":      (*Server).cmdKB,
		"mrpvm.stats":   (*Server).cmdStats,
		"mrpvm.search":  (*Server).cmdSearch,
	}
}

func badArg(format string, args ...any) error {
	return rpcError(jsonrpc2.InvalidParams, "bad_argument", format, args...)
}

// executeCommand runs one mrpvm.* command; its argument is one JSON object.
func (s *Server) executeCommand(ctx context.Context, raw json.RawMessage) (any, error) {
	var p executeCommandParams
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "bad_params: "+err.Error())
	}
	h, ok := commandHandlers[p.Command]
	if !ok {
		return nil, rpcError(jsonrpc2.InvalidParams, "unknown_command", "%q is not a mrpvm command (have %s)", p.Command, strings.Join(Commands, ", "))
	}
	if len(p.Arguments) > 1 {
		return nil, badArg("%s takes one JSON object argument, got %d arguments", p.Command, len(p.Arguments))
	}
	arg := json.RawMessage("{}")
	if len(p.Arguments) == 1 && string(p.Arguments[0]) != "null" {
		arg = p.Arguments[0]
		if t := strings.TrimSpace(string(arg)); !strings.HasPrefix(t, "{") {
			return nil, badArg("%s takes one JSON object argument", p.Command)
		}
	}
	res, err := h(s, ctx, arg, p.WorkDoneToken)
	if errors.Is(err, store.ErrCorrupt) && !strings.HasPrefix(err.Error(), store.CodeCorrupt+":") {
		// A plugin's report of a damaged file: lead with the stable code.
		return nil, rpcError(jsonrpc2.InternalError, store.CodeCorrupt, "%v", err)
	}
	if err != nil {
		return nil, err
	}
	return marshal(res)
}

func decodeArg(arg json.RawMessage, v any) error {
	dec := json.NewDecoder(strings.NewReader(string(arg)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return badArg("%v", err)
	}
	return nil
}

// decodeInFolder decodes a command's argument into v and resolves the
// workspace folder its folder field (*folderURI, set by the decoding) names.
func (s *Server) decodeInFolder(arg json.RawMessage, v any, folderURI *string) (*folder, error) {
	if err := decodeArg(arg, v); err != nil {
		return nil, err
	}
	return s.folderByURI(*folderURI)
}

// askResult is mrpvm.ask's result: the VM's response and, when the first
// ingest of the folder was still running, how much of it was done.
type askResult struct {
	*vm.Response
	Partial *Partial `json:"partial,omitempty"`
}

// cmdAsk answers a question through the VM. While the folder's first
// ingest runs it waits for it up to the askWaitMs setting (reporting the
// ingest's progress), then answers from what is ingested and says so in
// the result's partial member. A context (a passage the user selected)
// is added to the question.
func (s *Server) cmdAsk(ctx context.Context, arg, token json.RawMessage) (any, error) {
	var a struct {
		Question  string            `json:"question"`
		Context   string            `json:"context"`
		SessionID string            `json:"sessionId"`
		Pins      map[string]string `json:"pins"`
		// Preferences set the session's preferred plugin per stage.
		Preferences map[string]string `json:"preferences"`
		Folder      string            `json:"folder"`
	}
	if err := decodeArg(arg, &a); err != nil {
		return nil, err
	}
	if strings.TrimSpace(a.Question) == "" {
		return nil, badArg("question is empty")
	}
	f, err := s.folderByURI(a.Folder)
	if err != nil {
		return nil, err
	}
	question := a.Question
	if c := strings.TrimSpace(a.Context); c != "" {
		question += "\n\nAbout this passage:\n" + clip(c, 4000)
	}
	prog := s.beginProgress(ctx, "mrpvm: ask", clip(a.Question, 80), token)
	defer prog.end("")
	partial := f.first.wait(ctx, s.askWait(), f.links.Len(), func(p *Partial) {
		prog.report(fmt.Sprintf("waiting for the first ingest: %d/%d files", p.Files, p.Of))
	})
	// partial is the state the answer starts from: sources committed
	// while it runs may or may not have been seen, so it stays partial.
	var resp *vm.Response
	err = f.withWS(ctx, func(ws *workspace.Workspace) error {
		var err error
		resp, err = ws.VM.Ask(ctx, vm.Request{Question: question, SessionID: a.SessionID, CreateSession: true, Pins: a.Pins, Preferences: a.Preferences})
		if err != nil && (resp == nil || errors.Is(err, store.ErrCorrupt)) {
			return err
		}
		if err != nil {
			// An invalid request (bad pins, bad session id) still has a response.
			return badArg("%v", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return askResult{Response: resp, Partial: partial}, nil
}

// cmdIngest ingests one file or every folder.
func (s *Server) cmdIngest(ctx context.Context, arg, token json.RawMessage) (any, error) {
	var a struct {
		URI string `json:"uri"`
	}
	if err := decodeArg(arg, &a); err != nil {
		return nil, err
	}
	total := &ingest.Report{Errors: []ingest.FileError{}, Warnings: []ingest.FileWarning{}}
	add := func(r *ingest.Report) {
		total.Files += r.Files
		total.Unchanged += r.Unchanged
		total.PluginSources += r.PluginSources
		total.Removed += r.Removed
		total.KUs += r.KUs
		total.Errors = append(total.Errors, r.Errors...)
		total.Warnings = append(total.Warnings, r.Warnings...)
	}
	start := time.Now()
	if a.URI != "" {
		path := uriToPath(a.URI)
		f := s.folderFor(path)
		if path == "" || f == nil {
			return nil, badArg("%s is in no workspace folder", a.URI)
		}
		if !within(f.root, path) {
			return nil, badArg("%s is in no workspace folder", a.URI)
		}
		var paths []string
		if path != f.root {
			paths = []string{path}
		}
		rep, err := s.ingestFolder(ctx, f, paths)
		if err != nil {
			return nil, err
		}
		add(rep)
		if paths == nil {
			<-f.linksReady
			f.scanLinks()
		} else {
			s.indexFile(path)
		}
	} else {
		fs := s.folderList()
		if len(fs) == 0 {
			return nil, rpcError(jsonrpc2.InvalidRequest, "no_workspace", "no workspace folder is open")
		}
		for _, f := range fs {
			rep, err := s.ingestFolder(ctx, f, nil)
			if err != nil {
				return nil, err
			}
			add(rep)
			// An explicit ingest may follow changes no event reported.
			<-f.linksReady
			f.scanLinks()
		}
	}
	total.Seconds = time.Since(start).Seconds()
	return total, nil
}

// cmdPlugins lists the descriptors of a folder's catalog.
func (s *Server) cmdPlugins(ctx context.Context, arg, _ json.RawMessage) (any, error) {
	var a struct {
		Folder string `json:"folder"`
	}
	f, err := s.decodeInFolder(arg, &a, &a.Folder)
	if err != nil {
		return nil, err
	}
	var out []json.RawMessage
	err = f.withWS(ctx, func(ws *workspace.Workspace) error {
		out = ws.Catalog.JSON()
		return nil
	})
	return out, err
}

// cmdTrace returns the last or a given trace.
func (s *Server) cmdTrace(ctx context.Context, arg, _ json.RawMessage) (any, error) {
	var a struct {
		RequestID string `json:"requestId"`
		Folder    string `json:"folder"`
	}
	f, err := s.decodeInFolder(arg, &a, &a.Folder)
	if err != nil {
		return nil, err
	}
	var t *vm.Trace
	err = f.withWS(ctx, func(ws *workspace.Workspace) error {
		var err error
		t, err = ws.VM.Trace(a.RequestID)
		if err != nil {
			return rpcError(jsonrpc2.InvalidParams, "no_trace", "%v", err)
		}
		return nil
	})
	return t, err
}

// statsResult is mrpvm.stats' result.
type statsResult struct {
	*store.Stats
	ReadOnly bool   `json:"readOnly"`
	Folder   string `json:"folder"`
}

// cmdStats counts a folder's sources and KUs.
func (s *Server) cmdStats(ctx context.Context, arg, _ json.RawMessage) (any, error) {
	var a struct {
		Folder string `json:"folder"`
	}
	f, err := s.decodeInFolder(arg, &a, &a.Folder)
	if err != nil {
		return nil, err
	}
	var out statsResult
	err = f.withWS(ctx, func(ws *workspace.Workspace) error {
		st, err := ws.KB.Store().Stats()
		if err != nil {
			return err
		}
		out = statsResult{Stats: st, ReadOnly: f.readOnly, Folder: pathToURI(f.root)}
		return nil
	})
	return out, err
}

var snapshotNameRe = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$`)

// ValidSnapshotName reports whether name may name a knowledge base
// snapshot (the file <name>.db in the snapshot folder): letters, digits,
// '.', '_' and '-', at most 100, no "..".
func ValidSnapshotName(name string) bool {
	return snapshotNameRe.MatchString(name) && !strings.Contains(name, "..")
}

// DefaultSnapshotDir is $XDG_DATA_HOME/mrpvm/snapshots, else
// ~/.local/share/mrpvm/snapshots.
func DefaultSnapshotDir() (string, error) {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "mrpvm", "snapshots"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("snapshot folder: %w", err)
	}
	return filepath.Join(home, ".local", "share", "mrpvm", "snapshots"), nil
}

func (s *Server) snapshotDir() (string, error) {
	s.mu.Lock()
	d := s.settings.SnapshotDir
	s.mu.Unlock()
	if d == "" {
		d = s.opt.SnapshotDir
	}
	if d == "" {
		return DefaultSnapshotDir()
	}
	return d, nil
}

// kbResult is mrpvm.kb's result.
type kbResult struct {
	Action string `json:"action"`
	Name   string `json:"name"`
	Path   string `json:"path"`
}

// cmdKB saves, loads or forks knowledge base snapshots.
func (s *Server) cmdKB(ctx context.Context, arg, _ json.RawMessage) (any, error) {
	var a struct {
		Action string `json:"action"`
		Name   string `json:"name"`
		Folder string `json:"folder"`
	}
	if err := decodeArg(arg, &a); err != nil {
		return nil, err
	}
	if !ValidSnapshotName(a.Name) {
		return nil, badArg("name %q: use letters, digits, '.', '_' and '-'", a.Name)
	}
	f, err := s.folderByURI(a.Folder)
	if err != nil {
		return nil, err
	}
	dir, err := s.snapshotDir()
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, a.Name+".db")
	res := kbResult{Action: a.Action, Name: a.Name, Path: path}
	// The knowledge base served before a load or a fork, for the event.
	var prevID, prevName string
	_ = f.withWS(ctx, func(ws *workspace.Workspace) error {
		prevID, prevName = ws.KB.Store().Path(), ws.KB.Workspace()
		return nil
	})
	change := vm.KBChange{SnapshotName: a.Name, SnapshotPath: path, Reason: "mrpvm.kb " + a.Action}
	switch a.Action {
	case "save", "fork":
		if _, err := os.Stat(path); err == nil {
			return nil, rpcError(jsonrpc2.InvalidParams, "kb_snapshot_exists", "snapshot %q already exists (%s)", a.Name, path)
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("snapshot folder: %w", err)
		}
		err := f.withWS(ctx, func(ws *workspace.Workspace) error {
			return ws.KB.Store().Snapshot(path)
		})
		if err != nil {
			return nil, rpcError(jsonrpc2.InternalError, "kb_snapshot_failed", "%v", err)
		}
		change.EventType = sdk.EventKBSaved
		if a.Action == "fork" {
			if err := f.switchTo(ctx, path); err != nil {
				return nil, err
			}
			change.EventType, change.PreviousKBID, change.PreviousKBName = sdk.EventKBForked, prevID, prevName
		}
	case "load":
		if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
			return nil, rpcError(jsonrpc2.InvalidParams, "kb_snapshot_missing", "no snapshot %q in %s", a.Name, dir)
		}
		// The folder serves a private copy (removed when it switches away or
		// closes): the editor's next save must not change the snapshot.
		tmp, err := os.CreateTemp("", "mrpvm-lsp-"+a.Name+"-*.db")
		if err != nil {
			return nil, fmt.Errorf("copy of snapshot %q: %w", a.Name, err)
		}
		copyPath := tmp.Name()
		tmp.Close()
		os.Remove(copyPath) // Snapshot writes a new file
		if err := store.CopySnapshot(path, copyPath); err != nil {
			os.Remove(copyPath)
			return nil, rpcError(jsonrpc2.InternalError, "kb_snapshot_failed", "load snapshot %q: %v", a.Name, err)
		}
		if err := f.switchToCopy(ctx, copyPath); err != nil {
			os.Remove(copyPath)
			return nil, err
		}
		change.EventType, change.RequestedKBID, change.PreviousKBID, change.PreviousKBName = sdk.EventKBLoaded, path, prevID, prevName
	default:
		return nil, badArg("action %q: want save, load or fork", a.Action)
	}
	// The kb-plugins of the knowledge base now served hear of it; a hook's
	// failure is logged and does not undo the command.
	_ = f.withWS(ctx, func(ws *workspace.Workspace) error {
		for _, e := range ws.VM.NotifyKB(ctx, change) {
			s.log.Warn("mrpvm.kb: session event", "code", e.Code, "msg", e.Message)
		}
		return nil
	})
	return res, nil
}
