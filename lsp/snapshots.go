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

	"go.lsp.dev/jsonrpc2"

	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/store"
	"github.com/mrpvm/mrpvm/vm"
	"github.com/mrpvm/mrpvm/workspace"
)

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
		change.EventType = plugin.EventKBSaved
		if a.Action == "fork" {
			if err := f.switchTo(ctx, path); err != nil {
				return nil, err
			}
			change.EventType, change.PreviousKBID, change.PreviousKBName = plugin.EventKBForked, prevID, prevName
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
		change.EventType, change.RequestedKBID, change.PreviousKBID, change.PreviousKBName = plugin.EventKBLoaded, path, prevID, prevName
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
