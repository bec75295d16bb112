package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"time"
)

// scaleStep is one measured mrpvm process of the scaling comparison.
type scaleStep struct {
	wall  time.Duration // process start to exit
	query time.Duration // the queries alone, as mrpvm search --json reports them
	open  time.Duration // loading the index state searches keep in memory, before the queries
	rssKB int64
}

// scaling compares mrpvm on the one-copy workspace with mrpvm on a
// workspace holding several copies of it (mkworkspace -copies 10): cold
// ingest time and peak RSS, then for every kb-plugin the batch of queries
// in one process, alternating one copy and many copies repeat times and
// keeping the medians. The per-query latency ratio is the ratio of the
// query time inside the process (the freshness check and the start-up left
// out) and, for reference, of the whole process.
func scaling(ctx context.Context, c config, oneDB string, oneIngest step) error {
	copiesWS, err := filepath.Abs(c.copies)
	if err != nil {
		return err
	}
	db := filepath.Join(c.work, "kb-copies.db")
	// The one-copy workspace was read by every step before; read the copies
	// once too and write back what earlier steps left dirty, so that the
	// timed ingest measures the work, not the disk.
	if err := readAll(copiesWS); err != nil {
		return err
	}
	syscall.Sync()
	// Cold ingests of the copies, each into a new knowledge base (the last
	// one is kept for the queries): the median of up to three, since one
	// run on a busy machine moves by a fifth.
	var ings []step
	for range min(max(c.repeat, 1), 3) {
		for _, p := range []string{db, db + ".lock"} {
			if err := os.RemoveAll(p); err != nil {
				return err
			}
		}
		s, err := timed(ctx, c.mrpvm, "--workspace", copiesWS, "--db", db, "--json", "ingest")
		if err != nil {
			return err
		}
		ings = append(ings, s)
	}
	ing := medianStep(ings)
	oneBytes, err := workspaceBytes(c.workspace)
	if err != nil {
		return err
	}
	manyBytes, err := workspaceBytes(copiesWS)
	if err != nil {
		return err
	}
	data := float64(manyBytes) / float64(oneBytes)
	fmt.Printf("\nscaling: %s (%.1f MB) vs %s (%.1f MB, %.1fx the data)\n", c.workspace, float64(oneBytes)/1e6,
		copiesWS, float64(manyBytes)/1e6, data)
	fmt.Printf("  cold ingest: %.2f s (median above) vs %.2f s (median of %d) = %.2fx the time for %.1fx the data; peak RSS %d MB vs %d MB\n",
		oneIngest.wall.Seconds(), ing.wall.Seconds(), len(ings), ing.wall.Seconds()/oneIngest.wall.Seconds(), data,
		oneIngest.rssKB/1024, ing.rssKB/1024)
	search := func(ws, db, plugin string) (scaleStep, error) {
		s, err := timed(ctx, c.mrpvm, "--workspace", ws, "--db", db, "--json", "search", "--plugin", plugin,
			"--queries", c.queries, "--run", os.DevNull, "--k", fmt.Sprint(c.k), "--workers", fmt.Sprint(c.workers))
		if err != nil {
			return scaleStep{}, err
		}
		var out struct {
			Seconds     float64 `json:"seconds"`
			OpenSeconds float64 `json:"openSeconds"`
		}
		if err := json.Unmarshal(s.stdout, &out); err != nil {
			return scaleStep{}, fmt.Errorf("mrpvm search --json: %w", err)
		}
		return scaleStep{wall: s.wall, query: time.Duration(out.Seconds * float64(time.Second)),
			open: time.Duration(out.OpenSeconds * float64(time.Second)), rssKB: s.rssKB}, nil
	}
	fmt.Printf("  queries in one process, median of %d alternating runs (in-process query time; opening the index\n"+
		"  before the first query; whole process):\n", c.repeat)
	for _, p := range plugins {
		var one, many []scaleStep
		for range c.repeat {
			a, err := search(c.workspace, oneDB, p)
			if err != nil {
				return err
			}
			b, err := search(copiesWS, db, p)
			if err != nil {
				return err
			}
			one, many = append(one, a), append(many, b)
		}
		q1, qn := median(one, func(s scaleStep) time.Duration { return s.query }), median(many, func(s scaleStep) time.Duration { return s.query })
		w1, wn := median(one, func(s scaleStep) time.Duration { return s.wall }), median(many, func(s scaleStep) time.Duration { return s.wall })
		o1, on := median(one, func(s scaleStep) time.Duration { return s.open }), median(many, func(s scaleStep) time.Duration { return s.open })
		var rss int64
		for _, s := range many {
			rss = max(rss, s.rssKB)
		}
		fmt.Printf("  %-14s queries %.3f s vs %.3f s = %.2fx   open %.3f s vs %.3f s   process %.3f s vs %.3f s = %.2fx   peak RSS %d MB\n",
			p, q1.Seconds(), qn.Seconds(), qn.Seconds()/q1.Seconds(), o1.Seconds(), on.Seconds(),
			w1.Seconds(), wn.Seconds(), wn.Seconds()/w1.Seconds(), rss/1024)
	}
	return nil
}

// median returns the median of f over steps.
func median(steps []scaleStep, f func(scaleStep) time.Duration) time.Duration {
	d := make([]time.Duration, len(steps))
	for i, s := range steps {
		d[i] = f(s)
	}
	slices.Sort(d)
	return d[len(d)/2]
}

// readAll reads every Markdown file under dir once (into the page cache).
func readAll(dir string) error {
	return filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".md" {
			return err
		}
		_, err = os.ReadFile(path)
		return err
	})
}

// workspaceBytes sums the sizes of the Markdown files under dir.
func workspaceBytes(dir string) (int64, error) {
	var n int64
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || filepath.Ext(path) != ".md" {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		n += info.Size()
		return nil
	})
	return n, err
}
