package lsp_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mrpvm/mrpvm/internal/testtree"
	"github.com/mrpvm/mrpvm/test/internal/lspclient"
)

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
