package ingest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestFindRoot checks the root chosen for a file opened with no workspace,
// with HOME set to a temporary folder.
func TestFindRoot(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	mk := func(p string) string {
		p = filepath.Join(home, p)
		require.NoError(t, os.MkdirAll(p, 0o755))
		return p
	}
	notes := mk("notes/sub")
	proj := mk("src/proj/docs")
	mk("src/proj/.git")
	mk(".git") // dotfiles kept in git: not a workspace marker for $HOME

	require.Equal(t, RootChoice{Root: notes}, FindRoot(filepath.Join(notes, "a.md")))
	require.Equal(t, RootChoice{Root: filepath.Dir(proj), Marker: ".git"}, FindRoot(filepath.Join(proj, "a.md")))
	require.Equal(t, RootChoice{Refused: "your home folder"}, FindRoot(filepath.Join(home, "todo.md")))
	require.Equal(t, RootChoice{Refused: "a filesystem root"}, FindRoot("/todo.md"))

	// A .mrpvm folder in $HOME is an explicit opt-in.
	mk(".mrpvm")
	require.Equal(t, RootChoice{Root: home, Marker: ".mrpvm"}, FindRoot(filepath.Join(home, "todo.md")))
	require.Equal(t, RootChoice{Root: home, Marker: ".mrpvm"}, FindRoot(filepath.Join(notes, "a.md")))
	require.Equal(t, RootChoice{Root: filepath.Dir(proj), Marker: ".git"}, FindRoot(filepath.Join(proj, "a.md")))
}

// TestCheckWorkspace refuses $HOME and / unless opted in.
func TestCheckWorkspace(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	err := CheckWorkspace(home)
	require.Error(t, err)
	require.True(t, strings.HasPrefix(err.Error(), CodeUnsafeWorkspace+": "), err.Error())
	require.Contains(t, err.Error(), "home folder")
	require.ErrorContains(t, CheckWorkspace("/"), "filesystem root")
	require.Error(t, CheckWorkspace(home+"/sub/../"), "a spelling of $HOME is still $HOME")
	require.NoError(t, os.Mkdir(filepath.Join(home, "notes"), 0o755))
	require.NoError(t, CheckWorkspace(filepath.Join(home, "notes")))
	require.NoError(t, os.Mkdir(filepath.Join(home, ".mrpvm"), 0o755))
	require.NoError(t, CheckWorkspace(home), "opted in")
}
