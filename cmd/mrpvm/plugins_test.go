package main

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mrpvm/mrpvm/internal/testtree"
	"github.com/mrpvm/mrpvm/plugins"
)

func TestPluginsCheckCommand(t *testing.T) {
	dir := t.TempDir()
	testtree.WriteFile(t, filepath.Join(dir, "bad", "plugin.json"), "{\n  \"id\": \"kb-x\",\n  \"type\": \"kb\",\n  \"description\": \"Retrieves.\",\n  \"costClass\": \"cheap\"\n}\n")
	testtree.WriteFile(t, filepath.Join(dir, "bad", "plugin.kus.md"), "## Context Unit plugin::kb-x::unit-000\nSourceId: plugin::kb-x\nChunkId: plugin::kb-x::chunk-000\nRole: Definition\nTopic: kb-x\nClaim: kb-x retrieves.\nUtilityActs: define\nPhaseScopes: kb-plugin, nowhere\n")

	out, err := runCLI(t, "plugins", "check", "../../plugins/kb/kb-fast", "../../plugins/val/val-llm")
	if err != nil || !strings.HasPrefix(out, "ok: ") {
		t.Errorf("check of built-in folders: %q %v", out, err)
	}

	out, err = runCLI(t, "plugins", "check", filepath.Join(dir, "bad"))
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != 1 {
		t.Fatalf("check of a bad folder: err %v", err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	want := []string{
		filepath.Join(dir, "bad", "plugin.json") + ":3: descriptor_bad_type: ",
		filepath.Join(dir, "bad", "plugin.kus.md") + ":8: plugin_kus_invalid: ku_bad_phase_scope: ",
	}
	if len(lines) != len(want) {
		t.Fatalf("output %q", out)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("line %d: %q, want prefix %q", i, lines[i], w)
		}
	}

	out, err = runCLI(t, "plugins", "check", "--json", filepath.Join(dir, "bad"))
	var problems []struct {
		Code string `json:"code"`
		File string `json:"file"`
		Line int    `json:"line"`
	}
	if jerr := json.Unmarshal([]byte(out), &problems); jerr != nil || len(problems) != 2 || problems[0].Line != 3 || err == nil {
		t.Errorf("json: %q %v %v", out, jerr, err)
	}
}

func TestPluginsListCommand(t *testing.T) {
	t.Setenv("MRPVM_CONFIG_DIR", t.TempDir())
	ws := t.TempDir()
	testtree.WriteFile(t, filepath.Join(ws, ".mrpvm", "plugins.json"), `{"plugins": {"gs-llm-deep": {"enabled": false}}}`)
	testtree.WriteFile(t, filepath.Join(ws, "wrappers", "mine", "manifest.json"),
		`{"id": "mine", "description": "A wrapper nobody allowlisted.", "protocolVersion": 1, "command": "sh"}`)

	out, err := runCLI(t, "plugins", "--json", "--workspace", ws)
	if err != nil {
		t.Fatalf("plugins --json: %v", err)
	}
	var list []map[string]any
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatalf("%v in %q", err, out)
	}
	if want := len(plugins.Builtins()) + 1; len(list) != want {
		t.Errorf("%d entries, want %d: the built-ins and the wrapper", len(list), want)
	}
	byID := map[string]map[string]any{}
	for _, d := range list {
		byID[d["id"].(string)] = d
		for _, k := range []string{"type", "description", "costClass", "usesLLM", "maxLLMCalls", "enabled", "origin"} {
			if _, ok := d[k]; !ok {
				t.Errorf("%v lacks %s", d["id"], k)
			}
		}
	}
	if byID["gs-llm-deep"]["enabled"] != false || byID["kb-fast"]["enabled"] != true {
		t.Errorf("enabled flags: %v / %v", byID["gs-llm-deep"]["enabled"], byID["kb-fast"]["enabled"])
	}
	if w := byID["mine"]; w == nil || w["origin"] != "wrapper" || w["loaded"] != false || w["type"] != "gs-plugin" {
		t.Errorf("wrapper entry %v", w)
	}

	out, err = runCLI(t, "plugins", "--workspace", ws)
	if err != nil || !strings.Contains(out, "kb-balanced") || !strings.Contains(out, "mine (wrapper)") {
		t.Errorf("table: %q %v", out, err)
	}
}

// TestUnsafeWorkspaceRefused checks that the home folder is not ingested
// unless --force is given or it holds a .mrpvm folder.
func TestUnsafeWorkspaceRefused(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("MRPVM_CONFIG_DIR", filepath.Join(t.TempDir(), "cfg"))
	if err := os.WriteFile(filepath.Join(home, "todo.md"), []byte("# Todo\n\nBuy milk.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "kb.db")
	_, err := runCLI(t, "ingest", "--workspace", home, "--db", db)
	if err == nil || !strings.Contains(err.Error(), "unsafe_workspace") || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("ingest of $HOME: %v", err)
	}
	if _, err := os.Stat(db); err == nil {
		t.Fatal("the knowledge base was created")
	}
	out, err := runCLI(t, "ingest", "--workspace", home, "--db", db, "--force")
	if err != nil || !strings.Contains(out, "ingested 1 files") {
		t.Fatalf("ingest --force: %v %s", err, out)
	}
}

// TestUnknownWrapperTypeIsSkippedWithAWarning: a wrapper whose type is a
// family this build does not know is skipped with a structured warning
// that names the stage; `mrpvm plugins` still succeeds.
func TestUnknownWrapperTypeIsSkippedWithAWarning(t *testing.T) {
	t.Setenv("MRPVM_CONFIG_DIR", t.TempDir())
	ws := t.TempDir()
	testtree.WriteFile(t, filepath.Join(ws, ".mrpvm", "engine.json"), `{"pluginAllowlist": ["theme-helper"]}`)
	testtree.WriteFile(t, filepath.Join(ws, "wrappers", "future", "manifest.json"),
		"{\n  \"id\": \"theme-helper\",\n  \"type\": \"theme-plugin\",\n  \"description\": \"A family from a newer protocol.\",\n  \"protocolVersion\": 1,\n  \"command\": \"sh\"\n}\n")
	out, stderr, err := runSearchCLI(t, "plugins", "--workspace", ws)
	if err != nil {
		t.Fatalf("plugins exited with %v; stderr %q", err, stderr)
	}
	if !strings.Contains(out, "kb-balanced") {
		t.Errorf("table: %q", out)
	}
	var line string
	for _, l := range strings.Split(stderr, "\n") {
		if strings.Contains(l, "unknown_plugin_type") {
			line = l
		}
	}
	if !strings.HasPrefix(line, "mrpvm: warning: ") || !strings.Contains(line, "manifest.json:3: ") ||
		!strings.Contains(line, "stage validate") || !strings.Contains(line, "theme-helper") {
		t.Errorf("warning line %q in %q", line, stderr)
	}
}

// TestProblemLinesNameTheStage: every problem line of `plugins check`
// ends with the stage where the problem was found.
func TestProblemLinesNameTheStage(t *testing.T) {
	dir := t.TempDir()
	testtree.WriteFile(t, filepath.Join(dir, "bad", "plugin.json"), "{\n  \"id\": \"kb-x\",\n  \"type\": \"kb\",\n  \"description\": \"Retrieves.\",\n  \"costClass\": \"cheap\"\n}\n")
	out, _ := runCLI(t, "plugins", "check", filepath.Join(dir, "bad"))
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if !strings.Contains(l, "stage ") {
			t.Errorf("line without its stage: %q", l)
		}
	}
}
