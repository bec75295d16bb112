package vm

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/ingest"
	"github.com/mrpvm/mrpvm/internal/testtree"
	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
)

// TestPreferLibrary: a question that names one of the workspace's
// libraries gets that library's best unit first when another library's
// unit came first; without a named library, or with the first unit from
// the named one, the order stays.
func TestPreferLibrary(t *testing.T) {
	m, kb := setup(t, nil)
	testtree.WriteFiles(t, kb.Workspace(), map[string]string{
		"gin/README.md":  "# Gin\n\nServing static files.\n",
		"gin/docs.md":    "# Docs\n\nRoutes.\n",
		"mux/README.md":  "# Mux\n\nStatic files.\n",
		"mux/example.md": "# Example\n\nA router.\n",
		"notes.md":       "# Notes\n\nNotes.\n",
		"todo.md":        "# Todo\n\nTodo.\n",
		"faq.md":         "# FAQ\n\nQuestions.\n",
	})
	_, err := kb.Ingest(context.Background(), ingest.RunOptions{})
	require.NoError(t, err)
	r := &run{m: m, trace: &Trace{}}
	unit := func(source string, score float64) plugin.ScoredKU {
		return plugin.ScoredKU{KU: &kus.KU{ID: source + "::0", SourceID: source}, Score: score}
	}
	ev := []plugin.ScoredKU{unit("mux/README.md", 1), unit("notes.md", 0.8), unit("gin/README.md", 0.6)}
	sources := func(ev []plugin.ScoredKU) []string {
		var out []string
		for _, e := range ev {
			out = append(out, e.KU.SourceID)
		}
		return out
	}

	got := r.preferLibrary("How do I serve static files with gin?", ev)
	assert.Equal(t, []string{"gin/README.md", "mux/README.md", "notes.md"}, sources(got))
	assert.Equal(t, 1.0, got[0].Score, "the unit put first scores as the one it displaced")

	assert.Equal(t, sources(ev), sources(r.preferLibrary("How do I serve static files?", ev)), "no library named")
	assert.Equal(t, sources(ev), sources(r.preferLibrary("How do I serve static files with gin or mux?", ev)), "the first unit's library is named too")
	notLib := []plugin.ScoredKU{unit("notes.md", 1), unit("gin/README.md", 0.6)}
	assert.Equal(t, sources(notLib), sources(r.preferLibrary("gin notes", notLib)), "the first unit is of no library")
}
