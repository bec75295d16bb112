package retrieval

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/mrpvm/mrpvm/retrieval/ireval"
)

// Query is one BEIR query ({"_id", "text"} per line of a JSONL file).
type Query = ireval.Query

// Qrels maps a query id to the graded relevance of its judged documents.
type Qrels = ireval.Qrels

// Metrics are the averages of nDCG@10, Recall@100 and MRR@10 over the
// judged queries of a run.
type Metrics = ireval.Metrics

// Run maps a query id to its document ids, best first.
type Run map[string][]string

// DocID is the TREC document id of a workspace source: its
// workspace-relative path without the .md extension.
func DocID(sourceID string) string { return strings.TrimSuffix(sourceID, ".md") }

// LoadQueries reads a BEIR queries file: one JSON object {"_id", "text"}
// per line; blank lines are skipped. Every query needs a non-empty _id,
// and ids must be unique.
func LoadQueries(path string) ([]Query, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("queries: %w", err)
	}
	defer f.Close()
	qs, err := ReadQueries(f)
	if err != nil {
		return nil, fmt.Errorf("queries %s: %w", path, err)
	}
	return qs, nil
}

// ReadQueries reads BEIR queries from r (see LoadQueries).
func ReadQueries(r io.Reader) ([]Query, error) {
	var out []Query
	seen := map[string]bool{}
	err := ireval.ScanLines(r, 16<<20, func(_ int, b []byte) error {
		var raw struct {
			ID   json.RawMessage `json:"_id"`
			Text *string         `json:"text"`
		}
		if err := json.Unmarshal(b, &raw); err != nil {
			return err
		}
		id, err := idOf(raw.ID)
		if err != nil {
			return fmt.Errorf("_id: %w", err)
		}
		if raw.Text == nil {
			return fmt.Errorf("query %s has no \"text\"", id)
		}
		if seen[id] {
			return fmt.Errorf("duplicate query id %s", id)
		}
		seen[id] = true
		out = append(out, Query{ID: id, Text: *raw.Text})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// idOf accepts a string or a number as an id; TREC ids cannot hold spaces.
func idOf(raw json.RawMessage) (string, error) {
	if len(raw) == 0 {
		return "", fmt.Errorf("missing")
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		var n json.Number
		if err := json.Unmarshal(raw, &n); err != nil {
			return "", fmt.Errorf("want a string, got %s", raw)
		}
		s = n.String()
	}
	if s == "" || strings.ContainsAny(s, " \t\r\n") {
		return "", fmt.Errorf("%q is empty or holds white space", s)
	}
	return s, nil
}

// LoadQrels reads relevance judgments: a BEIR TSV (query-id, corpus-id,
// score, with an optional header) or TREC qrels (qid iter docid rel).
func LoadQrels(path string) (Qrels, error) {
	q, err := ireval.LoadQrels(path)
	if err != nil {
		return nil, fmt.Errorf("qrels: %w", err)
	}
	return q, nil
}

// Evaluate scores a run against the judgments. Every judged query with a
// relevant document counts; a query missing from the run scores 0.
func Evaluate(run Run, qrels Qrels) Metrics { return ireval.Evaluate(run, qrels) }

// TRECWriter writes a TREC run: "qid Q0 docid rank score tag" per line.
type TRECWriter struct {
	w   *bufio.Writer
	tag string
	buf []byte
}

// NewTRECWriter writes run lines tagged tag (white space becomes _).
func NewTRECWriter(w io.Writer, tag string) *TRECWriter {
	tag = strings.Join(strings.Fields(tag), "_")
	if tag == "" {
		tag = "mrpvm"
	}
	return &TRECWriter{w: bufio.NewWriterSize(w, 64<<10), tag: tag}
}

// Write writes the ranked documents of one query, rank 1 first.
func (t *TRECWriter) Write(qid string, docIDs []string, scores []float64) error {
	for i, d := range docIDs {
		b := t.buf[:0]
		b = append(b, qid...)
		b = append(b, " Q0 "...)
		b = append(b, d...)
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(i+1), 10)
		b = append(b, ' ')
		b = strconv.AppendFloat(b, scores[i], 'f', 6, 64)
		b = append(b, ' ')
		b = append(b, t.tag...)
		b = append(b, '\n')
		t.buf = b
		if _, err := t.w.Write(b); err != nil {
			return fmt.Errorf("write run: %w", err)
		}
	}
	return nil
}

// Flush writes buffered lines out.
func (t *TRECWriter) Flush() error {
	if err := t.w.Flush(); err != nil {
		return fmt.Errorf("write run: %w", err)
	}
	return nil
}

// ReadTREC reads a TREC run into document ids per query, ordered by rank
// (ties by the order in the file).
func ReadTREC(r io.Reader) (Run, error) {
	type ranked struct {
		doc  string
		rank int
	}
	tmp := map[string][]ranked{}
	err := ireval.ScanLines(r, 1<<20, func(_ int, text []byte) error {
		fs := strings.Fields(string(text))
		if len(fs) != 6 {
			return fmt.Errorf("want 6 columns (qid Q0 docid rank score tag), got %d", len(fs))
		}
		rank, err := strconv.Atoi(fs[3])
		if err != nil {
			return fmt.Errorf("rank: %w", err)
		}
		tmp[fs[0]] = append(tmp[fs[0]], ranked{fs[2], rank})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("run %w", err) // "run line N: ..."
	}
	run := make(Run, len(tmp))
	for q, rs := range tmp {
		slices.SortStableFunc(rs, func(a, b ranked) int { return cmp.Compare(a.rank, b.rank) })
		ids := make([]string, len(rs))
		for i, x := range rs {
			ids[i] = x.doc
		}
		run[q] = ids
	}
	return run, nil
}
