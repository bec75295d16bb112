package ingest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/mrpvm/mrpvm/internal/testtree"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/store"
	"github.com/mrpvm/mrpvm/store/storetest"
)

// writeWorkspace writes a txtar archive into a new temporary folder.
func writeWorkspace(t *testing.T, archive string) string { return testtree.Write(t, archive) }

// recordingHook remembers the events it sees and can be told to fail.
type recordingHook struct {
	id      string
	mu      sync.Mutex
	events  []string
	failFor string
}

func (h *recordingHook) HookID() string { return h.id }

func (h *recordingHook) OnSource(_ context.Context, ev *plugin.SourceText) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if ev.SourceID == h.failFor {
		return errors.New("index refused")
	}
	kind := "upsert"
	if ev.Removed {
		kind = "remove"
	}
	h.events = append(h.events, kind+" "+ev.SourceID)
	if !ev.Removed {
		// The hook's namespace and the committed KUs are both reachable.
		if err := ev.KV.Put([]byte("src/"+ev.SourceID), []byte(fmt.Sprint(len(ev.Doc.Units)))); err != nil {
			return err
		}
		u, err := ev.KUs.KU(ev.Doc.Units[0].ID)
		if err != nil || u == nil {
			return fmt.Errorf("KU %s not readable in the transaction: %v", ev.Doc.Units[0].ID, err)
		}
	} else if err := ev.KV.Delete([]byte("src/" + ev.SourceID)); err != nil {
		return err
	}
	return nil
}

func (h *recordingHook) take() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := h.events
	h.events = nil
	sort.Strings(out)
	return out
}

// openKB opens a knowledge base for a test (in a new temporary file unless
// opt names one) and closes it when the test ends.
func openKB(t testing.TB, opt Options) *KB {
	t.Helper()
	if opt.DBPath == "" && opt.Store == nil {
		opt.DBPath = filepath.Join(t.TempDir(), "kb.db")
	}
	kb, err := Open(opt)
	require.NoError(t, err)
	t.Cleanup(func() { kb.Close() })
	return kb
}

func openTestKB(t *testing.T, ws string, hooks ...SourceHook) *KB {
	t.Helper()
	return openKB(t, Options{Workspace: ws, Hooks: hooks})
}

// reopen closes kb and opens its file again with opt (its workspace and
// file unless opt names others).
func reopenWith(t *testing.T, kb *KB, opt Options) *KB {
	t.Helper()
	require.NoError(t, kb.Close())
	if opt.Workspace == "" {
		opt.Workspace = kb.Workspace()
	}
	if opt.DBPath == "" {
		opt.DBPath = kb.Store().Path()
	}
	return openKB(t, opt)
}

func reopen(t *testing.T, kb *KB, hooks ...SourceHook) *KB {
	t.Helper()
	return reopenWith(t, kb, Options{Hooks: hooks})
}

func ingest(t *testing.T, kb *KB) *Report {
	t.Helper()
	rep, err := kb.Ingest(context.Background(), RunOptions{})
	require.NoError(t, err)
	problems, err := kb.Store().Verify()
	require.NoError(t, err)
	require.Empty(t, problems)
	return rep
}

const basicWorkspace = `
-- README.md --
# Project

Intro paragraph.

## Usage

Run it.
-- docs/guide.md --
# Guide

The guide explains things.
-- docs/.hidden/secret.md --
# Hidden
-- node_modules/pkg/readme.md --
# Vendored
-- build/out.md --
# Ignored by gitignore
-- notes.txt --
not markdown
-- .gitignore --
build/
-- sub/.gitignore --
draft*.md
-- sub/draft1.md --
# Draft
-- sub/final.md --
# Final
`

// bump moves a file's mtime forward so size+mtime change detection sees it.
func bump(t *testing.T, path string) {
	t.Helper()
	info, err := os.Stat(path)
	require.NoError(t, err)
	next := info.ModTime().Add(2 * time.Second)
	require.NoError(t, os.Chtimes(path, next, next))
}

// allText returns every stored KU's title and text, joined.
func allText(t *testing.T, kb *KB) string {
	t.Helper()
	srcs, err := kb.Store().Sources()
	require.NoError(t, err)
	var b strings.Builder
	for _, s := range srcs {
		units, err := kb.Store().SourceKUs(s.SourceID)
		require.NoError(t, err)
		for _, u := range units {
			b.WriteString(u.Title + "\n" + u.Text() + "\n")
		}
	}
	return b.String()
}

func sourceIDs(t *testing.T, kb *KB) []string {
	t.Helper()
	srcs, err := kb.Store().Sources()
	require.NoError(t, err)
	var ids []string
	for _, s := range srcs {
		if !strings.HasPrefix(s.SourceID, "plugin::") {
			ids = append(ids, s.SourceID)
		}
	}
	return ids
}

// codesByPath maps each reported path's base name to its code.
func codesByPath(rep *Report) map[string]string {
	out := map[string]string{}
	for _, e := range rep.Errors {
		out[filepath.Base(e.Path)] = e.Code
	}
	return out
}

func symlinkOrSkip(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
}

func writeFile(t *testing.T, path, text string) { testtree.WriteFile(t, path, text) }

// txID is the id of the file's last committed transaction.
func txID(t *testing.T, path string) int {
	t.Helper()
	db, err := bolt.Open(path, 0o644, &bolt.Options{ReadOnly: true, Timeout: time.Second})
	require.NoError(t, err)
	defer db.Close()
	var id int
	require.NoError(t, db.View(func(tx *bolt.Tx) error { id = tx.ID(); return nil }))
	return id
}

// dump returns every key and value of the file, read from a snapshot.
func dump(t *testing.T, s *store.Store) map[string]string {
	t.Helper()
	snap := filepath.Join(t.TempDir(), "snap.db")
	require.NoError(t, s.Snapshot(snap))
	return storetest.Dump(t, snap)
}

// fileStats returns the size and mtime of every source, by source id.
func fileStats(s *store.Store) (map[string]store.FileStat, error) {
	list, err := s.FileStats()
	if err != nil {
		return nil, err
	}
	out := make(map[string]store.FileStat, len(list))
	for _, e := range list {
		out[e.SourceID] = e
	}
	return out, nil
}

// twoFiles is a workspace of two small files.
const twoFiles = "-- a.md --\n# A\n\nalpha\n-- b.md --\n# B\n\nbeta\n"

// ingestedTwoFiles writes twoFiles into a new workspace, opens its
// knowledge base and ingests it once.
func ingestedTwoFiles(t *testing.T) (string, *KB) {
	t.Helper()
	ws := writeWorkspace(t, twoFiles)
	kb := openTestKB(t, ws)
	ingest(t, kb)
	return ws, kb
}

// requireOneError checks that a run reported exactly one issue, of code.
func requireOneError(t *testing.T, rep *Report, code string) {
	t.Helper()
	require.Len(t, rep.Errors, 1)
	assert.Equal(t, code, rep.Errors[0].Code)
}

// sourceRecord returns the stored record of a source (nil when none is).
func sourceRecord(t *testing.T, kb *KB, id string) *store.SourceRecord {
	t.Helper()
	rec, err := kb.Store().Source(id)
	require.NoError(t, err)
	return rec
}
