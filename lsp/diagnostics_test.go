package lsp

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/mrpvm/mrpvm/config"
	"github.com/mrpvm/mrpvm/internal/testtree"
	"github.com/mrpvm/mrpvm/markdown/links"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins"
	"github.com/mrpvm/mrpvm/workspace"
)

// TestComputeDiagnostics checks every document kind against
// testdata/diagnostics/*.txtar: the first file is the document under test
// (written with the others into a temporary folder; user/ is the user
// configuration folder), "want" lists code@line (0-based LSP lines).
func TestComputeDiagnostics(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "diagnostics", "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata: %v", err)
	}
	known := map[string]plugin.PluginType{}
	for _, b := range plugins.Builtins() {
		known[b.Descriptor.ID] = b.Descriptor.Type
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			a, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			root := t.TempDir()
			userDir := filepath.Join(root, "user")
			t.Setenv("MRPVM_CONFIG_DIR", userDir)
			var docPath, docText, want string
			for _, f := range a.Files {
				if f.Name == "want" {
					want = strings.TrimSpace(string(f.Data))
					continue
				}
				p := filepath.Join(root, filepath.FromSlash(f.Name))
				testtree.WriteFile(t, p, string(f.Data))
				if docPath == "" {
					docPath, docText = p, string(f.Data)
				}
			}
			if !diagnosable(docPath) && want != "" {
				t.Fatalf("%s is not diagnosable", docPath)
			}
			allow, userErrs := workspace.UserAllowlist(config.UserFolderAt(userDir))
			env := diagEnv{known: known, userDir: userDir, userAllow: allow, userErrs: userErrs}
			var got []string
			if diagnosable(docPath) {
				for _, d := range computeDiagnostics(docPath, docText, env) {
					if d.Code == "" || d.Message == "" || d.Source != "mrpvm" || d.Severity < 1 || d.Severity > 4 {
						t.Errorf("malformed diagnostic %+v", d)
					}
					got = append(got, d.Code+"@"+strconv.Itoa(int(d.Range.Start.Line)))
				}
			}
			if g := strings.Join(got, "\n"); g != want {
				t.Errorf("diagnostics of %s:\ngot:\n%s\nwant:\n%s", filepath.Base(docPath), g, want)
			}
		})
	}
}

// TestDiagnosticsTooLarge: a huge document gets one hint, quickly.
func TestDiagnosticsTooLarge(t *testing.T) {
	text := strings.Repeat("# big\n\n[x](missing.md)\n", MaxDiagnosedBytes/20)
	d := computeDiagnostics("/nowhere/big.md", text, diagEnv{})
	if len(d) != 1 || d[0].Code != "doc_too_large" {
		t.Fatalf("got %+v", d)
	}
}

func TestSOPBlocks(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []int // fence lines of sop blocks
	}{
		{"```sop\n@a x\n```\n", []int{0}},
		{"   ```sop extra\n@a x\n   ```\n", []int{0}},
		{"    ```sop\n@a x\n```\n", nil}, // indented code, not a fence
		{"````sop\n```\n@a x\n````\n", []int{0}},
		{"```go\n```sop\n```\n```sop\n```", []int{3}},
		{"```sop\n@a x\n", []int{0}}, // unclosed: to the end
		{"~~~SOP\n~~~\n", []int{0}},
	} {
		var got []int
		for _, b := range sopBlocks(tc.text) {
			got = append(got, b.line)
		}
		if len(got) != len(tc.want) {
			t.Errorf("%q: fences %v, want %v", tc.text, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%q: fences %v, want %v", tc.text, got, tc.want)
			}
		}
	}
}

// TestPluginDiagnosticsNameTheStage: a plugin problem shown in the editor
// says at which stage (load, validate, ...) it was found.
func TestPluginDiagnosticsNameTheStage(t *testing.T) {
	dir := t.TempDir()
	cases := []struct{ path, text, code, stage string }{
		{filepath.Join(dir, "p", "plugin.json"), "{\n  \"id\": \"kb-x\",\n  \"type\": \"kb\"\n}\n", "descriptor_bad_type", "(stage validate)"},
		{filepath.Join(dir, "wrappers", "w", "manifest.json"), "{\n  \"id\": \"w\",\n  \"type\": \"theme-plugin\",\n  \"protocolVersion\": 1,\n  \"command\": \"sh\"\n}\n", "unknown_plugin_type", "(stage validate)"},
	}
	for _, tc := range cases {
		found := false
		for _, d := range computeDiagnostics(tc.path, tc.text, diagEnv{}) {
			if d.Code == tc.code {
				found = true
				if !strings.HasSuffix(d.Message, tc.stage) {
					t.Errorf("%s: %q does not end with %q", tc.code, d.Message, tc.stage)
				}
			}
		}
		if !found {
			t.Errorf("%s: no %s diagnostic", tc.path, tc.code)
		}
	}
}

// TestLinkDiagnosticsDoNotReindex checks that diagnosing a document the
// folder's link index does not hold leaves the index as it was: its text
// may have been read just before the file was deleted, and a deleted file
// put back into the index would keep the links to it from breaking.
func TestLinkDiagnosticsDoNotReindex(t *testing.T) {
	root := t.TempDir()
	ix := links.New(root)
	ix.Update("README.md", "# Readme\n\nSee [the guide](guide.md).\n")
	diags := linkDiagnostics(filepath.Join(root, "guide.md"), "# Guide\n\n[x](#none)\n", ix)
	if len(diags) != 1 || diags[0].Code != links.CodeBrokenAnchor {
		t.Fatalf("diagnostics of guide.md = %+v, want one %s", diags, links.CodeBrokenAnchor)
	}
	if ix.File("guide.md") != nil {
		t.Fatal("diagnosing guide.md added it to the folder's link index")
	}
	if p := ix.Problems("README.md"); len(p) != 1 || p[0].Code != links.CodeBrokenLink {
		t.Fatalf("README.md's problems = %+v, want its link to the unindexed guide.md broken", p)
	}
}
