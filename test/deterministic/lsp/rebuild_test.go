package lsp_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRebuildWhileServerHoldsTheFile runs `mrpvm ingest --rebuild` on the
// knowledge base a running `mrpvm lsp` process serves: the rebuild must
// fail with kb_locked and leave the file where it is (the server keeps
// writing to it), instead of renaming it from under the server.
func TestRebuildWhileServerHoldsTheFile(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	root := unpack(t, "basic.txtar")
	tmp := t.TempDir()
	db := filepath.Join(tmp, "kb.db")
	env := isolatedEnv(t)
	server := startProcess(t, ctx, env, root, db, filepath.Join(tmp, "server.log"))
	waitIngestEnd(t, ctx, server)
	before, err := os.Stat(db)
	if err != nil {
		t.Fatal(err)
	}

	cmd := exec.CommandContext(ctx, mrpvmBinary(t), "ingest", "--rebuild", "--workspace", root, "--db", db)
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	if err == nil {
		t.Fatalf("ingest --rebuild succeeded while the server holds %s", db)
	}
	if !strings.Contains(stderr.String(), "kb_locked") {
		t.Errorf("ingest --rebuild: want kb_locked, got %q", stderr.String())
	}
	aside, _ := filepath.Glob(db + ".corrupt-*")
	if len(aside) > 0 {
		t.Errorf("the served file was moved aside: %v", aside)
	}
	after, err := os.Stat(db)
	if err != nil || !os.SameFile(before, after) {
		t.Fatalf("the served file was replaced: %v", err)
	}
	var st stats
	if err := server.Command(ctx, "mrpvm.stats", nil, &st); err != nil || st.DBPath != db || st.KUs == 0 {
		t.Errorf("server after the refused rebuild: %+v %v", st, err)
	}
	sctx, scancel := context.WithTimeout(ctx, 10*time.Second)
	defer scancel()
	if err := server.Shutdown(sctx); err != nil {
		t.Error(err)
	}
}
