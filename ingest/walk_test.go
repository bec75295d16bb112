package ingest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// gitIgnoreCase is one tree of ignore files and Markdown files.
type gitIgnoreCase struct {
	name   string
	ignore map[string]string // ignore file path -> text (.gitignore files and .git/info/exclude)
	files  []string          // Markdown files to create
}

var gitIgnoreCases = []gitIgnoreCase{
	{
		name:   "dir-star-then-negation",
		ignore: map[string]string{".gitignore": "dir/*\n!dir/ok.md\n"},
		files:  []string{"dir/ok.md", "dir/drop.md", "dir/sub/deep.md", "top.md"},
	},
	{
		name: "nested-negation-overrides-parent",
		ignore: map[string]string{
			".gitignore":     "keep.md\n*.tmp.md\n",
			"sub/.gitignore": "!keep.md\n!x.tmp.md\n",
		},
		files: []string{"keep.md", "sub/keep.md", "sub/deeper/keep.md", "a.tmp.md", "sub/x.tmp.md", "sub/y.tmp.md", "other/keep.md"},
	},
	{
		name:   "excluded-folder-cannot-be-reentered",
		ignore: map[string]string{".gitignore": "gone/\n!gone/important.md\n*.md\n!important.md\n"},
		files:  []string{"gone/important.md", "gone/x.md", "important.md", "x.md", "sub/important.md"},
	},
	{
		name:   "anchored-and-middle-slash",
		ignore: map[string]string{".gitignore": "/top.md\nsub/a.md\n", "sub/.gitignore": "/b.md\n"},
		files:  []string{"top.md", "sub/top.md", "sub/a.md", "x/sub/a.md", "sub/b.md", "sub/c/b.md", "b.md"},
	},
	{
		name:   "double-star",
		ignore: map[string]string{".gitignore": "**/deep.md\na/**/b.md\nlogs/**\n!logs/keep.md\nnotes/**/*.draft.md\n"},
		files: []string{"deep.md", "x/y/deep.md", "a/b.md", "a/x/b.md", "a/x/y/b.md", "ab.md", "logs/keep.md", "logs/x.md",
			"logs/sub/y.md", "notes/n.draft.md", "notes/q/r/n.draft.md", "notes/final.md"},
	},
	{
		name:   "trailing-spaces-and-escapes",
		ignore: map[string]string{".gitignore": "trail.md   \n\\#hash.md\n#comment.md\n\\!bang.md\n  \n"},
		files:  []string{"trail.md", "#hash.md", "#comment.md", "!bang.md", "plain.md"},
	},
	{
		name:   "globs-and-classes",
		ignore: map[string]string{".gitignore": "[ab].md\n?.x.md\n*~.md\nsub*/\n"},
		files:  []string{"a.md", "b.md", "c.md", "q.x.md", "qq.x.md", "old~.md", "subway/x.md", "sub.md", "suburb/y.md"},
	},
	{
		name: "info-exclude-below-gitignore",
		ignore: map[string]string{
			".git/info/exclude": "secret.md\nprivate/\n",
			".gitignore":        "!secret.md\n",
		},
		files: []string{"secret.md", "private/p.md", "public.md"},
	},
	{
		name:   "crlf-and-bom",
		ignore: map[string]string{".gitignore": "\ufeffbom.md\r\ncr.md\r\n!keep-cr.md\r\n*-cr.md\r\n"},
		files:  []string{"bom.md", "cr.md", "keep-cr.md", "x-cr.md", "plain.md"},
	},
	{
		name:   "directory-only-pattern-and-file",
		ignore: map[string]string{".gitignore": "docs/\nbuild\n"},
		files:  []string{"docs/a.md", "x/docs/b.md", "build/c.md", "x/build/d.md", "docs.md"},
	},
}

// TestWalkMatchesGit compares the walker's decisions with git's own on the
// same tree: `git ls-files --others --exclude-standard` lists the files git
// does not ignore (parents excluded included), and `git check-ignore`
// confirms each verdict path by path.
func TestWalkMatchesGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	for _, tc := range gitIgnoreCases {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			gitRun(t, root, "init", "-q")
			for p, text := range tc.ignore {
				writeFile(t, filepath.Join(root, p), text)
			}
			for _, f := range tc.files {
				writeFile(t, filepath.Join(root, f), "# "+f+"\n")
			}
			var kept []string
			for _, line := range strings.Split(gitRun(t, root, "ls-files", "-z", "--others", "--exclude-standard"), "\x00") {
				if IsSourceFile(line) {
					kept = append(kept, line)
				}
			}
			sort.Strings(kept)

			// check-ignore agrees with ls-files on every file.
			cmd := exec.Command("git", "check-ignore", "--stdin", "-z")
			cmd.Dir = root
			cmd.Env = gitEnv(root)
			cmd.Stdin = strings.NewReader(strings.Join(tc.files, "\x00") + "\x00")
			out, _ := cmd.Output() // exit status 1: nothing ignored
			ignored := map[string]bool{}
			for _, p := range bytes.Split(out, []byte{0}) {
				if len(p) > 0 {
					ignored[string(p)] = true
				}
			}
			for _, f := range tc.files {
				require.Equal(t, !slices.Contains(kept, f), ignored[f], "git ls-files and check-ignore disagree on %s", f)
			}

			cands, issues, err := walkWorkspace(root, true)
			require.NoError(t, err)
			require.Empty(t, issues)
			var got []string
			for _, c := range cands {
				got = append(got, c.sourceID)
			}
			require.Equal(t, kept, got, "the walker must keep exactly the files git keeps")
		})
	}
}

// TestWalkDotIgnore checks .ignore files: gitignore syntax, winning over
// the .gitignore beside them, overridden by deeper files.
func TestWalkDotIgnore(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, ".gitignore"), "*.gen.md\n")
	writeFile(t, filepath.Join(root, ".ignore"), "!keep.gen.md\nscratch/\n")
	writeFile(t, filepath.Join(root, "sub", ".ignore"), "!scratch/\nlocal.md\n")
	for _, f := range []string{"a.gen.md", "keep.gen.md", "scratch/s.md", "sub/scratch/t.md", "sub/local.md", "local.md", "x.md"} {
		writeFile(t, filepath.Join(root, f), "# x\n")
	}
	cands, issues, err := walkWorkspace(root, true)
	require.NoError(t, err)
	require.Empty(t, issues)
	require.Equal(t, []string{"keep.gen.md", "local.md", "sub/scratch/t.md", "x.md"}, candIDs(cands))
}

// TestWalkExclude checks the exclude option: gitignore patterns from the
// root that win over the ignore files, and bad globs reported.
func TestWalkExclude(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, ".gitignore"), "!drafts/keep.md\n")
	for _, f := range []string{"drafts/a.md", "drafts/keep.md", "archive/2020/x.md", "notes/archive.md", "notes/n.md", "top.md"} {
		writeFile(t, filepath.Join(root, f), "# x\n")
	}
	cands, issues, err := walkWorkspaceOpts(root, true, 0, WalkOptions{Exclude: []string{"drafts/*", "!drafts/keep.md", "archive/", "**/archive.md", "[bad"}})
	require.NoError(t, err)
	require.Equal(t, []string{"drafts/keep.md", "notes/n.md", "top.md"}, candIDs(cands))
	require.Len(t, issues, 1)
	require.Equal(t, CodeBadExclude, issues[0].Code)
	require.Contains(t, issues[0].Message, "[bad")
}

// TestWalkFileLimit checks MaxFiles: the walk stops at the cap, keeps the
// same files every time and says so with a stable code.
func TestWalkFileLimit(t *testing.T) {
	root := t.TempDir()
	var all []string
	for _, d := range []string{"a", "b", "c"} {
		for _, f := range []string{"1.md", "2.md", "3.md"} {
			writeFile(t, filepath.Join(root, d, f), "# x\n")
			all = append(all, d+"/"+f)
		}
	}
	cands, issues, err := walkWorkspaceOpts(root, true, 0, WalkOptions{MaxFiles: 4})
	require.NoError(t, err)
	require.Equal(t, all[:4], candIDs(cands))
	require.Len(t, issues, 1)
	require.Equal(t, CodeTooManyFiles, issues[0].Code)
	require.Contains(t, issues[0].Message, "more than 4 Markdown files")
	again, _, err := walkWorkspaceOpts(root, false, 0, WalkOptions{MaxFiles: 4})
	require.NoError(t, err)
	require.Equal(t, all[:4], candIDs(again))

	cands, issues, err = walkWorkspaceOpts(root, true, 0, WalkOptions{MaxFiles: 9})
	require.NoError(t, err)
	require.Equal(t, all, candIDs(cands))
	require.Empty(t, issues)

	// The folder count is capped too (the root and a, b: 3 folders).
	cands, issues, err = walkWorkspaceOpts(root, true, 0, WalkOptions{MaxFiles: 2})
	require.NoError(t, err)
	require.Len(t, cands, 2)
	require.Len(t, issues, 1)
}

func candIDs(cands []candidate) []string {
	var out []string
	for _, c := range cands {
		out = append(out, c.sourceID)
	}
	return out
}

// gitEnv runs git with no user or system configuration (no global
// excludes file).
func gitEnv(home string) []string {
	return append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+home, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
}

func gitRun(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = gitEnv(dir)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "git %v: %s", args, out)
	return string(out)
}
