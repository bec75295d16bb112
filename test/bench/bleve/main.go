// Command bleve-bench compares mrpvm's kb-plugins with bleve v2.6.0 (BM25
// scoring, English analyzer, batches of 1,000) on one workspace of
// Markdown files: cold ingest throughput, a batch of queries answered in
// one process, and nDCG@10 / Recall@100 / MRR@10 of each.
//
// Every measured step runs as its own process, timed from start to exit:
// `mrpvm ingest` and `mrpvm search --queries` (the binary built from this
// checkout), and this program re-executed as `bleve-index` and
// `bleve-search`. It lives in its own Go module so the product does not
// depend on bleve.
//
// Usage:
//
//	go run . -workspace DIR -queries queries.jsonl -qrels qrels.tsv [-work DIR] [-k 100] [-copies DIR10]
package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"

	mrkb "github.com/mrpvm/mrpvm/retrieval"
)

var plugins = []string{"kb-fast", "kb-balanced", "kb-thinkingdb"}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if len(os.Args) > 1 && !strings.HasPrefix(os.Args[1], "-") {
		if err := sub(ctx, os.Args[1], os.Args[2:]); err != nil {
			fmt.Fprintln(os.Stderr, "bleve-bench:", err)
			os.Exit(1)
		}
		return
	}
	var c config
	flag.StringVar(&c.workspace, "workspace", "", "workspace folder of Markdown files (see README: mkworkspace)")
	flag.StringVar(&c.queries, "queries", "", "BEIR queries file")
	flag.StringVar(&c.qrels, "qrels", "", "relevance judgments (BEIR TSV); empty: no quality figures")
	flag.StringVar(&c.work, "work", "", "scratch folder for the knowledge base, the bleve index and the runs (default: a new temp folder)")
	flag.StringVar(&c.mrpvm, "mrpvm", "", "mrpvm binary (default: built from this checkout)")
	flag.StringVar(&c.edit, "edit", "4983.md", "workspace file edited for the re-ingest latency")
	flag.IntVar(&c.k, "k", 100, "documents per query in the runs")
	flag.IntVar(&c.workers, "workers", runtime.GOMAXPROCS(0), "queries at once for mrpvm search and the second bleve run")
	flag.StringVar(&c.copies, "copies", "", "a workspace of several copies of -workspace (mkworkspace -copies 10): also measure how mrpvm scales")
	flag.IntVar(&c.repeat, "repeat", 5, "rounds of the cold ingests, of the query batches and, per plugin, of the scaling comparison (medians are reported)")
	flag.Parse()
	if c.workspace == "" || c.queries == "" {
		flag.Usage()
		os.Exit(2)
	}
	if err := bench(ctx, c); err != nil {
		fmt.Fprintln(os.Stderr, "bleve-bench:", err)
		os.Exit(1)
	}
}

// sub runs one measured step in this process.
func sub(ctx context.Context, name string, args []string) error {
	fs := flag.NewFlagSet(name, flag.ExitOnError)
	ws := fs.String("workspace", "", "workspace")
	index := fs.String("index", "", "bleve index folder")
	queries := fs.String("queries", "", "queries file")
	run := fs.String("run", "", "TREC run to write")
	k := fs.Int("k", 100, "documents per query")
	workers := fs.Int("workers", 1, "queries answered at once")
	if err := fs.Parse(args); err != nil {
		return err
	}
	switch name {
	case "bleve-index":
		files, n, err := bleveIndex(ctx, *ws, *index)
		if err != nil {
			return err
		}
		return json.NewEncoder(os.Stdout).Encode(map[string]int64{"files": int64(files), "bytes": n})
	case "bleve-search":
		n, err := bleveSearch(ctx, *index, *queries, *run, *k, *workers)
		if err != nil {
			return err
		}
		return json.NewEncoder(os.Stdout).Encode(map[string]int{"queries": n})
	}
	return fmt.Errorf("unknown step %q (want bleve-index or bleve-search)", name)
}

type config struct {
	workspace, queries, qrels, work, mrpvm string
	edit, copies                           string
	k, workers, repeat                     int
}

// medianStep returns the step of median wall time, with the highest peak
// RSS of all steps.
func medianStep(steps []step) step {
	sorted := slices.Clone(steps)
	slices.SortFunc(sorted, func(a, b step) int { return cmp.Compare(a.wall, b.wall) })
	m := sorted[len(sorted)/2]
	for _, s := range steps {
		m.rssKB = max(m.rssKB, s.rssKB)
	}
	return m
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// step is one timed process.
type step struct {
	wall   time.Duration
	cpu    time.Duration // user + system
	rssKB  int64
	stdout []byte
}

// timed runs a command to completion and reports its wall time and peak
// resident set size.
func timed(ctx context.Context, name string, args ...string) (step, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	t0 := time.Now()
	err := cmd.Run()
	s := step{wall: time.Since(t0), stdout: out.Bytes()}
	if cmd.ProcessState != nil {
		s.cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok && ru != nil {
		s.rssKB = ru.Maxrss
	}
	if err != nil {
		return s, fmt.Errorf("%s %s: %w\n%s", filepath.Base(name), strings.Join(args, " "), err, errb.String())
	}
	return s, nil
}

func bench(ctx context.Context, c config) (err error) {
	if c.workspace, err = filepath.Abs(c.workspace); err != nil {
		return err
	}
	if c.work == "" {
		if c.work, err = os.MkdirTemp("", "bleve-bench-"); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(c.work, 0o755); err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	if c.mrpvm == "" {
		c.mrpvm = filepath.Join(c.work, "mrpvm")
		build := exec.CommandContext(ctx, "go", "build", "-o", c.mrpvm, "github.com/mrpvm/mrpvm/cmd/mrpvm")
		build.Stderr = os.Stderr
		if err := build.Run(); err != nil {
			return fmt.Errorf("build mrpvm: %w", err)
		}
	}
	db := filepath.Join(c.work, "kb.db")
	index := filepath.Join(c.work, "bleve.idx")
	mr := func(args ...string) []string {
		return append([]string{"--workspace", c.workspace, "--db", db}, args...)
	}

	// Cold ingest: a new knowledge base file, all three kb-plugins indexing,
	// against bleve indexing the same files; c.repeat alternating pairs,
	// medians compared (the last knowledge base stays for the queries).
	var ings, bixs []step
	for range max(c.repeat, 1) {
		for _, p := range []string{db, db + ".lock"} {
			if err := os.RemoveAll(p); err != nil {
				return err
			}
		}
		syscall.Sync() // write back what earlier runs left dirty before timing
		ing, err := timed(ctx, c.mrpvm, mr("--json", "ingest")...)
		if err != nil {
			return err
		}
		syscall.Sync()
		bix, err := timed(ctx, self, "bleve-index", "-workspace", c.workspace, "-index", index)
		if err != nil {
			return err
		}
		ings, bixs = append(ings, ing), append(bixs, bix)
	}
	ing, bix := ings[len(ings)-1], bixs[len(bixs)-1]
	var rep struct {
		Files int `json:"files"`
		KUs   int `json:"kus"`
	}
	if err := json.Unmarshal(ing.stdout, &rep); err != nil {
		return fmt.Errorf("mrpvm ingest --json: %w", err)
	}
	var bi struct{ Files, Bytes int64 }
	if err := json.Unmarshal(bix.stdout, &bi); err != nil {
		return fmt.Errorf("bleve-index: %w", err)
	}
	mb := float64(bi.Bytes) / 1e6

	fmt.Printf("workspace %s: %d files, %.1f MB of Markdown; %d KUs\n\n", c.workspace, bi.Files, mb, rep.KUs)
	fmt.Printf("cold ingest (one process each, %d alternating pairs; wall time, CPU = user+sys):\n", len(ings))
	for i := range ings {
		fmt.Printf("  pair %d: mrpvm %.2f s (CPU %.2f s, peak RSS %d MB), bleve %.2f s (CPU %.2f s, peak RSS %d MB): %.2fx\n", i+1,
			ings[i].wall.Seconds(), ings[i].cpu.Seconds(), ings[i].rssKB/1024,
			bixs[i].wall.Seconds(), bixs[i].cpu.Seconds(), bixs[i].rssKB/1024, bixs[i].wall.Seconds()/ings[i].wall.Seconds())
	}
	mi, bm := medianStep(ings).wall, medianStep(bixs).wall
	fmt.Printf("  median: mrpvm ingest (kb-fast + kb-balanced + kb-thinkingdb) %.2f s (%.2f MB/s), bleve index (BM25, en, batches of %d) %.2f s (%.2f MB/s)\n",
		mi.Seconds(), mb/mi.Seconds(), batchSize, bm.Seconds(), mb/bm.Seconds())
	fmt.Printf("  throughput ratio mrpvm/bleve (medians): %.2fx\n\n", bm.Seconds()/mi.Seconds())

	var qrels mrkb.Qrels
	if c.qrels != "" {
		if qrels, err = mrkb.LoadQrels(c.qrels); err != nil {
			return err
		}
	}
	queries, err := mrkb.LoadQueries(c.queries)
	if err != nil {
		return err
	}
	// Every batch runs c.repeat times, the programs taking turns within a
	// round, and is reported by its median: single runs on a busy machine
	// move by a third from one to the next.
	bleveRun := filepath.Join(c.work, "bleve.trec")
	bleveRunN := filepath.Join(c.work, "bleve-workers.trec")
	var bsAll, bnAll []step
	mrAll := make([][]step, len(plugins))
	for range max(1, c.repeat) {
		bs, err := timed(ctx, self, "bleve-search", "-index", index, "-queries", c.queries, "-run", bleveRun, "-k", fmt.Sprint(c.k))
		if err != nil {
			return err
		}
		bsAll = append(bsAll, bs)
		for i, p := range plugins {
			run := filepath.Join(c.work, p+".trec")
			s, err := timed(ctx, c.mrpvm, mr("search", "--plugin", p, "--queries", c.queries, "--run", run, "--k", fmt.Sprint(c.k), "--workers", fmt.Sprint(c.workers))...)
			if err != nil {
				return err
			}
			mrAll[i] = append(mrAll[i], s)
		}
		bn, err := timed(ctx, self, "bleve-search", "-index", index, "-queries", c.queries, "-run", bleveRunN, "-k", fmt.Sprint(c.k), "-workers", fmt.Sprint(c.workers))
		if err != nil {
			return err
		}
		bnAll = append(bnAll, bn)
	}
	bs, bn := medianStep(bsAll), medianStep(bnAll)
	fmt.Printf("%d queries, one process each (median wall time of %d rounds, incl. start-up; mrpvm also checks the workspace\n"+
		"for changes; mrpvm uses %d workers; the range is the ratio's in single rounds):\n", len(queries), max(1, c.repeat), c.workers)
	line := func(name string, s step, run string, ratio string) error {
		q := ""
		if qrels != nil {
			f, err := os.Open(run)
			if err != nil {
				return err
			}
			r, err := mrkb.ReadTREC(f)
			f.Close()
			if err != nil {
				return err
			}
			m := mrkb.Evaluate(r, qrels)
			q = fmt.Sprintf("  nDCG@10 %.4f  Recall@100 %.4f  MRR@10 %.4f", m.NDCG10, m.Recall100, m.MRR10)
		}
		fmt.Printf("  %-14s %6.3f s  %6.0f q/s  peak RSS %4d MB%s%s\n", name, s.wall.Seconds(),
			float64(len(queries))/s.wall.Seconds(), s.rssKB/1024, q, ratio)
		return nil
	}
	defer func() {
		if err != nil {
			return
		}
		var lat []time.Duration
		if lat, err = reingestOne(ctx, c.workspace, db, c.edit, 21); err != nil {
			return
		}
		fmt.Printf("\nre-ingest of one changed file (%s; KUs + all three indexes, fsynced), 21 edits: median %.1f ms, max %.1f ms\n",
			c.edit, ms(lat[len(lat)/2]), ms(lat[len(lat)-1]))
		if c.copies != "" {
			err = scaling(ctx, c, db, step{wall: mi, rssKB: ing.rssKB}) // the median one-copy ingest
		}
	}()
	if err := line("bleve", bs, bleveRun, ""); err != nil {
		return err
	}
	if err := line(fmt.Sprintf("bleve x%d", c.workers), bn, bleveRunN, ""); err != nil {
		return err
	}
	for i, p := range plugins {
		run := filepath.Join(c.work, p+".trec")
		s := medianStep(mrAll[i])
		lo, hi := math.Inf(1), 0.0
		for r, x := range mrAll[i] {
			v := bsAll[r].wall.Seconds() / x.wall.Seconds()
			lo, hi = min(lo, v), max(hi, v)
		}
		if err := line(p, s, run, fmt.Sprintf("  %.2fx bleve's speed (rounds %.2f-%.2fx; %.2fx bleve x%d)", bs.wall.Seconds()/s.wall.Seconds(),
			lo, hi, bn.wall.Seconds()/s.wall.Seconds(), c.workers)); err != nil {
			return err
		}
	}
	return nil
}
