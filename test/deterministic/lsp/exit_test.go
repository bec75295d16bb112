package lsp_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mrpvm/mrpvm/test/internal/lspclient"
)

// exitBound is the regression guard for how long the process may take to
// end after exit or the end of its input (editors wait for it on quit). The
// server takes a few milliseconds; the bound is generous for loaded CI
// machines and the race detector.
const exitBound = 2 * time.Second

// TestExitIsPromptAndLeavesAConsistentKnowledgeBase ends the real binary in
// the ways an editor does — shutdown then exit, the end of its input, and
// shutdown + exit in the middle of the first ingest — and checks that the
// process ends within exitBound with the right status, and that the
// knowledge base it closed opens in the next server (not as a locked copy)
// with nothing lost.
func TestExitIsPromptAndLeavesAConsistentKnowledgeBase(t *testing.T) {
	shutdownExit := func(ctx context.Context, c *lspclient.Client) (time.Time, error) {
		if err := c.Call(ctx, "shutdown", nil, nil); err != nil {
			return time.Time{}, err
		}
		t0 := time.Now()
		return t0, c.Notify(ctx, "exit", nil)
	}
	tests := []struct {
		name   string
		pages  int  // generated workspace size (0: testdata/basic.txtar)
		midWay bool // end the server during its first ingest
		end    func(ctx context.Context, c *lspclient.Client) (time.Time, error)
	}{
		{name: "shutdown and exit", end: shutdownExit},
		{name: "end of input", end: func(_ context.Context, c *lspclient.Client) (time.Time, error) {
			return time.Now(), c.CloseInput()
		}},
		{name: "shutdown and exit during the first ingest", pages: 1500, midWay: true, end: shutdownExit},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.pages > 0 && testing.Short() {
				t.Skip("short")
			}
			ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
			defer cancel()
			var root string
			if tc.pages > 0 {
				root = genWorkspace(t, tc.pages)
			} else {
				root = unpack(t, "basic.txtar")
			}
			tmp := t.TempDir()
			db := filepath.Join(tmp, "kb.db")
			logFile := filepath.Join(tmp, "server.log")
			env := isolatedEnv(t)

			c := startProcess(t, ctx, env, root, db, logFile)
			var before stats
			if tc.midWay {
				if err := c.Wait(ctx, "an ingest progress report", progressAtLeast(10)); err != nil {
					t.Fatal(err)
				}
				if !lspclient.ProgressEnd(c.Notes(), "mrpvm: ingest").IsZero() {
					t.Fatal("the ingest ended before exit; make the workspace larger")
				}
			} else {
				waitIngestEnd(t, ctx, c)
				if err := c.Command(ctx, "mrpvm.stats", nil, &before); err != nil {
					t.Fatal(err)
				}
			}

			t0, err := tc.end(ctx, c)
			if err != nil {
				t.Fatal(err)
			}
			select {
			case <-c.Exited():
			case <-time.After(30 * time.Second):
				t.Fatal("the server did not exit within 30s")
			}
			took := time.Since(t0)
			t.Logf("exit took %v", took)
			if took > exitBound {
				t.Errorf("the server took %v to exit (bound %v)", took, exitBound)
			}
			if code := c.ExitCode(); code != 0 {
				t.Errorf("exit status %d; stderr: %s", code, c.Stderr())
			}
			if b, _ := os.ReadFile(logFile); strings.Contains(string(b), "did not drain") {
				t.Errorf("the log says the connection did not drain:\n%s", b)
			}

			// The next server opens the file itself (the lock was released)
			// and finds everything the first one committed.
			next := startProcess(t, ctx, env, root, db, logFile)
			waitIngestEnd(t, ctx, next)
			var after stats
			if err := next.Command(ctx, "mrpvm.stats", nil, &after); err != nil {
				t.Fatal(err)
			}
			if after.ReadOnly || after.DBPath != db {
				t.Errorf("the next server did not open the knowledge base itself: %+v", after)
			}
			if after.Sources < before.Sources || after.Sources < tc.pages || after.KUs == 0 {
				t.Errorf("the next server finds %d sources and %d KUs, want at least %d sources", after.Sources, after.KUs, max(before.Sources, tc.pages))
			}
			if !tc.midWay && (after.Sources != before.Sources || after.KUs != before.KUs) {
				t.Errorf("before exit %d sources and %d KUs, after reopening %d and %d", before.Sources, before.KUs, after.Sources, after.KUs)
			}
			for _, n := range next.Notes() {
				if n.Method == "mrpvm/didIngest" && strings.Contains(string(n.Params), `"error"`) {
					t.Errorf("ingest after the restart: %s", n.Params)
				}
			}
			if err := next.Shutdown(ctx); err != nil {
				t.Error(err)
			}
		})
	}
}

// progressAtLeast matches a $/progress report of at least pct percent.
func progressAtLeast(pct int) func([]lspclient.Note) bool {
	return func(notes []lspclient.Note) bool {
		for _, x := range notes {
			var p struct {
				Value struct {
					Kind       string `json:"kind"`
					Percentage int    `json:"percentage"`
				} `json:"value"`
			}
			if x.Method == "$/progress" && json.Unmarshal(x.Params, &p) == nil && p.Value.Kind == "report" && p.Value.Percentage >= pct {
				return true
			}
		}
		return false
	}
}
