package lsp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mrpvm/mrpvm/internal/testtree"
	"github.com/mrpvm/mrpvm/test/internal/lspclient"
	"github.com/mrpvm/mrpvm/test/internal/mrpvmbin"
)

// These tests run the real `mrpvm lsp` binary as subprocesses, to cover
// what an in-process server cannot: two processes on one bbolt file, a
// process killed with SIGKILL in the middle of a write, and a $HOME of the
// test's own (the roots served for files opened without a workspace
// folder).

// mrpvmBinary builds ./cmd/mrpvm once for the package.
func mrpvmBinary(t *testing.T) string {
	t.Helper()
	bin, err := mrpvmbin.Shared()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// isolatedEnv keeps the servers away from the user's cache, configuration
// and model settings.
func isolatedEnv(t *testing.T) []string {
	home := t.TempDir()
	return []string{"HOME=" + home, "XDG_CACHE_HOME=" + filepath.Join(home, "cache"), "XDG_CONFIG_HOME=" + filepath.Join(home, "config"),
		"XDG_DATA_HOME=" + filepath.Join(home, "data"), "MRPVM_CONFIG_DIR=" + filepath.Join(home, "config", "mrpvm"),
		"MRPVM_LLM_BASE_URL=", "MRPVM_LLM_MODEL=", "MRPVM_LLM_API_KEY=", "MRPVM_LLM_API_KEY_FILE="}
}

// startServer starts the language server of binary (the mrpvm binary or a
// script that execs it) with --db db --log log and env added, and kills it
// at the end of the test if it is still running.
func startServer(t *testing.T, binary string, env []string, db, log string) *lspclient.Client {
	t.Helper()
	c, err := lspclient.Start(lspclient.Options{Binary: binary, Args: []string{"--db", db, "--log", log}, Env: env})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		select {
		case <-c.Exited():
		default:
			c.Kill()
		}
	})
	return c
}

// startProcess starts `mrpvm lsp --db db --log log` on root and initializes it.
func startProcess(t *testing.T, ctx context.Context, env []string, root, db, log string) *lspclient.Client {
	t.Helper()
	c := startServer(t, mrpvmBinary(t), env, db, log)
	if err := c.Initialize(ctx, root, nil); err != nil {
		t.Fatalf("initialize: %v; stderr: %s", err, c.Stderr())
	}
	return c
}

// procWorkspace is basic.txtar unpacked for servers run as processes,
// with a scratch folder, a knowledge base path in it and an isolated
// environment.
type procWorkspace struct {
	root, tmp, db string
	env           []string
}

func newProcWorkspace(t *testing.T) procWorkspace {
	root, tmp := unpack(t, "basic.txtar"), t.TempDir()
	return procWorkspace{root: root, tmp: tmp, db: filepath.Join(tmp, "kb.db"), env: isolatedEnv(t)}
}

// serve starts a server on the workspace (logging to log in the scratch
// folder), initializes it and waits for its first ingest to end.
func (w procWorkspace) serve(t *testing.T, ctx context.Context, log string) *lspclient.Client {
	t.Helper()
	c := startProcess(t, ctx, w.env, w.root, w.db, filepath.Join(w.tmp, log))
	waitIngestEnd(t, ctx, c)
	return c
}

func waitIngestEnd(t *testing.T, ctx context.Context, c *lspclient.Client) {
	t.Helper()
	if err := c.Wait(ctx, "the end of the ingest progress", func(n []lspclient.Note) bool {
		return !lspclient.ProgressEnd(n, "mrpvm: ingest").IsZero()
	}); err != nil {
		t.Fatal(err)
	}
}

type stats struct {
	Sources  int    `json:"sources"`
	KUs      int    `json:"kus"`
	ReadOnly bool   `json:"readOnly"`
	DBPath   string `json:"dbPath"`
}

// TestSecondServerProcess starts the binary twice on one workspace and one
// knowledge base file: the second finds the bbolt lock held, says so within
// a second, and answers hovers from a private copy; neither hangs.
func TestSecondServerProcess(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	w := newProcWorkspace(t)
	first := w.serve(t, ctx, "first.log")

	second := startProcess(t, ctx, w.env, w.root, w.db, filepath.Join(w.tmp, "second.log"))
	initialized := time.Now()
	err := second.Wait(ctx, "showMessage about the lock", func(n []lspclient.Note) bool {
		return lspclient.Count(n, "window/showMessage", "in use by another mrpvm process") > 0
	})
	if err != nil {
		t.Fatal(err)
	}
	var shown time.Time
	for _, n := range second.Notes() {
		if n.Method == "window/showMessage" {
			shown = n.At
			var p struct {
				Type int `json:"type"`
			}
			_ = json.Unmarshal(n.Params, &p)
			if p.Type != 2 {
				t.Errorf("showMessage type %d, want 2 (warning): %s", p.Type, n.Params)
			}
			break
		}
	}
	detect := shown.Sub(initialized)
	t.Logf("second server: lock reported %v after initialize", detect)
	if detect > time.Second {
		t.Errorf("the second server took %v to report the lock (want within a second)", detect)
	}

	uri := lspclient.PathToURI(filepath.Join(w.root, "glossary.md"))
	text, _ := os.ReadFile(filepath.Join(w.root, "glossary.md"))
	line, char := findIn(t, string(text), "Zeppelinite")
	h, err := second.Hover(ctx, uri, line, char+3)
	if err != nil || !strings.Contains(h, "caching tier") {
		t.Errorf("second server hover: %q %v", h, err)
	}
	var st stats
	if err := second.Command(ctx, "mrpvm.stats", nil, &st); err != nil || !st.ReadOnly || st.DBPath == w.db {
		t.Errorf("second server stats: %+v %v", st, err)
	}
	if h, err := first.Hover(ctx, uri, line, char+3); err != nil || !strings.Contains(h, "caching tier") {
		t.Errorf("first server hover: %q %v", h, err)
	}
	for _, c := range []*lspclient.Client{second, first} {
		sctx, scancel := context.WithTimeout(ctx, 10*time.Second)
		if err := c.Shutdown(sctx); err != nil {
			t.Error(err)
		}
		scancel()
	}
	if _, err := os.Stat(st.DBPath); !os.IsNotExist(err) {
		t.Errorf("the private copy %s was not removed: %v", st.DBPath, err)
	}
}

// TestKillDuringColdIngestThenRestart kills the server with SIGKILL while
// its first ingest commits, then starts it again on the same file: the
// knowledge base opens without a corruption error, the ingest completes and
// hover and mrpvm.stats answer.
func TestKillDuringColdIngestThenRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	const pages = 1500
	root := genWorkspace(t, pages)
	tmp := t.TempDir()
	db := filepath.Join(tmp, "kb.db")
	logFile := filepath.Join(tmp, "server.log")
	env := isolatedEnv(t)

	victim := startProcess(t, ctx, env, root, db, logFile)
	// Kill at the first progress report past 10%: KUs are being committed.
	err := victim.Wait(ctx, "an ingest progress report", progressAtLeast(10))
	if err != nil {
		t.Fatal(err)
	}
	if !lspclient.ProgressEnd(victim.Notes(), "mrpvm: ingest").IsZero() {
		t.Fatal("the ingest ended before the kill; make the workspace larger")
	}
	victim.Kill()

	c := startProcess(t, ctx, env, root, db, logFile)
	waitIngestEnd(t, ctx, c)
	for _, n := range c.Notes() {
		if n.Method == "window/showMessage" {
			t.Errorf("after the restart: %s", n.Params)
		}
		if n.Method == "mrpvm/didIngest" && strings.Contains(string(n.Params), `"error"`) {
			t.Errorf("ingest after the restart: %s", n.Params)
		}
	}
	var st stats
	if err := c.Command(ctx, "mrpvm.stats", nil, &st); err != nil {
		t.Fatalf("stats after the restart: %v", err)
	}
	if st.Sources < pages || st.ReadOnly || st.DBPath != db {
		t.Errorf("stats after the restart: %+v (want at least %d sources)", st, pages)
	}
	rel := filepath.Join("d07", "svc7.md")
	text, _ := os.ReadFile(filepath.Join(root, rel))
	line, char := findIn(t, string(text), "Service 7")
	if h, err := c.Hover(ctx, lspclient.PathToURI(filepath.Join(root, rel)), line, char+2); err != nil || !strings.Contains(h, "Service 7") {
		t.Errorf("hover after the restart: %q %v", h, err)
	}
	if err := c.Shutdown(ctx); err != nil {
		t.Error(err)
	}
	if b, _ := os.ReadFile(logFile); strings.Contains(strings.ToLower(string(b)), "corrupt") {
		t.Errorf("the log mentions corruption:\n%s", b)
	}
}

// TestHugeDidChange replaces an open document with 20 MB of text: the
// server stays up, answers the next requests and flags the document as too
// large to check.
func TestHugeDidChange(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	w := newProcWorkspace(t)
	c := w.serve(t, ctx, "server.log")
	uri := lspclient.PathToURI(filepath.Join(w.root, "notes", "huge.md"))
	if err := c.Open(ctx, uri, "markdown", "# Huge\n"); err != nil {
		t.Fatal(err)
	}
	line := "Zeppelinite caching tier [link](missing.md) with some more words to fill the line.\n"
	huge := "# Huge\n\n" + strings.Repeat(line, 20<<20/len(line))
	if err := c.Notify(ctx, "textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": 2},
		"contentChanges": []map[string]any{{"text": huge}},
	}); err != nil {
		t.Fatal(err)
	}
	began := time.Now()
	h, err := c.Hover(ctx, uri, 100000, 3)
	if err != nil {
		t.Fatalf("hover in the 20 MB document: %v", err)
	}
	t.Logf("hover in the 20 MB document: %v, %d bytes", time.Since(began), len(h))
	var st stats
	if err := c.Command(ctx, "mrpvm.stats", nil, &st); err != nil || st.Sources == 0 {
		t.Fatalf("stats after the 20 MB change: %+v %v", st, err)
	}
	if err := c.Wait(ctx, "doc_too_large", func(n []lspclient.Note) bool {
		return lspclient.Count(n, "textDocument/publishDiagnostics", "doc_too_large") > 0
	}); err != nil {
		t.Error(err)
	}
	if err := c.Shutdown(ctx); err != nil {
		t.Error(err)
	}
}

// TestRebuildWhileServerHoldsTheFile runs `mrpvm ingest --rebuild` on the
// knowledge base a running `mrpvm lsp` process serves: the rebuild must
// fail with kb_locked and leave the file where it is (the server keeps
// writing to it), instead of renaming it from under the server.
func TestRebuildWhileServerHoldsTheFile(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	w := newProcWorkspace(t)
	server := w.serve(t, ctx, "server.log")
	before, err := os.Stat(w.db)
	if err != nil {
		t.Fatal(err)
	}

	cmd := exec.CommandContext(ctx, mrpvmBinary(t), "ingest", "--rebuild", "--workspace", w.root, "--db", w.db)
	cmd.Env = append(os.Environ(), w.env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	if err == nil {
		t.Fatalf("ingest --rebuild succeeded while the server holds %s", w.db)
	}
	if !strings.Contains(stderr.String(), "kb_locked") {
		t.Errorf("ingest --rebuild: want kb_locked, got %q", stderr.String())
	}
	aside, _ := filepath.Glob(w.db + ".corrupt-*")
	if len(aside) > 0 {
		t.Errorf("the served file was moved aside: %v", aside)
	}
	after, err := os.Stat(w.db)
	if err != nil || !os.SameFile(before, after) {
		t.Fatalf("the served file was replaced: %v", err)
	}
	var st stats
	if err := server.Command(ctx, "mrpvm.stats", nil, &st); err != nil || st.DBPath != w.db || st.KUs == 0 {
		t.Errorf("server after the refused rebuild: %+v %v", st, err)
	}
	sctx, scancel := context.WithTimeout(ctx, 10*time.Second)
	defer scancel()
	if err := server.Shutdown(sctx); err != nil {
		t.Error(err)
	}
}

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

// homeTree writes a home folder with a loose note, a notes folder with no
// marker and a git project, and returns it.
func homeTree(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	testtree.WriteFiles(t, home, map[string]string{
		"todo.md":          "# Todo\n\nBuy milk.\n",
		"notes/a.md":       "# Alpha\n\nAlpha notes about Quillwort.\n",
		"notes/b.md":       "# Beta\n\nBeta notes.\n",
		"proj/.git/HEAD":   "ref: refs/heads/main\n",
		"proj/d.md":        "# Delta\n\nThe project readme.\n",
		"proj/docs/c.md":   "# Gamma\n\nProject docs.\n",
		"proj/.gitignore":  "drafts/\n",
		"proj/drafts/x.md": "# Draft\n",
	})
	return home
}

// startInHome starts the real server with HOME set to home and initializes
// it with the given roots (nil: a single file opened with no folder).
func startInHome(t *testing.T, ctx context.Context, home string, rootURI any, folders any, initOpts any) *lspclient.Client {
	t.Helper()
	tmp := t.TempDir()
	env := append(isolatedEnv(t), "HOME="+home)
	c := startServer(t, mrpvmBinary(t), env, filepath.Join(tmp, "kb.db"), filepath.Join(tmp, "log"))
	params := map[string]any{"processId": os.Getpid(), "rootUri": rootURI, "workspaceFolders": folders, "capabilities": lspclient.Caps()}
	if initOpts != nil {
		params["initializationOptions"] = initOpts
	}
	if err := c.Call(ctx, "initialize", params, nil); err != nil {
		t.Fatalf("initialize: %v; stderr: %s", err, c.Stderr())
	}
	if err := c.Notify(ctx, "initialized", map[string]any{}); err != nil {
		t.Fatal(err)
	}
	return c
}

// ingested returns the folder URI and file count of each mrpvm/didIngest.
func ingestedFolders(c *lspclient.Client) map[string]int {
	out := map[string]int{}
	for _, n := range c.Notes() {
		if n.Method != "mrpvm/didIngest" {
			continue
		}
		var p struct {
			Folder string `json:"folder"`
			Report *struct {
				Files     int `json:"files"`
				Unchanged int `json:"unchanged"`
			} `json:"report"`
		}
		if json.Unmarshal(n.Params, &p) == nil && p.Report != nil {
			out[p.Folder] += p.Report.Files + p.Report.Unchanged
		}
	}
	return out
}

func shownMessages(c *lspclient.Client) []string {
	var out []string
	for _, n := range c.Notes() {
		if n.Method == "window/showMessage" {
			var p struct {
				Message string `json:"message"`
			}
			_ = json.Unmarshal(n.Params, &p)
			out = append(out, p.Message)
		}
	}
	return out
}

func openFile(t *testing.T, ctx context.Context, c *lspclient.Client, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Open(ctx, lspclient.PathToURI(path), "markdown", string(b)); err != nil {
		t.Fatal(err)
	}
}

// openServed opens file and waits until folder, the folder serving it, has
// ingested something; it returns the folder's URI.
func openServed(t *testing.T, ctx context.Context, c *lspclient.Client, file, folder string) string {
	t.Helper()
	openFile(t, ctx, c, file)
	u := lspclient.PathToURI(folder)
	if err := c.Wait(ctx, "the ingest of "+filepath.Base(folder)+"/", func([]lspclient.Note) bool { return ingestedFolders(c)[u] > 0 }); err != nil {
		t.Fatal(err)
	}
	return u
}

// waitRefusal waits for the message refusing to index $HOME, which says sub.
func waitRefusal(t *testing.T, ctx context.Context, c *lspclient.Client, sub string) {
	t.Helper()
	if err := c.Wait(ctx, "a message refusing $HOME", func(n []lspclient.Note) bool {
		return lspclient.Count(n, "window/showMessage", sub) > 0
	}); err != nil {
		t.Fatal(err)
	}
}

// TestSingleFileRoots opens files with no workspace folder, HOME set to a
// temporary folder: a loose file in $HOME is not served and $HOME is never
// ingested; a file in a folder with no marker gets that folder alone (and
// the user is told); a file in a git project gets the project.
func TestSingleFileRoots(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	home := homeTree(t)
	c := startInHome(t, ctx, home, nil, nil, nil)

	openFile(t, ctx, c, filepath.Join(home, "todo.md"))
	waitRefusal(t, ctx, c, "not indexing it")

	notes := openServed(t, ctx, c, filepath.Join(home, "notes", "a.md"), filepath.Join(home, "notes"))
	if got := ingestedFolders(c)[notes]; got != 2 {
		t.Errorf("notes/ ingested %d files, want 2", got)
	}

	proj := openServed(t, ctx, c, filepath.Join(home, "proj", "docs", "c.md"), filepath.Join(home, "proj"))
	if got := ingestedFolders(c)[proj]; got != 2 {
		t.Errorf("proj/ ingested %d files, want 2 (d.md, docs/c.md; drafts/ is ignored)", got)
	}
	// A second file of a served folder adds nothing.
	openFile(t, ctx, c, filepath.Join(home, "notes", "b.md"))

	var hover string
	if err := c.Wait(ctx, "a hover from notes/", func([]lspclient.Note) bool {
		hover, _ = c.Hover(ctx, lspclient.PathToURI(filepath.Join(home, "notes", "b.md")), 0, 3)
		return hover != ""
	}); err != nil {
		t.Fatal(err)
	}

	if err := c.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if got := ingestedFolders(c); got[lspclient.PathToURI(home)] != 0 || len(got) != 2 {
		t.Errorf("ingested folders %v: only notes/ and proj/ may be", got)
	}
	msgs := shownMessages(c)
	if len(msgs) != 2 {
		t.Fatalf("messages %q: want the refusal of todo.md and the notice for notes/ only", msgs)
	}
	if !strings.Contains(msgs[0], "todo.md") || !strings.Contains(msgs[0], "your home folder") {
		t.Errorf("refusal %q", msgs[0])
	}
	if !strings.Contains(msgs[1], filepath.Join(home, "notes")+" only") {
		t.Errorf("notice %q", msgs[1])
	}
}

// TestHomeFolderRootRefused names $HOME as the workspace (an editor started
// in the home folder): it is not ingested, the user is told, and opened
// files are served from their own folders instead. The exclude setting
// applies to the folders served.
func TestHomeFolderRootRefused(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	home := homeTree(t)
	u := lspclient.PathToURI(home)
	c := startInHome(t, ctx, home, u, []map[string]any{{"uri": u, "name": "home"}}, map[string]any{"exclude": []string{"docs/"}})
	waitRefusal(t, ctx, c, "it is your home folder")
	proj := openServed(t, ctx, c, filepath.Join(home, "proj", "d.md"), filepath.Join(home, "proj"))
	if got := ingestedFolders(c); got[proj] != 1 || got[u] != 0 {
		t.Errorf("ingested %v: want proj/d.md alone (docs/ excluded by the setting) and nothing of $HOME", got)
	}
	if err := c.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
}
