package vm

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCorpusReadsASourceOncePerRequest: within one request the source text
// is read and checked once; a later request sees the file as it is then.
func TestCorpusReadsASourceOncePerRequest(t *testing.T) {
	m, kb := setupIngested(t, map[string]string{"a.md": "# A\n\nFirst text.\n"})
	path := filepath.Join(kb.Workspace(), "a.md")

	c := m.newCorpus(context.Background())
	first := c.SourceText("a.md")
	require.Contains(t, string(first), "First text.")
	require.NoError(t, os.WriteFile(path, []byte("# A\n\nChanged since.\n"), 0o644))
	require.Equal(t, first, c.SourceText("a.md"), "read again within the request")
	require.Nil(t, m.newCorpus(context.Background()).SourceText("a.md"), "a new request sees the changed, not yet ingested file")
}
