package lsp_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestAskOnDamagedDatabase damages a real knowledge base in the middle at
// several pages and asks through the language server: every failure is a
// kb_corrupt error with the rebuild hint, never a handler panic, and the
// server keeps answering.
func TestAskOnDamagedDatabase(t *testing.T) {
	e := start(t, "basic.txtar", editorOptions{})
	root, db := e.root, e.db
	e.close()
	clean, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	const page = 4096
	pages := len(clean) / page
	failures := 0
	for i := 1; i < 16; i++ {
		// Four pages from here on (pages 0 and 1 are bbolt's checksummed
		// meta pages), past their headers: the page layout of an ingest
		// varies with the order its parse workers finish in.
		off := (2+(pages-6)*i/16)*page + 100
		b := append([]byte(nil), clean...)
		for p := 0; p < 4; p++ {
			for j := off + p*page; j < off+p*page+200; j++ {
				b[j] = 0xff
			}
		}
		bad := filepath.Join(t.TempDir(), "bad.db")
		if err := os.WriteFile(bad, b, 0o644); err != nil {
			t.Fatal(err)
		}
		e := start(t, "", editorOptions{root: root, db: bad, noWait: true})
		for _, c := range []struct {
			name string
			arg  any
		}{
			{"mrpvm.ask", map[string]any{"question": "How do I roll back a deployment?"}},
			{"mrpvm.stats", nil},
			{"mrpvm.ingest", nil},
		} {
			var res any
			err := e.command(c.name, c.arg, &res)
			if err == nil {
				continue
			}
			failures++
			msg := err.Error()
			if strings.Contains(msg, "panicked") || !hasCode(err, "kb_corrupt") && !hasCode(err, "kb_unavailable") ||
				!strings.Contains(msg, "kb_corrupt") || !strings.Contains(msg, "mrpvm ingest --rebuild") {
				t.Errorf("offset %d: %s: want kb_corrupt with the rebuild hint, got %v", off, c.name, err)
			}
		}
		var res any
		if err := e.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": e.uri("README.md")},
			"position": map[string]any{"line": 0, "character": 2}}, &res); err != nil && strings.Contains(err.Error(), "panicked") {
			t.Errorf("offset %d: hover: %v", off, err)
		}
		e.close()
	}
	if failures < 2 {
		t.Errorf("only %d commands noticed the damage", failures)
	}
	t.Logf("%d commands reported kb_corrupt", failures)
}

// TestSecondServerOnTheSameKnowledgeBase runs two servers on one workspace
// and one db file: the second finds the file locked within about a second,
// serves from a private copy and says so.
func TestSecondServerOnTheSameKnowledgeBase(t *testing.T) {
	first := start(t, "basic.txtar", editorOptions{})
	began := time.Now()
	second := start(t, "", editorOptions{root: first.root, db: first.db})
	if d := time.Since(began); d > 8*time.Second {
		t.Errorf("second server took %v", d)
	}
	second.waitFor("showMessage about the lock", 5*time.Second, func(n []note) bool {
		for _, x := range n {
			if x.Method == "window/showMessage" && strings.Contains(string(x.Params), "in use by another mrpvm process") {
				return true
			}
		}
		return false
	})
	if got := second.hover("glossary.md", "Zeppelinite", 3); !strings.Contains(got, "caching tier") {
		t.Errorf("second server hover: %q", got)
	}
	var st stats
	if err := second.command("mrpvm.stats", nil, &st); err != nil || !st.ReadOnly || st.DBPath == first.db {
		t.Errorf("second server stats: %+v %v", st, err)
	}
	// The first server is unaffected.
	if got := first.hover("glossary.md", "Zeppelinite", 3); !strings.Contains(got, "caching tier") {
		t.Errorf("first server hover: %q", got)
	}
}
