package workspace_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/mrpvm/mrpvm/config"
	"github.com/mrpvm/mrpvm/ingest"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins"
	_ "github.com/mrpvm/mrpvm/plugins/all"
	"github.com/mrpvm/mrpvm/workspace"
)

// problemFiles lists the files of the catalog's configuration problems
// with the given code.
func problemFiles(problems []*plugin.PluginError, code string) []string {
	var out []string
	for _, p := range problems {
		if p.Code == code {
			out = append(out, p.File)
		}
	}
	return out
}

// TestConfigurationErrorsAreCatalogProblems: each broken configuration file
// is one problem of the catalog, from Open and from LoadCatalog alike; the
// user folder is read only when given.
func TestConfigurationErrorsAreCatalogProblems(t *testing.T) {
	root, user := t.TempDir(), t.TempDir()
	wsFile := filepath.Join(root, config.WorkspaceDir, config.PluginsFile)
	userFile := filepath.Join(user, config.EngineFile)
	if err := os.CopyFS(root, fstest.MapFS{".mrpvm/plugins.json": {Data: []byte("{\n  \"plugins\": {\n    \"kb-fast\": {\"enabled\": true},\n  }\n}\n")}}); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(user, fstest.MapFS{"engine.json": {Data: []byte("{,}\n")}}); err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		name string
		user config.UserFolder
		want []string
	}{
		{"no user folder", config.UserFolder{}, []string{wsFile}},
		{"user folder", config.UserFolderAt(user), []string{wsFile, userFile}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := workspace.Options{Root: root, DBPath: filepath.Join(t.TempDir(), "kb.db"), UserDir: tc.user, NoLLM: true}
			w, err := workspace.Open(o)
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			if got := problemFiles(w.Catalog.Problems, config.CodeSyntax); !slices.Equal(got, tc.want) {
				t.Errorf("Open: syntax problems in %v, want %v", got, tc.want)
			}
			c := workspace.LoadCatalog(o)
			defer c.Close()
			if got := problemFiles(c.Problems, config.CodeSyntax); !slices.Equal(got, tc.want) {
				t.Errorf("LoadCatalog: syntax problems in %v, want %v", got, tc.want)
			}
		})
	}
}

// TestSourcesFromAreIngested: a source made from the loaded catalog is
// read by the next ingest beside Options.Virtual, with the kb-plugins
// attached.
func TestSourcesFromAreIngested(t *testing.T) {
	root := t.TempDir()
	if err := os.CopyFS(root, fstest.MapFS{"a.md": {Data: []byte("# A\n\nQuokkas are marsupials.\n")}}); err != nil {
		t.Fatal(err)
	}
	w, err := workspace.Open(workspace.Options{Root: root, DBPath: filepath.Join(t.TempDir(), "kb.db"), NoLLM: true, NoWrappers: true,
		Virtual: []ingest.VirtualSource{{ID: "story/one.md", Name: "one.md", Text: []byte("# One\n\nWombats dig burrows.\n")}},
		SourcesFrom: func(*plugins.Catalog) []ingest.VirtualSource {
			return []ingest.VirtualSource{{ID: "story/two.md", Name: "two.md", Text: []byte("# Two\n\nNumbats eat termites.\n")}}
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if _, err := w.KB.Ingest(context.Background(), ingest.RunOptions{}); err != nil {
		t.Fatal(err)
	}
	srcs, err := w.KB.Store().Sources()
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	plugins := 0
	for _, s := range srcs {
		if strings.HasPrefix(s.SourceID, "plugin::") {
			plugins++
			continue
		}
		ids = append(ids, s.SourceID)
	}
	slices.Sort(ids)
	if want := []string{"a.md", "story/one.md", "story/two.md"}; !slices.Equal(ids, want) {
		t.Errorf("sources %v, want %v", ids, want)
	}
	if plugins == 0 {
		t.Error("the built-ins' plugin.kus.md are not sources")
	}
	// The kb-plugins stay the ingest hooks: the added source is searchable.
	for _, p := range w.Catalog.Registry.KBPlugins() {
		res, err := p.Retrieve(context.Background(), plugin.RunContext{}, &plugin.RetrieveInput{
			Payload: plugin.Payload{Prompt: "numbats termites"}, MaxResults: 5, Purpose: plugin.PurposeMixed, KUs: w.KB.Store()})
		if err != nil {
			t.Fatalf("%s: %v", p.Descriptor().ID, err)
		}
		found := false
		for _, ri := range res.ResolvedIntents {
			for _, k := range slices.Concat(ri.Evidence, ri.Guidance) {
				found = found || k.KU.SourceID == "story/two.md"
			}
		}
		if !found {
			t.Errorf("%s does not find the added source", p.Descriptor().ID)
		}
	}
}
