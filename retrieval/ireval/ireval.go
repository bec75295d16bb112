package ireval

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/mrpvm/mrpvm/kus"
)

// Doc is one corpus document.
type Doc struct {
	ID    string `json:"_id"`
	Title string `json:"title"`
	Text  string `json:"text"`
}

// Query is one query.
type Query struct {
	ID   string `json:"_id"`
	Text string `json:"text"`
}

// Qrels maps a query id to the graded relevance of its judged documents.
type Qrels map[string]map[string]int

// Dataset is a corpus with queries and judgments.
type Dataset struct {
	Docs    []Doc
	Queries []Query // only the queries that have judgments
	Qrels   Qrels
}

// DefaultDir returns the SciFact folder: $MRPVM_SCIFACT, else the shared
// data folder found by walking up from the working directory.
func DefaultDir() string {
	if d := os.Getenv("MRPVM_SCIFACT"); d != "" {
		return d
	}
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		cand := filepath.Join(dir, "shared", "data", "scifact")
		if _, err := os.Stat(filepath.Join(cand, "corpus.jsonl")); err == nil {
			return cand
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// Load reads corpus.jsonl, queries-<split>.jsonl and qrels-<split>.tsv from dir.
func Load(dir, split string) (*Dataset, error) {
	docs, err := ReadDocs(filepath.Join(dir, "corpus.jsonl"))
	if err != nil {
		return nil, err
	}
	ds := &Dataset{Docs: docs}
	qrels, err := LoadQrels(filepath.Join(dir, "qrels-"+split+".tsv"))
	if err != nil {
		return nil, err
	}
	ds.Qrels = qrels
	if err := readJSONL(filepath.Join(dir, "queries-"+split+".jsonl"), func(b []byte) error {
		var q Query
		if err := json.Unmarshal(b, &q); err != nil {
			return err
		}
		if len(qrels[q.ID]) > 0 {
			ds.Queries = append(ds.Queries, q)
		}
		return nil
	}); err != nil {
		return nil, err
	}
	return ds, nil
}

// ReadDocs reads a BEIR corpus file: one JSON Doc a line, blank lines
// skipped.
func ReadDocs(path string) ([]Doc, error) {
	var docs []Doc
	err := readJSONL(path, func(b []byte) error {
		var d Doc
		if err := json.Unmarshal(b, &d); err != nil {
			return err
		}
		docs = append(docs, d)
		return nil
	})
	return docs, err
}

// WriteWorkspace writes every document into the folder dir as its
// workspace file (Markdown named SourceID) and returns the bytes written.
func WriteWorkspace(dir string, docs []Doc) (int64, error) {
	var total int64
	for _, d := range docs {
		body := Markdown(d)
		if err := os.WriteFile(filepath.Join(dir, SourceID(d.ID)), body, 0o644); err != nil {
			return total, fmt.Errorf("ireval: %w", err)
		}
		total += int64(len(body))
	}
	return total, nil
}

func readJSONL(path string, fn func([]byte) error) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("ireval: %w", err)
	}
	defer f.Close()
	err = ScanLines(f, 64<<20, func(_ int, text []byte) error { return fn(text) })
	if err != nil {
		return fileError(path, err)
	}
	return nil
}

// ScanLines calls fn with the number (from 1) and the text of every line
// of r that is not blank (white space only); a line may be up to maxLine
// bytes long. The first error of fn ends the scan. An error, of fn or of
// reading, is returned as a *LineError.
func ScanLines(r io.Reader, maxLine int, fn func(line int, text []byte) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, min(64<<10, maxLine)), maxLine)
	line := 0
	for sc.Scan() {
		line++
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		if err := fn(line, sc.Bytes()); err != nil {
			return &LineError{Line: line, Err: err}
		}
	}
	if err := sc.Err(); err != nil {
		return &LineError{Line: line + 1, Err: err}
	}
	return nil
}

// LineError is an error on one line of what ScanLines reads.
type LineError struct {
	Line int
	Err  error
}

func (e *LineError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }

// Unwrap returns the line's error.
func (e *LineError) Unwrap() error { return e.Err }

// fileError says where in the file path err happened: "path:line" for a
// *LineError.
func fileError(path string, err error) error {
	if le, ok := errors.AsType[*LineError](err); ok {
		return fmt.Errorf("ireval: %s:%d: %w", path, le.Line, le.Err)
	}
	return fmt.Errorf("ireval: %s: %w", path, err)
}

// LoadQrels reads a TREC/BEIR qrels TSV (query-id, corpus-id, score) with an
// optional header.
func LoadQrels(path string) (Qrels, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("ireval: %w", err)
	}
	defer f.Close()
	q := Qrels{}
	err = ScanLines(f, 1<<20, func(line int, text []byte) error {
		fs := strings.Fields(string(text))
		if len(fs) == 4 { // TREC: qid iter docid rel
			fs = []string{fs[0], fs[2], fs[3]}
		}
		if len(fs) != 3 {
			return errors.New("want 3 columns")
		}
		rel, err := strconv.Atoi(fs[2])
		if err != nil {
			if line == 1 {
				return nil // header
			}
			return err
		}
		if q[fs[0]] == nil {
			q[fs[0]] = map[string]int{}
		}
		q[fs[0]][fs[1]] = rel
		return nil
	})
	if err != nil {
		return nil, fileError(path, err)
	}
	return q, nil
}

// SourceID is the workspace source id of a document: its file name.
func SourceID(docID string) string { return docID + ".md" }

// DocID maps a source id back to the document id.
func DocID(sourceID string) string { return strings.TrimSuffix(sourceID, ".md") }

// Markdown renders a document as the workspace file of it.
func Markdown(d Doc) []byte {
	return []byte("# " + d.Title + "\n\n" + d.Text + "\n")
}

// Units reads a document into KUs with kus.Parse.
func Units(d Doc) ([]*kus.KU, error) {
	doc, err := kus.Parse(Markdown(d), kus.SourceInfo{SourceID: SourceID(d.ID)})
	if err != nil {
		return nil, fmt.Errorf("ireval: doc %s: %w", d.ID, err)
	}
	return doc.Units, nil
}

// Metrics are the averages over the judged queries of a run.
type Metrics struct {
	NDCG10    float64
	Recall100 float64
	MRR10     float64
	Queries   int
}

func (m Metrics) String() string {
	return fmt.Sprintf("nDCG@10 %.4f  Recall@100 %.4f  MRR@10 %.4f  (%d queries)", m.NDCG10, m.Recall100, m.MRR10, m.Queries)
}

// Evaluate scores a run (query id -> document ids, best first) against the
// judgments. Every judged query counts; a query missing from the run scores 0.
func Evaluate(run map[string][]string, qrels Qrels) Metrics {
	var m Metrics
	for qid, rel := range qrels {
		if !hasRelevant(rel) {
			continue
		}
		ranked := run[qid]
		m.Queries++
		m.NDCG10 += NDCG(ranked, rel, 10)
		m.Recall100 += Recall(ranked, rel, 100)
		m.MRR10 += RR(ranked, rel, 10)
	}
	if m.Queries > 0 {
		n := float64(m.Queries)
		m.NDCG10 /= n
		m.Recall100 /= n
		m.MRR10 /= n
	}
	return m
}

func hasRelevant(rel map[string]int) bool {
	for _, r := range rel {
		if r > 0 {
			return true
		}
	}
	return false
}

// NDCG is nDCG@k with gains 2^rel-1 and a log2(rank+1) discount.
func NDCG(ranked []string, rel map[string]int, k int) float64 {
	var dcg float64
	for i, d := range ranked[:min(k, len(ranked))] {
		if r := rel[d]; r > 0 {
			dcg += (math.Exp2(float64(r)) - 1) / math.Log2(float64(i+2))
		}
	}
	gains := make([]int, 0, len(rel))
	for _, r := range rel {
		if r > 0 {
			gains = append(gains, r)
		}
	}
	slices.Sort(gains)
	slices.Reverse(gains)
	var idcg float64
	for i, r := range gains[:min(k, len(gains))] {
		idcg += (math.Exp2(float64(r)) - 1) / math.Log2(float64(i+2))
	}
	if idcg == 0 {
		return 0
	}
	return dcg / idcg
}

// Recall is the share of relevant documents in the first k.
func Recall(ranked []string, rel map[string]int, k int) float64 {
	total := 0
	for _, r := range rel {
		if r > 0 {
			total++
		}
	}
	if total == 0 {
		return 0
	}
	found := 0
	for _, d := range ranked[:min(k, len(ranked))] {
		if rel[d] > 0 {
			found++
		}
	}
	return float64(found) / float64(total)
}

// RR is the reciprocal rank of the first relevant document within k.
func RR(ranked []string, rel map[string]int, k int) float64 {
	for i, d := range ranked[:min(k, len(ranked))] {
		if rel[d] > 0 {
			return 1 / float64(i+1)
		}
	}
	return 0
}

// Percentile returns the p-th percentile (0..100) of sorted durations or values.
func Percentile[T ~int64 | ~float64](sorted []T, p float64) T {
	if len(sorted) == 0 {
		var z T
		return z
	}
	i := int(math.Ceil(p/100*float64(len(sorted)))) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}
