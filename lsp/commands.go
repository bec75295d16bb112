package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"go.lsp.dev/jsonrpc2"

	"github.com/mrpvm/mrpvm/store"
	"github.com/mrpvm/mrpvm/vm"
	"github.com/mrpvm/mrpvm/workspace"
)

// Commands lists the workspace/executeCommand ids.
var Commands = []string{"mrpvm.ask", "mrpvm.search", "mrpvm.ingest", "mrpvm.plugins", "mrpvm.trace", "mrpvm.kb", "mrpvm.stats"}

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

// folderArg resolves the folder of a command whose only argument is the
// workspace folder ({"folder": uri}).
func (s *Server) folderArg(arg json.RawMessage) (*folder, error) {
	var a struct {
		Folder string `json:"folder"`
	}
	return s.decodeInFolder(arg, &a, &a.Folder)
}

// cmdPlugins lists the descriptors of a folder's catalog.
func (s *Server) cmdPlugins(ctx context.Context, arg, _ json.RawMessage) (any, error) {
	f, err := s.folderArg(arg)
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
	f, err := s.folderArg(arg)
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
