package vm_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/ingest"
	"github.com/mrpvm/mrpvm/internal/testtree"
	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/llm"
	"github.com/mrpvm/mrpvm/llm/llmtest"
	_ "github.com/mrpvm/mrpvm/plugins/all"
	"github.com/mrpvm/mrpvm/vm"
	"github.com/mrpvm/mrpvm/workspace"
)

// notesCNL is what the test model makes of notes/paris.md: one valid KU
// with a symbolic fact, and a runaway one (its claim over
// kus.MaxUnitTextBytes) that the SOP interpreter admits and that must not be
// stored.
var notesCNL = "```\n" + `@k1 ku atomic "notes/paris.md::0::0"
@k2 set $k1 sourceId notes/paris.md
@k3 set $k1 chunkId notes/paris.md::chunk-000
@k4 set $k1 role Definition
@k5 set $k1 topic "Paris"
@k6 set $k1 claim "Paris is part of France."
@k7 set $k1 symbolicSubject Paris
@k8 set $k1 symbolicRelation part_of
@k9 set $k1 symbolicObject France
@k10 ku atomic "notes/paris.md::0::1"
@k11 set $k10 sourceId notes/paris.md
@k12 set $k10 chunkId notes/paris.md::chunk-000
@k13 set $k10 role Narrative
@k14 set $k10 topic "Seine"
@k15 set $k10 claim "The Seine flows through it.` + strings.Repeat(" And on", kus.MaxUnitTextBytes/7) + `"
` + "```"

const (
	notesText = "# Paris\n\nParis is part of France. The Seine flows through it.\n"
	docsText  = "# Readme\n\n## Install\n\nRun the installer.\n"
)

func ingestWorkspace(t *testing.T) string {
	t.Helper()
	ws := t.TempDir()
	testtree.WriteFiles(t, ws, map[string]string{
		"notes/paris.md":      notesText,
		"docs/readme.md":      docsText,
		".mrpvm/plugins.json": `{"ingest": [{"glob": "notes/**", "seedDetector": "sd-llm-fast"}]}`,
	})
	return ws
}

func unitsOf(t *testing.T, kb *ingest.KB, sourceID string) []*kus.KU {
	t.Helper()
	rec, err := kb.Store().Source(sourceID)
	require.NoError(t, err)
	require.NotNil(t, rec, sourceID)
	var out []*kus.KU
	for _, id := range rec.UnitIDs {
		u, err := kb.Store().KU(id)
		require.NoError(t, err)
		require.NotNil(t, u, id)
		out = append(out, u)
	}
	return out
}

func warningCodes(rep *ingest.Report, path string) []string {
	var out []string
	for _, w := range rep.Warnings {
		if strings.HasSuffix(filepath.ToSlash(w.Path), path) {
			out = append(out, w.Code)
		}
	}
	return out
}

func parsed(t *testing.T, id, text string) []string {
	t.Helper()
	doc, err := kus.Parse([]byte(text), kus.SourceInfo{SourceID: id, SourceName: filepath.Base(id)})
	require.NoError(t, err)
	var ids []string
	for _, u := range doc.Units {
		ids = append(ids, u.ID)
	}
	return ids
}

func ids(units []*kus.KU) []string {
	var out []string
	for _, u := range units {
		out = append(out, u.ID)
	}
	return out
}

// TestIngestThroughSeedDetectors: plugins.json's ingest hands notes/** to
// sd-llm-fast while the rest is read by sd-symbolic (the Markdown reader).
// With a model endpoint the detector's KUs are stored after validation
// (an invalid one is dropped with a warning); without one, or when the
// model's answer cannot be admitted, the file is read by sd-symbolic with
// a warning.
func TestIngestThroughSeedDetectors(t *testing.T) {
	cases := []struct {
		name  string
		model func(llmtest.Request) llmtest.Reply // nil: no endpoint
		// wantNotes are the KU ids stored for notes/paris.md besides its
		// source summary; nil: the Markdown reader's.
		wantNotes []string
		warnings  []string // codes of notes/paris.md's warnings
		calls     int      // chat requests the model receives
	}{
		{
			name:      "llm detector",
			model:     func(llmtest.Request) llmtest.Reply { return llmtest.Text(notesCNL) },
			wantNotes: []string{"notes/paris.md::0::0"},
			warnings:  []string{kus.CodeTextTooLarge},
			calls:     1,
		},
		{name: "no endpoint", warnings: []string{vm.CodeDetectorSkipped}},
		{
			name:     "inadmissible answer",
			model:    func(llmtest.Request) llmtest.Reply { return llmtest.Text("@k1 ku atomic") },
			warnings: []string{vm.CodeDetectorFailed},
			calls:    2, // one call plus the corrective retry
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, k := range []string{llm.EnvBaseURL, llm.EnvModel, llm.EnvAPIKey, llm.EnvAPIKeyFile} {
				t.Setenv(k, "")
			}
			var srv *llmtest.Server
			if tc.model != nil {
				srv = llmtest.New(t)
				srv.Handle(tc.model)
				for k, v := range srv.Env() {
					t.Setenv(k, v)
				}
			}
			ws := ingestWorkspace(t)
			w, err := workspace.Open(workspace.Options{Root: ws, DBPath: filepath.Join(t.TempDir(), "kb.db"), NoWrappers: true})
			require.NoError(t, err)
			defer w.Close()
			rep, err := w.KB.Ingest(context.Background(), ingest.RunOptions{})
			require.NoError(t, err)
			require.False(t, rep.Failed(), "%+v", rep.Errors)

			// docs/ is never sent to the model and keeps the Markdown
			// reader's hierarchy.
			assert.Equal(t, parsed(t, "docs/readme.md", docsText), ids(unitsOf(t, w.KB, "docs/readme.md")))
			assert.Empty(t, warningCodes(rep, "docs/readme.md"))

			notes := unitsOf(t, w.KB, "notes/paris.md")
			if tc.wantNotes == nil {
				assert.Equal(t, parsed(t, "notes/paris.md", notesText), ids(notes))
			} else {
				require.NotEmpty(t, notes)
				assert.Equal(t, kus.LevelSummary, notes[0].Level)
				assert.Equal(t, tc.wantNotes, ids(notes[1:]))
				assert.Equal(t, "France", notes[1].SymbolicObject)
				assert.Equal(t, []string{"notes/paris.md::0::0"}, notes[0].ChildUnitIDs, "the dropped unit is no child")
			}
			assert.Equal(t, tc.warnings, warningCodes(rep, "notes/paris.md"))
			if srv != nil {
				reqs := srv.Requests()
				assert.Len(t, reqs, tc.calls)
				for _, r := range reqs {
					assert.True(t, r.Contains("Source id: notes/paris.md"))
					assert.False(t, r.Contains("Run the installer"), "docs/ went to the model")
				}
			}
		})
	}
}

// TestIngestDefaultIsTheMarkdownReader: with no ingest rule every file goes
// through sd-symbolic, whose normalizePersistentContext is the Markdown
// reader: the stored KUs are the reader's, field for field.
func TestIngestDefaultIsTheMarkdownReader(t *testing.T) {
	w := openIngested(t, map[string]string{"a.md": docsText})
	doc, err := kus.Parse([]byte(docsText), kus.SourceInfo{SourceID: "a.md", SourceName: "a.md"})
	require.NoError(t, err)
	got := unitsOf(t, w.KB, "a.md")
	require.Len(t, got, len(doc.Units))
	for i, u := range doc.Units {
		assert.Equal(t, u.Hash, got[i].Hash, u.ID)
		assert.True(t, slices.Equal(u.ChildUnitIDs, got[i].ChildUnitIDs), u.ID)
	}
}

// openIngested writes files into a new workspace, opens it with the
// built-in plugins, no model and no wrappers, and ingests it; the workspace
// is closed when the test ends.
func openIngested(t *testing.T, files map[string]string) *workspace.Workspace {
	t.Helper()
	ws := t.TempDir()
	testtree.WriteFiles(t, ws, files)
	w, err := workspace.Open(workspace.Options{Root: ws, DBPath: filepath.Join(t.TempDir(), "kb.db"), NoWrappers: true, NoLLM: true})
	require.NoError(t, err)
	t.Cleanup(func() { w.Close() })
	_, err = w.KB.Ingest(context.Background(), ingest.RunOptions{})
	require.NoError(t, err)
	return w
}
