//go:build unix

package ingest

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/internal/testtree"
)

// ingestWithin runs a full ingest and fails the test when it does not end
// within a generous bound (the failure guarded against is hanging forever).
func ingestWithin(t *testing.T, kb *KB) *Report {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type res struct {
		rep *Report
		err error
	}
	ch := make(chan res, 1)
	go func() { rep, err := kb.Ingest(ctx, RunOptions{}); ch <- res{rep, err} }()
	select {
	case r := <-ch:
		require.NoError(t, r.err)
		return r.rep
	case <-time.After(30 * time.Second):
		t.Fatal("ingest hangs")
		return nil
	}
}

// TestIngestSpecialFiles commits .gitignore files that are a symlink to
// /dev/zero, a FIFO and an oversized file, and Markdown names that are a
// FIFO and a link to /dev/zero: ingest ends, reports each with its code
// and ingests the rest.
func TestIngestSpecialFiles(t *testing.T) {
	ws := writeWorkspace(t, "-- a.md --\n# A\n\nalpha\n-- fifo/b.md --\n# B\n\nbeta\n-- big/c.md --\n# C\n\ngamma\n")
	if testtree.LinkDevZero(t, filepath.Join(ws, ".gitignore")) {
		testtree.Link(t, "/dev/zero", filepath.Join(ws, "zero.md"))
	}
	testtree.FIFO(t, filepath.Join(ws, "fifo", ".gitignore"))
	testtree.FIFO(t, filepath.Join(ws, "pipe.md"))
	big := append(bytes.Repeat([]byte("#x\n"), (1<<20)/3), "\nc.md\n"...)
	require.NoError(t, os.WriteFile(filepath.Join(ws, "big", ".gitignore"), big, 0o644))

	kb := openTestKB(t, ws)
	rep := ingestWithin(t, kb)
	assert.ElementsMatch(t, []string{"a.md", "big/c.md", "fifo/b.md"}, sourceIDs(t, kb))
	assert.False(t, rep.Failed(), "%v", rep.Errors)
	var got []string
	for _, e := range rep.Errors {
		rel, _ := filepath.Rel(ws, e.Path)
		got = append(got, filepath.ToSlash(rel)+" "+e.Code)
	}
	want := []string{"fifo/.gitignore " + CodeNotRegular, "big/.gitignore " + CodeTooLarge, "pipe.md " + CodeNotRegular}
	if _, err := os.Stat("/dev/zero"); err == nil {
		want = append(want, ".gitignore "+CodeOutsideRoot, "zero.md "+CodeOutsideRoot)
	}
	assert.ElementsMatch(t, want, got)

	// A saved FIFO (the language server's path) is refused, not read.
	rep, err := kb.Ingest(context.Background(), RunOptions{Only: []string{filepath.Join(ws, "pipe.md")}})
	require.NoError(t, err)
	requireOneError(t, rep, CodeNotRegular)
}

// TestIngestFileTurnedFIFO replaces an ingested file by a FIFO between
// runs: the read does not block, the file is reported and dropped.
func TestIngestFileTurnedFIFO(t *testing.T) {
	ws, kb := ingestedTwoFiles(t)
	b := filepath.Join(ws, "b.md")
	kb.readFile = func(path string, limit int64) ([]byte, error) {
		if path == b { // turned into a FIFO after the walk saw a file
			os.Remove(path)
			if err := syscall.Mkfifo(path, 0o644); err != nil {
				return nil, err
			}
		}
		return readCapped(path, limit)
	}
	require.NoError(t, os.WriteFile(b, []byte("# B\n\nchanged\n"), 0o644))
	bump(t, b)
	rep := ingestWithin(t, kb)
	require.Len(t, rep.Errors, 1, "%v", rep.Errors)
	assert.Equal(t, CodeNotRegular, rep.Errors[0].Code)
	assert.Equal(t, []string{"a.md"}, sourceIDs(t, kb))
}

// TestIngestNonUTF8Names skips a file and a folder whose names are not
// valid UTF-8, naming the raw bytes quoted, and stores no source id with
// replacement characters.
func TestIngestNonUTF8Names(t *testing.T) {
	ws := writeWorkspace(t, "-- a.md --\n# A\n\nalpha\n")
	bad := filepath.Join(ws, "bad\xff.md")
	if err := os.WriteFile(bad, []byte("# Bad\n\nBADNAME\n"), 0o644); err != nil {
		t.Skipf("the file system refuses names that are not UTF-8: %v", err)
	}
	require.NoError(t, os.MkdirAll(filepath.Join(ws, "dir\xfe"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(ws, "dir\xfe", "c.md"), []byte("# C\n\nINBADDIR\n"), 0o644))
	kb := openTestKB(t, ws)
	rep := ingest(t, kb)
	assert.Equal(t, []string{"a.md"}, sourceIDs(t, kb))
	require.Len(t, rep.Errors, 2, "%v", rep.Errors)
	var msgs []string
	for _, e := range rep.Errors {
		assert.Equal(t, CodeNameNotUTF8, e.Code)
		msgs = append(msgs, e.Message)
	}
	assert.Contains(t, msgs[0]+msgs[1], `"bad\xff.md"`)
	assert.Contains(t, msgs[0]+msgs[1], `"dir\xfe"`)

	rep, err := kb.Ingest(context.Background(), RunOptions{Only: []string{bad}})
	require.NoError(t, err)
	requireOneError(t, rep, CodeNameNotUTF8)
	assert.Equal(t, []string{"a.md"}, sourceIDs(t, kb))
}
