// Package tldr checks that how-to questions about the tldr-pages workspace
// (pages/common, 4,612 real Markdown files) are answered from the right page.
package tldr

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/ingest"
	_ "github.com/mrpvm/mrpvm/plugins/all"
	"github.com/mrpvm/mrpvm/test/internal/tldrpages"
	"github.com/mrpvm/mrpvm/vm"
	"github.com/mrpvm/mrpvm/workspace"
)

type question struct {
	Q    string `json:"q"`
	Page string `json:"page"`
}

// TestHowToQuestionsFindTheRightPage asks every question of questions.json
// (the development set, which retrieval and the solver were tuned on) and
// of heldout.json (written afterwards and never tuned on) and requires the
// right page as the first source of the answer. Both figures are logged.
func TestHowToQuestionsFindTheRightPage(t *testing.T) {
	if testing.Short() {
		t.Skip("ingests 4,612 files")
	}
	ws := t.TempDir()
	n := tldrpages.ExtractCommon(t, ws)
	require.Greater(t, n, 4000)

	w, err := workspace.Open(workspace.Options{Root: ws, DBPath: filepath.Join(t.TempDir(), "kb.db"), NoWrappers: true, NoLLM: true})
	require.NoError(t, err)
	defer w.Close()
	_, err = w.KB.Ingest(context.Background(), ingest.RunOptions{})
	require.NoError(t, err)

	for _, set := range []struct {
		file  string
		floor float64
	}{
		// The issue asks for 90% on the development set; the floor sits a
		// question below so that CI flags a slide without flapping.
		{"questions.json", 0.85},
		// Held out: written after the development set; one round of
		// changes looked at its misses. Measured, reported, kept from
		// sliding back.
		{"heldout.json", 0.5},
		// Fresh: written last and never tuned on; the honest figure for
		// how-to questions phrased in the user's own words.
		{"fresh.json", 0.2},
	} {
		var qs []question
		b, err := os.ReadFile(set.file)
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal(b, &qs))
		require.GreaterOrEqual(t, len(qs), 25)
		hits := 0
		for _, q := range qs {
			resp, err := w.VM.Ask(context.Background(), vm.Request{Question: q.Q})
			require.NoError(t, err)
			first := ""
			switch {
			case len(resp.Evidence) > 0:
				first = resp.Evidence[0].SourceID
			case len(resp.Context) > 0:
				first = resp.Context[0].SourceID
			}
			if first == q.Page {
				hits++
			} else {
				t.Logf("%s miss: %q -> %q (want %s, status %s)", set.file, q.Q, first, q.Page, resp.Status)
			}
		}
		rate := float64(hits) / float64(len(qs))
		t.Logf("tldr-pages %s: right page first for %d/%d questions (%.1f%%)", set.file, hits, len(qs), 100*rate)
		require.GreaterOrEqual(t, rate, set.floor, set.file)
	}
}
