package lsp_test

import (
	"archive/tar"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// tldrArchive is the tldr-pages snapshot shared by the test machines
// (MRPVM_TLDR_ARCHIVE overrides it, for a checkout elsewhere).
func tldrArchive() string {
	if p := os.Getenv("MRPVM_TLDR_ARCHIVE"); p != "" {
		return p
	}
	return "../../../shared/data/tldr-pages.tar.gz"
}

// tldrCommon unpacks pages/common of tldr-pages into a new folder (the
// benchmark is skipped when the archive is missing).
func tldrCommon(tb testing.TB) string {
	tb.Helper()
	f, err := os.Open(tldrArchive())
	if err != nil {
		tb.Skipf("tldr-pages archive not available: %v", err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		tb.Fatal(err)
	}
	root := tb.TempDir()
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			tb.Fatal(err)
		}
		rest, ok := strings.CutPrefix(strings.TrimPrefix(h.Name, "./"), "pages/common/")
		if !ok || h.Typeflag != tar.TypeReg || strings.Contains(rest, "/") {
			continue
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, rest), b, 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return root
}

// genLinked writes target.md and n pages that each link to its heading
// three ways (wiki by text, wiki by anchor, inline) and to the next page.
func genLinked(tb testing.TB, n int) string {
	tb.Helper()
	root := tb.TempDir()
	write := func(rel, text string) {
		p := filepath.Join(root, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	write("target.md", "# Target\n\n## Shared Heading\n\nThe heading every page links to.\n\n## Other\n\nMore.\n")
	for i := 0; i < n; i++ {
		write(fmt.Sprintf("d%02d/p%03d.md", i%10, i), fmt.Sprintf("# Page %d\n\n## Part\n\nSee [[target#Shared Heading]], [[target#shared-heading|the heading]] "+
			"and [it](../target.md#shared-heading). Next: [[p%03d]].\n", i, (i+1)%n))
	}
	return root
}

// measure runs fn b.N times and reports the p95 latency in milliseconds.
func measure(b *testing.B, fn func()) {
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		fn()
		lat = append(lat, time.Since(t0))
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)*95/100].Microseconds())/1000, "p95-ms")
}

// BenchmarkLinkCompletion completes "[[ta", "](t" and "[[" (4,600 files of
// tldr-pages common, with titles), round trip over the pipe.
func BenchmarkLinkCompletion(b *testing.B) {
	root := tldrCommon(b)
	e := start(b, "", editorOptions{root: root})
	u := e.uri("notes.md")
	e.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": u, "languageId": "markdown", "version": 1, "text": "[[ta\n[x](t\n[[\n"}})
	i := 0
	measure(b, func() {
		var list struct {
			IsIncomplete bool             `json:"isIncomplete"`
			Items        []map[string]any `json:"items"`
		}
		e.mustCall("textDocument/completion", map[string]any{"textDocument": map[string]any{"uri": u},
			"position": map[string]any{"line": i % 3, "character": 4}}, &list)
		if len(list.Items) == 0 || !list.IsIncomplete && i%3 == 2 {
			b.Fatalf("%d items, incomplete %v", len(list.Items), list.IsIncomplete)
		}
		i++
	})
}

// BenchmarkReferences finds the 300 links to a heading linked from 100
// files, and the links to a file.
func BenchmarkReferences(b *testing.B) {
	e := start(b, "", editorOptions{root: genLinked(b, 100)})
	heading := e.pos("target.md", "Shared Heading", 2)
	heading["context"] = map[string]any{"includeDeclaration": true}
	i := 0
	measure(b, func() {
		var locs []location
		e.mustCall("textDocument/references", heading, &locs)
		if len(locs) != 301 {
			b.Fatalf("%d references", len(locs))
		}
		i++
	})
}

// BenchmarkRenameHeading renames a heading linked from 100 files (300
// link edits).
func BenchmarkRenameHeading(b *testing.B) {
	e := start(b, "", editorOptions{root: genLinked(b, 100)})
	p := e.pos("target.md", "Shared Heading", 2)
	p["newName"] = "Common Heading"
	measure(b, func() {
		var we workspaceEdit
		e.mustCall("textDocument/rename", p, &we)
		if len(we.Changes) != 101 {
			b.Fatalf("%d files edited", len(we.Changes))
		}
	})
}

// BenchmarkHoverTldr hovers terms in tldr-pages common: page names that
// have a page (tar, gzip, ...) and words that do not define anything.
func BenchmarkHoverTldr(b *testing.B) {
	root := tldrCommon(b)
	e := start(b, "", editorOptions{root: root})
	e.waitIngest("", 120*time.Second)
	type probe struct {
		file, needle string
		delta        int
		want         string
	}
	probes := []probe{
		{"tar.md", "# tar", 3, "Archiving utility"},
		{"tar.md", "`gzip`", 2, "Compress/uncompress files"},
		{"ar.md", "`tar`", 2, "Archiving utility"},
		{"tar.md", "compression method", 3, ""},
		{"ls.md", "List directory", 2, ""},
	}
	for _, pr := range probes {
		got := e.hover(pr.file, pr.needle, pr.delta)
		if pr.want == "" && got != "" || !strings.Contains(got, pr.want) {
			b.Fatalf("hover %s %q: %q (want %q)", pr.file, pr.needle, got, pr.want)
		}
	}
	i := 0
	measure(b, func() {
		pr := probes[i%len(probes)]
		_ = e.hover(pr.file, pr.needle, pr.delta)
		i++
	})
}
