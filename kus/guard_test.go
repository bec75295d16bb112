package kus

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"
)

// AdversarialFamilies returns the inputs that drive goldmark's costly
// paths, each built to size bytes: the shapes found by attacking the
// reader, plus nesting, code, HTML and reference-definition variants.
func adversarialFamilies(size int) map[string][]byte {
	rep := func(unit string) []byte { return bytes.Repeat([]byte(unit), size/len(unit)+1)[:size] }
	nested := func(marker string) []byte {
		var b bytes.Buffer
		for i := 0; b.Len() < size; i++ {
			b.WriteString(strings.Repeat(marker, i%200))
			b.WriteString("a\n")
		}
		return b.Bytes()[:size]
	}
	return map[string][]byte{
		"bracket":      rep("["),
		"bracket-nl":   rep("[\n"),
		"emphasis":     rep("*a_"),
		"emphasis-nl":  rep("*a_\n"),
		"link-open":    rep("[a]("),
		"link-open-nl": rep("[a](\n"),
		"quote":        rep("> "),
		"ordered":      rep("1. "),
		"nested-quote": nested("> "),
		"nested-list":  nested("  - "),
		"backticks":    rep("`"),
		"code-spans":   rep("`a``"),
		"html":         rep("<"),
		"html-tag":     rep("<a "),
		"refdefs":      rep("[a]: b\n"),
		"tiny-paras":   rep("a\n\n"),
		"list-items":   rep("- a\n"),
		"strike":       rep("~~a"),
		"images":       rep("!["),
	}
}

// plainText is ordinary prose of size bytes: the baseline the families are
// measured against.
func plainText(size int) []byte {
	var b bytes.Buffer
	for i := 0; b.Len() < size; i++ {
		b.WriteString("The quick brown fox jumps over the lazy dog near the river bank.\n")
		if i%5 == 4 {
			b.WriteString("\n")
		}
	}
	return b.Bytes()[:size]
}

// parseCost parses src and returns the fastest of runs wall times and the
// bytes allocated by one parse.
func parseCost(tb testing.TB, src []byte, runs int) (time.Duration, uint64) {
	tb.Helper()
	best := time.Duration(1 << 62)
	var alloc uint64
	for i := 0; i < runs; i++ {
		var m0, m1 runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m0)
		t0 := time.Now()
		if _, err := Parse(src, SourceInfo{SourceID: "adversarial.md"}); err != nil && !errors.Is(err, ErrNotUTF8) && !errors.Is(err, ErrBinary) {
			tb.Fatal(err)
		}
		d := time.Since(t0)
		runtime.ReadMemStats(&m1)
		best = min(best, d)
		alloc = m1.TotalAlloc - m0.TotalAlloc
	}
	return best, alloc
}

// TestAdversarialLinear parses every adversarial family at 256 KiB and
// holds it to a generous multiple of plain text of the same size, in time
// and in allocated bytes. Without the guard several families take tens of
// seconds and hundreds of times their size in memory.
func TestAdversarialLinear(t *testing.T) {
	const size = 256 << 10
	plain := plainText(size)
	for name, src := range adversarialFamilies(size) {
		// On a shared machine one slow sample proves nothing: a family fails
		// only when three attempts, each timing it beside plain text, all
		// exceed the bound.
		var ratio float64
		var d time.Duration
		var alloc uint64
		for attempt := 0; attempt < 3; attempt++ {
			plainTime, _ := parseCost(t, plain, 3)
			plainTime = max(plainTime, time.Millisecond) // a floor against timer noise
			d, alloc = parseCost(t, src, 3)
			ratio = float64(d) / float64(plainTime)
			if ratio <= 100 {
				break
			}
		}
		t.Logf("%-13s %8v (%.1fx plain) alloc %.1fx size", name, d.Round(time.Microsecond), ratio, float64(alloc)/size)
		if ratio > 100 {
			t.Errorf("%s: %v, %.0fx plain text of the same size", name, d, ratio)
		}
		if alloc > 64*size {
			t.Errorf("%s: allocated %d bytes, %.0fx its size", name, alloc, float64(alloc)/size)
		}
	}
}

// TestGuardDiagnostics checks that degraded files say so with a stable code.
func TestGuardDiagnostics(t *testing.T) {
	doc, err := Parse(bytes.Repeat([]byte("a\n\n"), 200_000), SourceInfo{SourceID: "tiny.md"})
	if err != nil {
		t.Fatal(err)
	}
	if !hasCode(doc, CodeTooComplex) {
		t.Errorf("tiny paragraphs: no %s diagnostic: %+v", CodeTooComplex, doc.Diagnostics)
	}
	if len(doc.Units) < 2 || !strings.Contains(doc.Units[1].TextBody, "a") {
		t.Errorf("tiny paragraphs: text lost: %d units", len(doc.Units))
	}
	doc, err = Parse(bytes.Repeat([]byte("`a` "), 100_000), SourceInfo{SourceID: "spans.md"})
	if err != nil {
		t.Fatal(err)
	}
	if !hasCode(doc, CodeTooComplex) {
		t.Errorf("code spans: no %s diagnostic: %+v", CodeTooComplex, doc.Diagnostics)
	}
	// Ordinary Markdown keeps its markup out of the text.
	doc, err = Parse([]byte("# T\n\nSome *emphasis*, a [link](http://x.example) and `code`.\n"), SourceInfo{SourceID: "ok.md"})
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Diagnostics) != 0 || !strings.Contains(doc.Units[len(doc.Units)-1].TextBody, "Some emphasis, a link and code.") {
		t.Errorf("ordinary file changed: %+v %q", doc.Diagnostics, doc.Units[len(doc.Units)-1].TextBody)
	}
}

func hasCode(doc *Document, code string) bool {
	for _, d := range doc.Diagnostics {
		if d.Code == code {
			return true
		}
	}
	return false
}

// TestParseContextCancel checks that a cancelled context stops a parse and
// is reported as the context's error.
func TestParseContextCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ParseContext(ctx, plainText(1<<20), SourceInfo{SourceID: "c.md"}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled parse: %v", err)
	}
	// Cancelled mid-parse: the guard's hooks see it and goldmark stops.
	ctx, cancel = context.WithCancel(context.Background())
	src := bytes.Repeat([]byte("- item *one* and `two`\n  > quoted [x](y)\n"), 100_000)
	done := make(chan error, 1)
	go func() { _, err := ParseContext(ctx, src, SourceInfo{SourceID: "c.md"}); done <- err }()
	time.Sleep(5 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if err != nil && !errors.Is(err, context.Canceled) {
			t.Fatalf("mid-parse cancel: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("parse did not stop after cancel")
	}
}

// fuzzSize is the size each fuzz input is repeated to: the budget applies
// to inputs over 64 KiB.
const fuzzSize = 96 << 10

// FuzzParseBudget repeats each input to fuzzSize bytes and fails when the
// parse takes more than 50x the time of plain text of the same size or
// allocates more than 20x its size. Each input is also parsed as is, so
// panics surface too.
func FuzzParseBudget(f *testing.F) {
	for _, src := range adversarialFamilies(64) {
		f.Add(src)
	}
	f.Add([]byte("# Title\n\nSome *text* with [a](b) link.\n\n- item\n  - nested\n"))
	plainTime, _ := parseCost(f, plainText(fuzzSize), 5)
	plainTime = max(plainTime, time.Millisecond)
	f.Fuzz(func(t *testing.T, unit []byte) {
		_, _ = Parse(unit, SourceInfo{SourceID: "unit.md"})
		if len(unit) == 0 {
			return
		}
		src := bytes.Repeat(unit, fuzzSize/len(unit)+1)[:fuzzSize]
		d, alloc := parseCost(t, src, 1)
		base := plainTime
		// Time is judged only while fuzzing: a plain `go test` run of the
		// seeds shares the machine with other tests, and its timer says
		// more about them than about the parser. Allocations, checked
		// below in every run, do not depend on the machine.
		timed := fuzzing()
		if timed && d > 50*base {
			// Timer noise on a shared machine: measure the input and the
			// plain baseline again, side by side, before failing.
			d, alloc = parseCost(t, src, 3)
			base, _ = parseCost(t, plainText(fuzzSize), 3)
			base = max(base, plainTime)
		}
		if timed && d > 50*base {
			t.Errorf("%d-byte input (unit %q): %v, more than 50x plain text (%v)", len(src), clip(unit), d, base)
		}
		if alloc > 20*uint64(len(src)) {
			t.Errorf("%d-byte input (unit %q): allocated %d bytes, %.1fx its size", len(src), clip(unit), alloc, float64(alloc)/float64(len(src)))
		}
	})
}

// fuzzing reports whether the test binary runs with -test.fuzz (go test
// -fuzz), rather than only replaying the seed corpus.
func fuzzing() bool {
	f := flag.Lookup("test.fuzz")
	return f != nil && f.Value.String() != ""
}

func clip(b []byte) string {
	if len(b) > 80 {
		return fmt.Sprintf("%s...", b[:80])
	}
	return string(b)
}

// TestWrappedLines counts the lines that continue a paragraph, leaving
// code blocks, blank lines and paragraph starts out.
func TestWrappedLines(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want int
	}{
		{"", 0},
		{"one line\n", 0},
		{"a\nb\nc\n", 2},
		{"a\n\nb\n\nc\n", 0},
		{"```\na\nb\nc\n```\n", 0},
		{"~~~\na\nb\n~~~\nx\ny\n", 1},
		{"    code\n    more\n\ttab\n", 0},
		{"para\n  still para\n", 1},
	} {
		if got := wrappedLines([]byte(tc.src)); got != tc.want {
			t.Errorf("wrappedLines(%q) = %d, want %d", tc.src, got, tc.want)
		}
	}
}

// TestDestScanCost prices a destination scan as goldmark reads it: to the
// ')' closing what the destination opened, a space, '>' of <...>, or the
// end of the line, never past the limit.
func TestDestScanCost(t *testing.T) {
	for _, tc := range []struct {
		line  string
		limit int
		want  int
	}{
		{"](a.md) rest", 100, 5},
		{"](a(b)c) rest", 100, 6},
		{"](a(b(c) rest", 100, 7},
		{"](a(b(c(d(e", 100, 9},
		{"](a(b(c(d(e", 4, 4},
		{"](<a b>) x", 100, 5},
		{`](a\)b) x`, 100, 5},
	} {
		if got := destScanCost([]byte(tc.line), tc.limit); got != tc.want {
			t.Errorf("destScanCost(%q, %d) = %d, want %d", tc.line, tc.limit, got, tc.want)
		}
	}
}
