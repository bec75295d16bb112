package main

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search/query"

	mrkb "github.com/mrpvm/mrpvm/retrieval"
)

// batchSize is the number of documents per bleve batch.
const batchSize = 1000

// bleveDoc is one workspace file as bleve indexes it.
type bleveDoc struct {
	Title string `json:"title"`
	Body  string `json:"body"`
}

// indexMapping is BM25 scoring with the English analyzer on title and body
// (both also in the _all field the match query searches).
func indexMapping() *mapping.IndexMappingImpl {
	m := bleve.NewIndexMapping()
	m.ScoringModel = "bm25"
	m.DefaultAnalyzer = en.AnalyzerName
	field := bleve.NewTextFieldMapping()
	field.Analyzer = en.AnalyzerName
	field.Store = false
	field.IncludeTermVectors = false
	dm := bleve.NewDocumentMapping()
	dm.AddFieldMappingsAt("title", field)
	dm.AddFieldMappingsAt("body", field)
	m.DefaultMapping = dm
	return m
}

// splitMarkdown reads "# title\n\nbody" into its parts; a file without a
// leading heading is all body.
func splitMarkdown(b []byte) bleveDoc {
	s := string(b)
	if strings.HasPrefix(s, "# ") {
		title, rest, _ := strings.Cut(s[2:], "\n")
		return bleveDoc{Title: strings.TrimSpace(title), Body: strings.TrimSpace(rest)}
	}
	return bleveDoc{Body: s}
}

// bleveIndex indexes every Markdown file of the workspace into a new
// index at path, in batches of batchSize, and returns the files and bytes.
func bleveIndex(ctx context.Context, workspace, path string) (files int, bytes int64, err error) {
	if err := os.RemoveAll(path); err != nil {
		return 0, 0, err
	}
	idx, err := bleve.New(path, indexMapping())
	if err != nil {
		return 0, 0, fmt.Errorf("bleve: create %s: %w", path, err)
	}
	defer func() {
		if cerr := idx.Close(); cerr != nil && err == nil {
			err = cerr
		}
	}()
	batch := idx.NewBatch()
	err = filepath.WalkDir(workspace, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != workspace && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".md") {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(workspace, p)
		if err != nil {
			return err
		}
		if err := batch.Index(mrkb.DocID(filepath.ToSlash(rel)), splitMarkdown(b)); err != nil {
			return fmt.Errorf("bleve: %s: %w", rel, err)
		}
		files++
		bytes += int64(len(b))
		if batch.Size() >= batchSize {
			if err := idx.Batch(batch); err != nil {
				return fmt.Errorf("bleve: batch: %w", err)
			}
			batch.Reset()
		}
		return nil
	})
	if err != nil {
		return files, bytes, err
	}
	if batch.Size() > 0 {
		if err := idx.Batch(batch); err != nil {
			return files, bytes, fmt.Errorf("bleve: batch: %w", err)
		}
	}
	return files, bytes, nil
}

// bleveSearch answers every query with a match query (BM25, English
// analyzer) on workers goroutines and writes the top k of each as a TREC run.
func bleveSearch(ctx context.Context, path, queriesPath, runPath string, k, workers int) (int, error) {
	queries, err := mrkb.LoadQueries(queriesPath)
	if err != nil {
		return 0, err
	}
	idx, err := bleve.Open(path)
	if err != nil {
		return 0, fmt.Errorf("bleve: open %s: %w", path, err)
	}
	defer idx.Close()
	type ranked struct {
		docs   []string
		scores []float64
		err    error
	}
	out := make([]ranked, len(queries))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range max(1, workers) {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= len(queries) || ctx.Err() != nil {
					return
				}
				req := bleve.NewSearchRequestOptions(query.NewMatchQuery(queries[i].Text), k, 0, false)
				res, err := idx.SearchInContext(ctx, req)
				if err != nil {
					out[i].err = fmt.Errorf("bleve: query %s: %w", queries[i].ID, err)
					return
				}
				for _, h := range res.Hits {
					out[i].docs = append(out[i].docs, h.ID)
					out[i].scores = append(out[i].scores, h.Score)
				}
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	f, err := os.Create(runPath)
	if err != nil {
		return 0, err
	}
	tw := mrkb.NewTRECWriter(f, "bleve")
	for i, q := range queries {
		if out[i].err != nil {
			f.Close()
			return 0, out[i].err
		}
		if err := tw.Write(q.ID, out[i].docs, out[i].scores); err != nil {
			f.Close()
			return 0, err
		}
	}
	if err := tw.Flush(); err != nil {
		f.Close()
		return 0, err
	}
	return len(queries), f.Close()
}
