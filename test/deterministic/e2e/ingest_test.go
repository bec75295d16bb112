package e2e

import (
	"bytes"
	binenc "encoding/binary"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"
)

type ingestJSON struct {
	Files     int `json:"files"`
	Unchanged int `json:"unchanged"`
	Plugins   int `json:"pluginSources"`
	Removed   int `json:"removed"`
	KUs       int `json:"kus"`
	Errors    []struct {
		Path    string `json:"path"`
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"errors"`
	Warnings []struct {
		Path    string `json:"path"`
		Line    int    `json:"line"`
		Col     int    `json:"col"`
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"warnings"`
	Seconds float64 `json:"seconds"`
}

func TestIngestJSONAndIncremental(t *testing.T) {
	ws := writeWorkspace(t, "-- a.md --\n# A\n\nAlpha text.\n-- dir/b.md --\n# B\n\nBeta text.\n")
	env := isolatedEnv(t)
	first := ingestOK(t, env, ws)
	assert.GreaterOrEqual(t, first.Files, 2)
	assert.Empty(t, first.Errors)
	assert.NotNil(t, first.Warnings)
	assert.Empty(t, first.Warnings)
	assert.Greater(t, first.KUs, 2)

	second := ingestOK(t, env, ws)
	assert.Equal(t, 0, second.Files)
	assert.Equal(t, first.KUs, second.KUs)

	p := filepath.Join(ws, "dir", "b.md")
	require.NoError(t, os.WriteFile(p, []byte("# B\n\nBeta changed.\n"), 0o644))
	later := time.Now().Add(5 * time.Second)
	require.NoError(t, os.Chtimes(p, later, later))
	third := ingestOK(t, env, ws)
	assert.Equal(t, 1, third.Files, "exactly the changed file")

	// The default database lives under the user cache directory.
	matches, _ := filepath.Glob(filepath.Join(strings.TrimPrefix(env[0], "XDG_CACHE_HOME="), "mrpvm", "*", "kb.db"))
	assert.Len(t, matches, 1)
}

func TestIngestHumanOutputAndKusAndStats(t *testing.T) {
	ws := writeWorkspace(t, "-- guide.md --\n# Guide\n\nIntro.\n\n## Install\n\nRun the installer.\n")
	env := isolatedEnv(t)
	r := run(t, env, "ingest", "--workspace", ws)
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, "ingested")

	r = run(t, env, "kus", "--workspace", ws, filepath.Join(ws, "guide.md"))
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, "guide.md::source-summary")
	assert.Contains(t, r.stdout, "guide.md::section-")

	r = run(t, env, "stats", "--workspace", ws, "--json")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, `"sources"`)
}

func TestIngestSkipsBadFilesButSucceeds(t *testing.T) {
	ws := writeWorkspace(t, "-- good.md --\n# Good\n\ntext\n")
	require.NoError(t, os.WriteFile(filepath.Join(ws, "bin.md"), []byte{0x7f, 'E', 'L', 'F', 0, 0, 1}, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(ws, "latin1.md"), []byte("caf\xe9\n"), 0o644))
	rep := ingestOK(t, isolatedEnv(t), ws)
	codes := map[string]string{}
	for _, e := range rep.Errors {
		codes[filepath.Base(e.Path)] = e.Code
	}
	assert.Equal(t, map[string]string{"bin.md": "binary_file", "latin1.md": "not_utf8"}, codes)
}

func TestHugeFileIsCappedAndIngestable(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 50 MB file")
	}
	ws := writeWorkspace(t, "-- small.md --\n# Small\n\ntext\n")
	var sb strings.Builder
	for i := 0; sb.Len() < 50<<20; i++ {
		fmt.Fprintf(&sb, "## Section %d\n\nParagraph %d with some words about topic %d.\n\n", i, i, i%97)
	}
	require.NoError(t, os.WriteFile(filepath.Join(ws, "huge.md"), []byte(sb.String()), 0o644))
	env := isolatedEnv(t)
	rep := ingestOK(t, env, ws)
	require.Len(t, rep.Errors, 1)
	assert.Equal(t, "file_too_large", rep.Errors[0].Code)

	rep = ingestOK(t, env, ws, "--max-file-size", fmt.Sprint(64<<20))
	assert.Empty(t, rep.Errors)
	assert.Equal(t, 1, rep.Files)
}

// TestHelperHoldLock is not a test: run as a subprocess it holds a
// knowledge base open until killed.
func TestHelperHoldLock(t *testing.T) {
	path := os.Getenv("MRPVM_E2E_HELPER")
	if path == "" {
		t.Skip("helper process only")
	}
	db, err := bolt.Open(path, 0o644, nil)
	require.NoError(t, err)
	defer db.Close()
	fmt.Println("locked")
	time.Sleep(time.Minute)
}

func TestLockedDatabaseFailsFastWithClearError(t *testing.T) {
	ws := writeWorkspace(t, "-- a.md --\n# A\n\ntext\n")
	dbPath := filepath.Join(t.TempDir(), "kb.db")
	holder := exec.Command(os.Args[0], "-test.run=^TestHelperHoldLock$")
	holder.Env = append(os.Environ(), "MRPVM_E2E_HELPER="+dbPath)
	out, err := holder.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, holder.Start())
	defer func() { holder.Process.Kill(); holder.Wait() }()
	buf := make([]byte, 6)
	_, err = out.Read(buf)
	require.NoError(t, err)

	start := time.Now()
	r := run(t, isolatedEnv(t), "ingest", "--workspace", ws, "--db", dbPath)
	assert.Less(t, time.Since(start), 5*time.Second, "never hangs")
	assert.NotEqual(t, 0, r.code)
	assert.Contains(t, r.stderr, "kb_locked")
	assert.Contains(t, r.stderr, dbPath)
}

func TestCorruptDatabaseAndRebuild(t *testing.T) {
	ws := writeWorkspace(t, "-- a.md --\n# A\n\ntext\n")
	dbPath := filepath.Join(t.TempDir(), "kb.db")
	require.NoError(t, os.WriteFile(dbPath, []byte(strings.Repeat("garbage ", 4096)), 0o644))
	env := isolatedEnv(t)
	r := run(t, env, "ingest", "--workspace", ws, "--db", dbPath)
	assert.NotEqual(t, 0, r.code)
	assert.Contains(t, r.stderr, "kb_corrupt")
	assert.Contains(t, r.stderr, "--rebuild")

	r = run(t, env, "ingest", "--workspace", ws, "--db", dbPath, "--rebuild", "--json")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stderr, "moved the old knowledge base aside")
	aside, _ := filepath.Glob(dbPath + ".corrupt-*")
	assert.Len(t, aside, 1)
}

// TestRebuildRefusesADirectory: --db naming a folder is refused as not a
// regular file, by every command and by --rebuild, which must not rename it.
func TestRebuildRefusesADirectory(t *testing.T) {
	ws := writeWorkspace(t, "-- a.md --\n# A\n\nAlpha text.\n")
	dir := filepath.Join(t.TempDir(), "kbdir")
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "keep"), 0o755))
	env := isolatedEnv(t)
	for _, args := range [][]string{{"ingest", "--rebuild"}, {"ingest"}, {"search", "alpha"}} {
		r := run(t, env, append([]string{"--workspace", ws, "--db", dir}, args...)...)
		assert.NotEqual(t, 0, r.code, "%v", args)
		assert.Contains(t, r.stderr, "not a regular file", "%v", args)
		assert.NotContains(t, r.stderr, "kb_corrupt", "%v", args)
		_, err := os.Stat(filepath.Join(dir, "keep"))
		require.NoError(t, err, "%v moved the folder", args)
		aside, _ := filepath.Glob(dir + ".corrupt-*")
		require.Empty(t, aside, "%v", args)
	}
}

// TestDamagedDatabaseIsKBCorrupt overwrites bytes in the middle of a real
// knowledge base at several pages and runs every command that reads it: none
// may panic, and every failure must be kb_corrupt with the rebuild hint.
func TestDamagedDatabaseIsKBCorrupt(t *testing.T) {
	ws, env, good, clean := ingestedKB(t)
	const page = 4096
	live := livePages(t, good)
	require.Greater(t, len(live), 16, "the database is too small to damage in the middle: %d bytes", len(clean))

	commands := [][]string{
		{"search", "ocean tides"},
		{"search", "--no-ingest", "ocean tides"},
		{"ask", "what causes tides"},
		{"ask", "--no-ingest", "what causes tides"},
		{"stats"},
		{"stats", "--verify"},
		{"ingest"},
	}
	failures := 0
	for i := 1; i < 16; i++ {
		for _, fill := range []byte{0xff, 0x00} {
			// Damage pages that hold data (a free page is never read),
			// 100 bytes in, past the page header.
			off := live[(len(live)-1)*i/16]*page + 100
			b := append([]byte(nil), clean...)
			for j := off; j < off+200; j++ {
				b[j] = fill
			}
			for _, c := range commands {
				if !runDamaged(t, env, ws, b, c, fmt.Sprintf("offset %d fill %#x", off, fill)) {
					failures++
				}
			}
		}
	}
	// The damage must have been read: most runs fail.
	require.Greater(t, failures, 10, "too few runs noticed the damage")
	t.Logf("%d of %d runs reported kb_corrupt", failures, 15*2*len(commands))
}

// TestCyclicDatabaseIsKBCorrupt: a knowledge base whose branch page
// points at itself (a damaged or crafted file) sent every read of its
// bucket round forever: a command that never returned or died of a stack
// overflow. Every command must report kb_corrupt with the rebuild hint.
func TestCyclicDatabaseIsKBCorrupt(t *testing.T) {
	ws, env, good, clean := ingestedKB(t)
	// The root page of every bucket, top-level or nested in one (the
	// plugins' namespaces), whose tree has branches (tx.Page needs the
	// freelist loaded).
	var roots []int
	db, err := bolt.Open(good, 0o444, &bolt.Options{ReadOnly: true, PreLoadFreelist: true})
	require.NoError(t, err)
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		add := func(b *bolt.Bucket) {
			if info, err := tx.Page(int(b.Root())); err == nil && info != nil && info.Type == "branch" {
				roots = append(roots, int(b.Root()))
			}
		}
		return tx.ForEach(func(_ []byte, b *bolt.Bucket) error {
			add(b)
			return b.ForEachBucket(func(k []byte) error {
				add(b.Bucket(k))
				return nil
			})
		})
	}))
	require.NoError(t, db.Close())
	require.NotEmpty(t, roots, "no bucket of the knowledge base has a branch page")
	const page = 4096
	for _, root := range roots {
		// A branch page's elements follow its 16-byte header: a key
		// offset and size (4 bytes each), then the child's page id.
		b := append([]byte(nil), clean...)
		binenc.LittleEndian.PutUint64(b[root*page+16+8:], uint64(root))
		for _, c := range [][]string{{"search", "--no-ingest", "ocean tides"}, {"ask", "--no-ingest", "what causes tides"}, {"stats"}, {"stats", "--verify"}, {"ingest"}} {
			require.False(t, runDamaged(t, env, ws, b, c, fmt.Sprintf("page %d", root)), "page %d: %s succeeded on a cyclic file", root, strings.Join(c, " "))
		}
	}
}

// TestRandomPageDamageIsKBCorruptOrHarmless damages live pages of a
// knowledge base at random (a header byte, element bytes, a branch
// element's child page id, the freelist, an element or overflow count, a
// run of bytes) with a fixed seed: every
// command either works or reports kb_corrupt with the rebuild hint, never
// panics and never hangs (each run is bounded, see runStdin).
func TestRandomPageDamageIsKBCorruptOrHarmless(t *testing.T) {
	ws, env, good, clean := ingestedKB(t)
	live := livePages(t, good)
	const page = 4096
	var branches []int
	for _, pg := range live {
		if binenc.LittleEndian.Uint16(clean[pg*page+8:]) == 0x01 && binenc.LittleEndian.Uint16(clean[pg*page+10:]) > 0 {
			branches = append(branches, pg)
		}
	}
	require.NotEmpty(t, branches, "the knowledge base has no branch page")
	rng := rand.New(rand.NewPCG(7, 11))
	commands := [][]string{{"search", "--no-ingest", "ocean tides"}, {"ask", "--no-ingest", "what causes tides"}, {"stats", "--verify"}, {"ingest"}}
	for i := range 36 {
		b := append([]byte(nil), clean...)
		pg := live[rng.IntN(len(live))]
		base := pg * page
		var what string
		switch i % 6 {
		case 0:
			at := base + 8 + rng.IntN(8)
			b[at] = byte(rng.UintN(256))
			what = fmt.Sprintf("header byte %d", at-base)
		case 1:
			at := base + 16 + rng.IntN(200)
			for j := range 1 + rng.IntN(8) {
				b[at+j] = byte(rng.UintN(256))
			}
			what = fmt.Sprintf("element bytes at %d", at-base)
		case 2:
			// A branch page's child: another live page, or the page
			// itself (a cycle).
			pg = branches[rng.IntN(len(branches))]
			base = pg * page
			to := uint64(pg)
			if rng.IntN(2) == 0 {
				to = uint64(live[rng.IntN(len(live))])
			}
			count := int(binenc.LittleEndian.Uint16(b[base+10:]))
			binenc.LittleEndian.PutUint64(b[base+16+rng.IntN(count)*16+8:], to)
			what = fmt.Sprintf("a branch element's page id set to %d", to)
		case 3:
			// The freelist page of the newest meta (its txid decides):
			// its header or its first ids.
			meta := 0
			if binenc.LittleEndian.Uint64(b[page+16+48:]) > binenc.LittleEndian.Uint64(b[16+48:]) {
				meta = 1
			}
			pg = int(binenc.LittleEndian.Uint64(b[meta*page+16+32:]))
			at := pg*page + 8 + rng.IntN(24)
			for j := range 1 + rng.IntN(4) {
				b[at+j] = byte(rng.UintN(256))
			}
			what = fmt.Sprintf("freelist bytes at %d", at-pg*page)
		case 4:
			// A page's element count or overflow count.
			if rng.IntN(2) == 0 {
				binenc.LittleEndian.PutUint16(b[base+10:], uint16(rng.UintN(1<<16)))
				what = "element count"
			} else {
				binenc.LittleEndian.PutUint32(b[base+12:], uint32(rng.UintN(1<<32)))
				what = "overflow count"
			}
		default:
			at := base + 16 + rng.IntN(page-80)
			for j := range 1 + rng.IntN(64) {
				b[at+j] = byte(rng.UintN(256))
			}
			what = fmt.Sprintf("bytes at %d", at-base)
		}
		for _, c := range commands {
			runDamaged(t, env, ws, b, c, fmt.Sprintf("page %d, %s", pg, what))
		}
	}
}

// ingestedKB ingests the search test workspace into a new knowledge base
// file and returns the workspace, the isolated environment, the file and
// its bytes, for tests that damage copies of them.
func ingestedKB(t *testing.T) (ws string, env []string, good string, clean []byte) {
	t.Helper()
	ws, err := filepath.Abs(filepath.Join("..", "..", "..", "cmd", "mrpvm", "testdata", "search", "ws"))
	require.NoError(t, err)
	env = isolatedEnv(t)
	good = filepath.Join(t.TempDir(), "good.db")
	r := run(t, env, "ingest", "--workspace", ws, "--db", good)
	require.Equal(t, 0, r.code, r.stderr)
	clean, err = os.ReadFile(good)
	require.NoError(t, err)
	return ws, env, good, clean
}

// runDamaged runs mrpvm command c on a copy of the damaged knowledge base
// b and requires what every damage must give: no panic, and a failure
// only as kb_corrupt with the rebuild hint (damage names the damage in
// messages). It reports whether the command succeeded.
func runDamaged(t *testing.T, env []string, ws string, b []byte, c []string, damage string) bool {
	t.Helper()
	bad := filepath.Join(t.TempDir(), "bad.db")
	require.NoError(t, os.WriteFile(bad, b, 0o644))
	r := run(t, env, append([]string{"--workspace", ws, "--db", bad}, c...)...)
	what := strings.Join(c, " ")
	require.NotContains(t, r.stderr, "goroutine ", "%s: %s panicked:\n%s", damage, what, r.stderr)
	require.NotContains(t, r.stderr, "\npanic: ", "%s: %s", damage, what)
	if r.code == 0 {
		return true
	}
	require.Contains(t, r.stderr, "kb_corrupt", "%s: %s failed (exit %d) without kb_corrupt:\n%s%s", damage, what, r.code, r.stdout, r.stderr)
	require.Contains(t, r.stderr, "mrpvm ingest --rebuild", "%s: %s: no hint", damage, what)
	return false
}

// livePages lists the branch and leaf pages of a bbolt file, in order:
// the pages a read may reach, as opposed to meta, freelist and free pages.
func livePages(t *testing.T, path string) []int {
	t.Helper()
	db, err := bolt.Open(path, 0o444, &bolt.Options{ReadOnly: true, PreLoadFreelist: true})
	require.NoError(t, err)
	defer db.Close()
	var live []int
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		for id := 2; ; {
			info, err := tx.Page(id)
			if err != nil {
				return err
			}
			if info == nil {
				return nil
			}
			if info.Type == "branch" || info.Type == "leaf" {
				live = append(live, id)
			}
			if info.Type == "free" {
				// A free page keeps the header of whatever it was: its
				// overflow count may span pages in use again since.
				id++
				continue
			}
			id += 1 + info.OverflowCount
		}
	}))
	return live
}

func TestKilledIngestLeavesConsistentDatabase(t *testing.T) {
	ws := t.TempDir()
	const n = 3000
	for i := 0; i < n; i++ {
		body := fmt.Sprintf("# Document %d\n\n%s\n\n## Part two\n\n%s\n", i,
			strings.Repeat(fmt.Sprintf("Sentence about subject %d. ", i), 30),
			strings.Repeat("More text follows here. ", 40))
		require.NoError(t, os.WriteFile(filepath.Join(ws, fmt.Sprintf("d%04d.md", i)), []byte(body), 0o644))
	}
	dbPath := filepath.Join(t.TempDir(), "kb.db")
	env := isolatedEnv(t)
	for attempt := 0; attempt < 3; attempt++ {
		cmd := exec.Command(binary, "ingest", "--workspace", ws, "--db", dbPath)
		cmd.Env = append(os.Environ(), env...)
		stderr, err := cmd.StderrPipe()
		require.NoError(t, err)
		require.NoError(t, cmd.Start())
		// Kill once the first progress line shows commits are under way.
		buf := make([]byte, 64)
		_, _ = stderr.Read(buf)
		time.Sleep(time.Duration(20*(attempt+1)) * time.Millisecond)
		require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
		_ = cmd.Wait()
	}
	r := run(t, env, "ingest", "--workspace", ws, "--db", dbPath, "--json")
	require.Equal(t, 0, r.code, r.stderr)
	var rep ingestJSON
	decodeJSON(t, r.stdout, &rep)
	assert.Equal(t, n, rep.Files+rep.Unchanged, "the next run finishes the job")
	assert.Empty(t, rep.Errors)

	// Every source's KUs exist: open the file and check.
	db, err := bolt.Open(dbPath, 0o644, &bolt.Options{ReadOnly: true, PreLoadFreelist: true})
	require.NoError(t, err)
	defer db.Close()
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		for err := range tx.Check() {
			return err
		}
		return nil
	}))
	db.Close()
	r = run(t, env, "stats", "--workspace", ws, "--db", dbPath, "--json", "--verify")
	require.Equal(t, 0, r.code, r.stderr)
}

func TestIngestCompactKeepsTheKnowledgeBase(t *testing.T) {
	ws := writeWorkspace(t, "-- a.md --\n# A\n\nAlpha text.\n-- b.md --\n# B\n\nBeta text.\n")
	env := isolatedEnv(t)
	db := filepath.Join(t.TempDir(), "kb.db")
	before := ingestOK(t, env, ws, "--db", db)
	after := ingestOK(t, env, ws, "--db", db, "--compact")
	assert.Equal(t, before.KUs, after.KUs)
	r := run(t, env, "ask", "--workspace", ws, "--db", db, "--json", "What is Alpha?")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, "a.md")
}

// TestIngestReportsKUWarnings: a malformed Context Unit file (an unknown
// role, both Claim and Procedure) is ingested, and ingest lists what is
// wrong with it (path, line, stable code) in --json and in its text.
func TestIngestReportsKUWarnings(t *testing.T) {
	ws := writeWorkspace(t, "-- plugin.kus.md --\n# Plugin\n\n## Context Unit cu-1\n\nRole: NotARole\nTopic: testing\nClaim: This is a claim.\nProcedure: Do this.\n-- ok.md --\n# Fine\n\nNothing wrong here.\n")
	env := isolatedEnv(t)
	db := filepath.Join(t.TempDir(), "kb.db")
	rep := ingestOK(t, env, ws, "--db", db)
	assert.Empty(t, rep.Errors)
	codes := map[string]int{}
	for _, w := range rep.Warnings {
		assert.Equal(t, filepath.Join(ws, "plugin.kus.md"), w.Path)
		assert.Greater(t, w.Line, 0)
		codes[w.Code] = w.Line
	}
	assert.Equal(t, 5, codes["ku_bad_role"], "warnings: %+v", rep.Warnings)
	assert.Equal(t, 8, codes["ku_claim_and_procedure"], "warnings: %+v", rep.Warnings)

	// The text output names them too (the file changed, so it is read again).
	p := filepath.Join(ws, "plugin.kus.md")
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(p, append(b, "\nMore text.\n"...), 0o644))
	later := time.Now().Add(5 * time.Second)
	require.NoError(t, os.Chtimes(p, later, later))
	r := run(t, env, "ingest", "--workspace", ws, "--db", db)
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, "warning: "+p+":5:1: ku_bad_role:")
	assert.Contains(t, r.stdout, "warning: "+p+":8:1: ku_claim_and_procedure:")
}

// adversarialWorkspace writes Markdown files shaped to drive the parser's
// costly paths (each under the ingest size cap) among ordinary ones.
func adversarialWorkspace(t *testing.T) string {
	t.Helper()
	ws := t.TempDir()
	families := []string{"*a_", "[a](", "> ", "["}
	for i, unit := range families {
		body := bytes.Repeat([]byte(unit), (2<<20)/len(unit))
		require.NoError(t, os.WriteFile(filepath.Join(ws, fmt.Sprintf("adv%d.md", i)), body, 0o644))
	}
	for i := 0; i < 1500; i++ {
		body := fmt.Sprintf("# Note %d\n\n%s\n", i, strings.Repeat(fmt.Sprintf("Text about topic %d. ", i), 40))
		require.NoError(t, os.WriteFile(filepath.Join(ws, fmt.Sprintf("n%04d.md", i)), []byte(body), 0o644))
	}
	return ws
}

// TestSIGTERMStopsIngest sends SIGTERM (then, in a second run, SIGINT) to
// a running ingest of a hostile workspace: the process must exit within a
// few seconds, with a non-zero status.
func TestSIGTERMStopsIngest(t *testing.T) {
	ws := adversarialWorkspace(t)
	env := isolatedEnv(t)
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		dbPath := filepath.Join(t.TempDir(), "kb.db")
		cmd := exec.Command(binary, "ingest", "--workspace", ws, "--db", dbPath)
		cmd.Env = append(os.Environ(), env...)
		stderr, err := cmd.StderrPipe()
		require.NoError(t, err)
		require.NoError(t, cmd.Start())
		// Wait for the first progress output (the ingest is under way), or
		// a few seconds when parsing holds it back.
		started := make(chan struct{})
		done := make(chan error, 1)
		go func() {
			buf := make([]byte, 64)
			_, _ = stderr.Read(buf)
			close(started)
			_, _ = io.Copy(io.Discard, stderr)
			done <- cmd.Wait()
		}()
		select {
		case <-started:
		case <-time.After(5 * time.Second):
		}
		time.Sleep(100 * time.Millisecond)
		t0 := time.Now()
		require.NoError(t, cmd.Process.Signal(sig))
		select {
		case err := <-done:
			t.Logf("%v: exited after %v: %v", sig, time.Since(t0).Round(time.Millisecond), err)
			require.Error(t, err, "an interrupted ingest reports failure")
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
			t.Fatalf("%v: ingest still running 10s after the signal", sig)
		}
	}
}

// ingestOK runs `mrpvm ingest --json` (with extra flags) of ws, requires
// it to succeed and decodes its report.
func ingestOK(t *testing.T, env []string, ws string, extra ...string) ingestJSON {
	t.Helper()
	r := run(t, env, append([]string{"ingest", "--workspace", ws, "--json"}, extra...)...)
	require.Equal(t, 0, r.code, r.stderr)
	var rep ingestJSON
	decodeJSON(t, r.stdout, &rep)
	return rep
}
