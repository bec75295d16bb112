package bench

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mrpvm/mrpvm/test/internal/mrpvmbin"
)

// adversarialUnits are the repeated units of the Markdown shapes that drive
// the parser's costly paths, with ordinary prose as the baseline.
var adversarialUnits = []struct{ name, unit string }{
	{"plain prose", "The quick brown fox jumps over the lazy dog near the river bank.\n"},
	{"`[`", "["},
	{"`*a_`", "*a_"},
	{"`[a](`", "[a]("},
	{"`> `", "> "},
	{"`1. `", "1. "},
	{"nested `> ` lines", ""},
	{"backticks", "`a``"},
	{"`<a `", "<a "},
	{"reference definitions", "[a]: b\n"},
	{"tiny paragraphs", "a\n\n"},
	{"list items", "- a\n"},
}

func adversarialFile(unit string, size int) []byte {
	if unit == "" { // nested block quotes, one level deeper per line
		var b bytes.Buffer
		for i := 0; b.Len() < size; i++ {
			b.WriteString(strings.Repeat("> ", i%200))
			b.WriteString("a\n")
		}
		return b.Bytes()[:size]
	}
	return bytes.Repeat([]byte(unit), size/len(unit)+1)[:size]
}

// BenchmarkAdversarialIngest runs the real binary's ingest over a workspace
// holding one file of each adversarial family at 1, 4 and 7 MiB, and logs
// the wall time and peak resident memory (the child's max RSS) of each run
// as a Markdown table (docs/performance.md). Run with
//
//	go test -run xxx -bench AdversarialIngest -benchtime 1x ./test/bench
func BenchmarkAdversarialIngest(b *testing.B) {
	bin, err := mrpvmbin.Build(b.TempDir())
	if err != nil {
		b.Fatalf("build: %v", err)
	}
	var table strings.Builder
	table.WriteString("| family | 1 MiB | 4 MiB | 7 MiB |\n|---|---|---|---|\n")
	for i := 0; i < b.N; i++ {
		for _, fam := range adversarialUnits {
			fmt.Fprintf(&table, "| %s |", fam.name)
			for _, mib := range []int{1, 4, 7} {
				ws := b.TempDir()
				src := adversarialFile(fam.unit, mib<<20)
				if err := os.WriteFile(filepath.Join(ws, "adv.md"), src, 0o644); err != nil {
					b.Fatal(err)
				}
				home := b.TempDir()
				cmd := exec.Command(bin, "ingest", "--workspace", ws, "--db", filepath.Join(home, "kb.db"), "--json")
				cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+home, "XDG_CONFIG_HOME="+home, "HOME="+home)
				var stderr bytes.Buffer
				cmd.Stderr = &stderr
				t0 := time.Now()
				out, err := cmd.Output()
				d := time.Since(t0)
				if err != nil {
					b.Fatalf("%s %d MiB: %v\n%s\n%s", fam.name, mib, err, out, stderr.Bytes())
				}
				rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10 // KiB on Linux
				fmt.Fprintf(&table, " %.2f s, %d MiB (%.0fx) |", d.Seconds(), rss>>20, float64(rss)/float64(len(src)))
				b.ReportMetric(float64(rss)/float64(len(src)), "peakRSS/size")
			}
			table.WriteString("\n")
		}
	}
	// Printed, not logged: the benchmark log keeps only its first lines.
	fmt.Printf("ingest of one file per family (wall time, peak RSS of the process, RSS/file size):\n%s", table.String())
}
