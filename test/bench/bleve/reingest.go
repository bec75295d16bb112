package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/mrpvm/mrpvm/ingest"
	_ "github.com/mrpvm/mrpvm/plugins/all"
	wspace "github.com/mrpvm/mrpvm/workspace"
)

// reingestOne appends a line to one workspace file n times and re-ingests
// just that file through the product's Go API each time (as saving it in an
// editor does): its KUs and all three kb-plugin indexes are updated in one
// durable (fsynced) transaction. It returns the sorted latencies.
func reingestOne(ctx context.Context, workspace, db, file string, n int) ([]time.Duration, error) {
	ws, err := wspace.Open(wspace.Options{Root: workspace, DBPath: db, NoLLM: true})
	if err != nil {
		return nil, err
	}
	defer ws.Close()
	path := filepath.Join(workspace, file)
	orig, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	defer os.WriteFile(path, orig, 0o644)
	var lat []time.Duration
	for i := range n {
		text := fmt.Appendf(slices.Clone(orig), "\nEdit %d of the benchmark.\n", i)
		if err := os.WriteFile(path, text, 0o644); err != nil {
			return nil, err
		}
		t0 := time.Now()
		rep, err := ws.KB.Ingest(ctx, ingest.RunOptions{Only: []string{path}})
		if err != nil {
			return nil, err
		}
		lat = append(lat, time.Since(t0))
		if rep.Files != 1 || rep.Failed() {
			return nil, fmt.Errorf("re-ingest %s: %+v", file, rep)
		}
	}
	slices.Sort(lat)
	return lat, nil
}
