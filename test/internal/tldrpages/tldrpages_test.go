package tldrpages

import (
	"archive/tar"
	"compress/gzip"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestExtractWritesOnlyTheChosenPlatforms(t *testing.T) {
	archive := filepath.Join(t.TempDir(), "pages.tar.gz")
	f, err := os.Create(archive)
	require.NoError(t, err)
	gz := gzip.NewWriter(f)
	tw := tar.NewWriter(gz)
	for name, body := range map[string]string{
		"./pages/common/tail.md":   "# tail",
		"pages/linux/free.md":      "# free",
		"pages/osx/say.md":         "# say",
		"pages/common/sub/deep.md": "# nested",
		"pages/common/notes.txt":   "not a page",
	} {
		require.NoError(t, tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg}))
		_, err := tw.Write([]byte(body))
		require.NoError(t, err)
	}
	require.NoError(t, tw.WriteHeader(&tar.Header{Name: "pages/common/link.md", Linkname: "/etc/passwd", Typeflag: tar.TypeSymlink}))
	require.NoError(t, tw.Close())
	require.NoError(t, gz.Close())
	require.NoError(t, f.Close())

	dst := t.TempDir()
	n, err := Extract(archive, dst, map[string]string{"common": "common", "linux": ""})
	require.NoError(t, err)
	assert.Equal(t, map[string]int{"common": 1, "linux": 1}, n)
	b, err := os.ReadFile(filepath.Join(dst, "common", "tail.md"))
	require.NoError(t, err)
	assert.Equal(t, "# tail", string(b))
	assert.FileExists(t, filepath.Join(dst, "free.md"))
	for _, absent := range []string{"say.md", "common/sub", "common/notes.txt", "common/link.md"} {
		assert.NoFileExists(t, filepath.Join(dst, absent))
		assert.NoDirExists(t, filepath.Join(dst, absent))
	}

	_, err = Extract(filepath.Join(t.TempDir(), "missing.tar.gz"), dst, map[string]string{"common": ""})
	assert.ErrorIs(t, err, ErrNoArchive)
}

func TestArchiveHonoursTheEnvironment(t *testing.T) {
	p := filepath.Join(t.TempDir(), "tldr.tar.gz")
	require.NoError(t, os.WriteFile(p, nil, 0o644))
	t.Setenv(EnvArchive, p)
	got, err := Archive()
	require.NoError(t, err)
	assert.Equal(t, p, got)
	t.Setenv(EnvArchive, p+".missing")
	_, err = Archive()
	assert.ErrorIs(t, err, ErrNoArchive)
}
