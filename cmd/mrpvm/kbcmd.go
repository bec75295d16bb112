package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/mrpvm/mrpvm/lsp"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/store"
	"github.com/mrpvm/mrpvm/vm"
)

// kbCmdResult is what `mrpvm kb` prints with --json.
type kbCmdResult struct {
	Action string `json:"action"`
	Name   string `json:"name"`
	// Snapshot is the snapshot file saved, loaded or forked to.
	Snapshot string `json:"snapshot"`
	// KB is the knowledge base file the workspace uses afterwards (the
	// fork's file for fork).
	KB string `json:"kb"`
	// Previous is where the knowledge base a load replaced was kept.
	Previous string `json:"previous,omitempty"`
	// HookProblems are the kb-plugins' session hook timeouts and failures.
	HookProblems []vm.StageError `json:"hookProblems"`
}

func init() {
	var dir string
	group := &cobra.Command{
		Use:   "kb",
		Short: "Save, load or fork knowledge base snapshots, as the editor's mrpvm.kb command does",
		Long: `kb manages snapshots of the workspace's knowledge base, in the same
folder as the editor's mrpvm.kb command ($XDG_DATA_HOME/mrpvm/snapshots or
~/.local/share/mrpvm/snapshots unless --snapshot-dir says otherwise). Every
enabled kb-plugin is told (kb-saved, kb-loaded, kb-forked), once per stored
session with its committed KUs.

  save NAME   copy the knowledge base to the snapshot NAME
  load NAME   make the workspace's knowledge base a copy of the snapshot NAME;
              the snapshot itself never changes, and the file it replaces is
              kept next to it as <file>.before-load
  fork NAME   copy the knowledge base to the snapshot NAME and continue on it:
              later commands use it when given --db with the printed path`,
	}
	group.PersistentFlags().StringVar(&dir, "snapshot-dir", "", "the snapshot folder (default: the editor's)")
	for _, action := range []string{"save", "load", "fork"} {
		group.AddCommand(&cobra.Command{
			Use: action + " NAME",
			Short: map[string]string{"save": "Copy the knowledge base to a snapshot", "load": "Replace the knowledge base with a copy of a snapshot",
				"fork": "Copy the knowledge base to a snapshot and continue on the copy"}[action],
			Args: cobra.ExactArgs(1),
			RunE: func(cmd *cobra.Command, args []string) error {
				res, err := runKB(cmd.Context(), action, args[0], dir)
				if err != nil {
					return err
				}
				for _, p := range res.HookProblems {
					warnf("%s: %s", p.Code, p.Message)
				}
				if flags.json {
					return printJSON(os.Stdout, res)
				}
				switch action {
				case "save":
					termf(os.Stdout, "saved %s: %s\n", res.Name, res.Snapshot)
				case "load":
					termf(os.Stdout, "loaded %s into %s (the previous knowledge base is %s)\n", res.Name, res.KB, res.Previous)
				case "fork":
					termf(os.Stdout, "forked to %s: %s\ncontinue on it with --db %s\n", res.Name, res.KB, res.KB)
				}
				return nil
			},
		})
	}
	rootCmd.AddCommand(group)
}

// runKB saves, loads or forks the snapshot name in dir ("" : the editor's
// snapshot folder) and tells the kb-plugins of the knowledge base in use
// afterwards.
func runKB(ctx context.Context, action, name, dir string) (*kbCmdResult, error) {
	if !lsp.ValidSnapshotName(name) {
		return nil, fmt.Errorf("snapshot name %q: use letters, digits, '.', '_' and '-'", name)
	}
	if dir == "" {
		var err error
		if dir, err = lsp.DefaultSnapshotDir(); err != nil {
			return nil, err
		}
	}
	snap := filepath.Join(dir, name+".db")
	res := &kbCmdResult{Action: action, Name: name, Snapshot: snap, HookProblems: []vm.StageError{}}
	a, err := openKB(ctx, kbOptions{quiet: true})
	if err != nil {
		return nil, err
	}
	defer func() {
		if a != nil {
			a.Close()
		}
	}()
	cur, ws := a.kb.Store().Path(), a.kb.Workspace()
	change := vm.KBChange{SnapshotName: name, SnapshotPath: snap, Reason: "mrpvm kb " + action}
	switch action {
	case "save", "fork":
		if _, err := os.Stat(snap); err == nil {
			return nil, fmt.Errorf("snapshot %q already exists (%s)", name, snap)
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("snapshot folder: %w", err)
		}
		if err := a.kb.Store().Snapshot(snap); err != nil {
			return nil, err
		}
		res.KB = cur
		change.EventType = plugin.EventKBSaved
		if action == "fork" {
			res.KB = snap
			change.EventType, change.PreviousKBID, change.PreviousKBName = plugin.EventKBForked, cur, ws
		}
	case "load":
		if _, err := os.Stat(snap); errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("no snapshot %q in %s", name, dir)
		}
		// The copy is made and checked before the knowledge base is
		// touched; the file it replaces is kept.
		tmp := cur + ".loading"
		os.Remove(tmp)
		if err := store.CopySnapshot(snap, tmp); err != nil {
			os.Remove(tmp)
			return nil, fmt.Errorf("load snapshot %q: %w", name, err)
		}
		if err := a.Close(); err != nil {
			os.Remove(tmp)
			return nil, err
		}
		a = nil
		prev := cur + ".before-load"
		if err := os.Rename(cur, prev); err != nil {
			os.Remove(tmp)
			return nil, fmt.Errorf("keep the previous knowledge base: %w", err)
		}
		if err := os.Rename(tmp, cur); err != nil {
			return nil, errors.Join(fmt.Errorf("load snapshot %q: %w", name, err), os.Rename(prev, cur))
		}
		res.KB, res.Previous = cur, prev
		change.EventType, change.RequestedKBID, change.PreviousKBID, change.PreviousKBName = plugin.EventKBLoaded, snap, prev, ws
	default:
		return nil, fmt.Errorf("kb %s: want save, load or fork", action)
	}
	if res.KB != cur || a == nil {
		// The kb-plugins of the knowledge base now in use hear of it.
		if a != nil {
			a.Close()
		}
		db := flags.db
		flags.db = res.KB
		a, err = openKB(ctx, kbOptions{quiet: true})
		flags.db = db
		if err != nil {
			return nil, err
		}
	}
	res.HookProblems = append(res.HookProblems, a.vm.NotifyKB(ctx, change)...)
	return res, nil
}
