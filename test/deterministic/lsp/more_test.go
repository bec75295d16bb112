package lsp_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// diagnosticsFor returns the last published diagnostics for a URI.
func (e *editor) diagnosticsFor(u string) (codes []string, ok bool) {
	for _, n := range e.Notes() {
		if n.Method != "textDocument/publishDiagnostics" {
			continue
		}
		var p struct {
			URI         string `json:"uri"`
			Diagnostics []struct {
				Code  string `json:"code"`
				Range struct {
					Start struct{ Line int } `json:"start"`
				} `json:"range"`
			} `json:"diagnostics"`
		}
		_ = json.Unmarshal(n.Params, &p)
		if p.URI != u {
			continue
		}
		ok = true
		codes = codes[:0]
		for _, d := range p.Diagnostics {
			codes = append(codes, d.Code+"@"+itoa(d.Range.Start.Line))
		}
	}
	return codes, ok
}

func TestDiagnostics(t *testing.T) {
	e := start(t, "basic.txtar", editorOptions{})
	u := e.uri("plugins/demo/plugin.json")
	bad := "{\n  \"id\": \"Demo Plugin\",\n  \"type\": \"kb-plugin\",\n  \"version\": \"1.0.0\"\n}\n"
	e.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": u, "languageId": "json", "version": 1, "text": bad}})
	e.waitFor("diagnostics for plugin.json", 5*time.Second, func([]note) bool { _, ok := e.diagnosticsFor(u); return ok })
	codes, _ := e.diagnosticsFor(u)
	if !strings.Contains(strings.Join(codes, ","), "descriptor_bad_id@1") {
		t.Errorf("plugin.json diagnostics: %v", codes)
	}
	// Broken relative links in Markdown are hints.
	mu := e.uri("links.md")
	e.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": mu, "languageId": "markdown", "version": 1,
		"text": "# Links\n\nSee [ok](README.md) and [gone](missing/page.md).\n"}})
	e.waitFor("diagnostics for links.md", 5*time.Second, func([]note) bool { _, ok := e.diagnosticsFor(mu); return ok })
	codes, _ = e.diagnosticsFor(mu)
	if strings.Join(codes, ",") != "broken_link@2" {
		t.Errorf("link diagnostics: %v", codes)
	}
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
	var stats struct {
		ReadOnly bool   `json:"readOnly"`
		DBPath   string `json:"dbPath"`
	}
	if err := second.command("mrpvm.stats", nil, &stats); err != nil || !stats.ReadOnly || stats.DBPath == first.db {
		t.Errorf("second server stats: %+v %v", stats, err)
	}
	// The first server is unaffected.
	if got := first.hover("glossary.md", "Zeppelinite", 3); !strings.Contains(got, "caching tier") {
		t.Errorf("first server hover: %q", got)
	}
}

func TestCompletion(t *testing.T) {
	e := start(t, "basic.txtar", editorOptions{})
	labels := func(uri, text string, line, char int) string {
		e.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "x", "version": 1, "text": text}})
		var items []struct {
			Label string `json:"label"`
		}
		e.mustCall("textDocument/completion", map[string]any{"textDocument": map[string]any{"uri": uri},
			"position": map[string]any{"line": line, "character": char}}, &items)
		var out []string
		for _, it := range items {
			out = append(out, it.Label)
		}
		return "," + strings.Join(out, ",") + ","
	}
	kus := e.uri("plugins/demo/plugin.kus.md")
	if got := labels(kus, "## Context Unit\nRole: ", 1, 6); !strings.Contains(got, ",Procedure,") || !strings.Contains(got, ",Definition,") {
		t.Errorf("Role values: %s", got)
	}
	if got := labels(kus, "## Context Unit\nPhaseScopes: ", 1, 13); !strings.Contains(got, ",gs-plugin,") {
		t.Errorf("PhaseScopes values: %s", got)
	}
	if got := labels(kus, "## Context Unit\n", 1, 0); !strings.Contains(got, ",UtilityActs,") {
		t.Errorf("field names: %s", got)
	}
	pj := e.uri("plugins/demo/plugin.json")
	if got := labels(pj, "{\n  \"costClass\": ", 1, 15); !strings.Contains(got, ",cheap,") {
		t.Errorf("costClass values: %s", got)
	}
	if got := labels(pj, "{\n  \"type\": ", 1, 10); !strings.Contains(got, ",kb-plugin,") {
		t.Errorf("type values: %s", got)
	}
	if got := labels(e.uri("README.md"), "# x\n", 0, 1); got != ",," {
		t.Errorf("completion in plain Markdown: %s", got)
	}
}
