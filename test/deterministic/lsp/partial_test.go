package lsp_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mrpvm/mrpvm/internal/testtree"
)

// genArchivers writes pages about archivers that sort before tar.md, so an
// alphabetical ingest reaches tar.md last.
func genArchivers(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	write := func(name, text string) { testtree.WriteFile(t, filepath.Join(root, name), text) }
	for i := 0; i < 40; i++ {
		write(fmt.Sprintf("a%02d.md", i), fmt.Sprintf("# arc%d\n\n> Archiver number %d.\n\n- Extract an archive into a directory:\n\n`arc%d x {{archive}} -o {{directory}}`\n", i, i, i))
	}
	write("tar.md", "# tar\n\n> Archiving utility.\n> Often combined with a compression method, such as gzip or bzip2.\n\n"+
		"- Extract a tar archive into a specific directory:\n\n`tar xf {{path/to/source.tar}} -C {{path/to/directory}}`\n")
	return root
}

// holdFirstIngest returns a hook that holds the first ingest after its
// first committed source until release is called, and a channel closed
// when it is held.
func holdFirstIngest(t *testing.T) (hook func(done, total int), held chan struct{}, release func()) {
	held = make(chan struct{})
	gate := make(chan struct{})
	var heldOnce, releaseOnce sync.Once
	release = func() { releaseOnce.Do(func() { close(gate) }) }
	t.Cleanup(release)
	hook = func(done, total int) {
		if done == 1 {
			heldOnce.Do(func() { close(held) })
			<-gate
		}
	}
	return hook, held, release
}

// TestAskDuringFirstIngest asks while the first ingest is held after the
// open document (ingested first): the answer comes from it and says the
// knowledge base is partial, and so does the hover; once the ingest has
// finished nothing is marked.
func TestAskDuringFirstIngest(t *testing.T) {
	root := genArchivers(t)
	hook, held, release := holdFirstIngest(t)
	tarText, _ := os.ReadFile(filepath.Join(root, "tar.md"))
	e := start(t, "", editorOptions{root: root, noWait: true, firstIngestHook: hook,
		initOpts: map[string]any{"askWaitMs": 0},
		beforeInitialized: func(e *editor) {
			e.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": e.uri("tar.md"), "languageId": "markdown", "version": 1, "text": string(tarText)}})
		}})
	select {
	case <-held:
	case <-time.After(20 * time.Second):
		t.Fatal("the first ingest never committed a source")
	}
	var r askReply
	q := map[string]any{"question": "How do I extract a tar archive into a specific directory?"}
	if err := e.command("mrpvm.ask", q, &r); err != nil {
		t.Fatal(err)
	}
	if r.Partial == nil || r.Partial.Files != 1 || r.Partial.Of != 41 {
		t.Errorf("answer during the first ingest: partial %+v", r.Partial)
	}
	if len(r.Evidence) == 0 || r.Evidence[0].SourceID != "tar.md" {
		t.Errorf("the open document was not ingested first: %+v", r.Evidence)
	}
	if h := e.hover("tar.md", "tar\n", 1); !strings.Contains(h, "Archiving utility") || !strings.Contains(h, "(indexing 1/41)") {
		t.Errorf("hover during the first ingest: %q", h)
	}
	release()
	e.waitIngest("", 20*time.Second)
	r = askReply{}
	if err := e.command("mrpvm.ask", q, &r); err != nil {
		t.Fatal(err)
	}
	if r.Partial != nil {
		t.Errorf("answer after the first ingest is marked partial: %+v", r.Partial)
	}
	if h := e.hover("tar.md", "tar\n", 1); strings.Contains(h, "indexing") {
		t.Errorf("hover after the first ingest: %q", h)
	}
}

// TestAskWaitsForTheFirstIngest: with askWaitMs set, a question asked
// during the first ingest reports that it waits (progress) and is answered
// in full once the ingest ends.
func TestAskWaitsForTheFirstIngest(t *testing.T) {
	root := genArchivers(t)
	hook, held, release := holdFirstIngest(t)
	e := start(t, "", editorOptions{root: root, noWait: true, firstIngestHook: hook,
		initOpts: map[string]any{"askWaitMs": 60000}})
	<-held
	type result struct {
		r   askReply
		err error
	}
	done := make(chan result, 1)
	go func() {
		var r askReply
		err := e.command("mrpvm.ask", map[string]any{"question": "How do I extract a tar archive?"}, &r)
		done <- result{r, err}
	}()
	e.waitFor("a progress report that the question waits", 20*time.Second, func(n []note) bool {
		for _, x := range n {
			if x.Method == "$/progress" && strings.Contains(string(x.Params), "waiting for the first ingest") {
				return true
			}
		}
		return false
	})
	release()
	res := <-done
	if res.err != nil {
		t.Fatal(res.err)
	}
	if res.r.Partial != nil {
		b, _ := json.Marshal(res.r)
		t.Errorf("the answer after waiting is marked partial: %s", b)
	}
}

// TestAskDuringFirstIngestTldr opens tar.md of a cold tldr-pages common
// workspace (4,600 pages; 7z.md, ar.md and others sort before it) and asks
// how to extract a tar archive into a directory while the first ingest
// runs: held after its first source, then racing it. Every answer is from
// tar.md or says it is partial; none is wrong and unmarked.
func TestAskDuringFirstIngestTldr(t *testing.T) {
	if testing.Short() {
		t.Skip("unpacks tldr-pages")
	}
	root := tldrCommon(t)
	hook, held, release := holdFirstIngest(t)
	tarText, err := os.ReadFile(filepath.Join(root, "tar.md"))
	if err != nil {
		t.Fatal(err)
	}
	e := start(t, "", editorOptions{root: root, noWait: true, firstIngestHook: hook,
		initOpts: map[string]any{"askWaitMs": 0},
		beforeInitialized: func(e *editor) {
			e.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": e.uri("tar.md"), "languageId": "markdown", "version": 1, "text": string(tarText)}})
		}})
	defer release()
	select {
	case <-held:
	case <-time.After(60 * time.Second):
		t.Fatal("the first ingest never committed a source")
	}
	q := map[string]any{"question": "How do I extract a tar archive into a specific directory?"}
	ask := func(when string) askReply {
		t.Helper()
		var r askReply
		if err := e.command("mrpvm.ask", q, &r); err != nil {
			t.Fatalf("%s: %v", when, err)
		}
		fromTar := len(r.Evidence) > 0 && r.Evidence[0].SourceID == "tar.md"
		if !fromTar && r.Partial == nil {
			t.Errorf("%s: answered from %+v without saying the knowledge base is partial", when, r.Evidence)
		}
		return r
	}
	r := ask("held after the first source")
	if r.Partial == nil || r.Partial.Files != 1 || len(r.Evidence) == 0 || r.Evidence[0].SourceID != "tar.md" {
		t.Errorf("held after the first source: partial %+v, evidence %+v", r.Partial, r.Evidence)
	}
	release()
	for i := 0; i < 3; i++ {
		ask(fmt.Sprintf("racing the ingest (%d)", i))
	}
}
