package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/mrpvm/mrpvm/kbsearch"
	"github.com/mrpvm/mrpvm/retrieval"
	"github.com/mrpvm/mrpvm/store"
	"github.com/mrpvm/mrpvm/store/storetest"
)

const searchData = "testdata/search"

// runSearchCLI runs mrpvm with the search flags reset to their defaults
// (cobra keeps flag values between Execute calls) and returns standard
// output and standard error.
func runSearchCLI(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	for _, c := range rootCmd.Commands() {
		if c.Name() == "search" {
			c.Flags().VisitAll(func(f *pflag.Flag) {
				_ = f.Value.Set(f.DefValue)
				f.Changed = false
			})
		}
	}
	ef, ferr := os.CreateTemp(t.TempDir(), "stderr")
	if ferr != nil {
		t.Fatal(ferr)
	}
	old := os.Stderr
	os.Stderr = ef
	stdout, err = runCLI(t, args...)
	os.Stderr = old
	ef.Close()
	b, ferr := os.ReadFile(ef.Name())
	if ferr != nil {
		t.Fatal(ferr)
	}
	return stdout, string(b), err
}

// searchJSON is the --json answer to one query.
type searchJSON struct {
	Plugin    string         `json:"plugin"`
	Terms     []string       `json:"terms"`
	Truncated bool           `json:"truncated"`
	Hits      []kbsearch.Hit `json:"hits"`
}

func TestSearchOneQuery(t *testing.T) {
	db := filepath.Join(t.TempDir(), "kb.db")
	ws := filepath.Join(searchData, "ws")
	long := strings.Repeat("chlorophyll photosynthesis light ", 3334) // 10,002 words
	tests := []struct {
		name      string
		args      []string
		code      int
		errHas    string
		top       string // source of the first hit ("" : no hits wanted)
		line      int
		truncated bool
	}{
		{name: "leaf", args: []string{"--plugin", "kb-fast", "borrow checker"}, top: "notes/rust-ownership.md", line: 3},
		{name: "section", args: []string{"--plugin", "kb-balanced", "Calvin cycle carbon dioxide sugars"}, top: "photosynthesis.md", line: 8},
		{name: "thinkingdb", args: []string{"--plugin", "kb-thinkingdb", "gravitational pull of the Moon"}, top: "tides.md", line: 3},
		{name: "by source", args: []string{"--plugin", "kb-fast", "--by-source", "memory B cells"}, top: "vaccines.md"},
		{name: "stop words only", args: []string{"the of and"}},
		{name: "10,000 words", args: []string{"--plugin", "kb-fast", long}, top: "photosynthesis.md", truncated: true},
		{name: "japanese", args: []string{"--plugin", "kb-fast", "東京"}, top: "tokyo.md"},
		{name: "greek", args: []string{"--plugin", "kb-balanced", "Αθήνα πρωτεύουσα"}, top: "tokyo.md"},
		{name: "arabic and emoji, not indexed", args: []string{"القاهرة 🌧️"}},
		{name: "empty", args: []string{"   "}, code: 2, errHas: codeEmptyQuery},
		{name: "no query", args: []string{}, code: 2, errHas: codeEmptyQuery},
		{name: "unknown plugin", args: []string{"--plugin", "kb-nope", "tides"}, code: 2, errHas: kbsearch.CodeUnknownPlugin},
		{name: "not a kb plugin", args: []string{"--plugin", "gs-symbolic", "tides"}, code: 2, errHas: kbsearch.CodeUnknownPlugin},
		{name: "k out of range", args: []string{"--k", "5000", "tides"}, code: 2, errHas: codeBadK},
		{name: "k zero", args: []string{"--k", "0", "tides"}, code: 2, errHas: codeBadK},
		{name: "k negative", args: []string{"--k", "-3", "tides"}, code: 2, errHas: codeBadK},
		{name: "k zero in a batch", args: []string{"--k", "0", "--queries", "testdata/search/queries.jsonl"}, code: 2, errHas: codeBadK},
		{name: "run without queries", args: []string{"--run", "x.trec", "tides"}, code: 2, errHas: codeBadQueries},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"-w", ws, "--db", db, "--json", "search"}, tc.args...)
			out, _, err := runSearchCLI(t, args...)
			if got := exitStatus(err); got != tc.code {
				t.Fatalf("exit %d, want %d (err %v)", got, tc.code, err)
			}
			if tc.code != 0 {
				if err == nil || !strings.Contains(err.Error(), tc.errHas) {
					t.Fatalf("error %v, want code %s", err, tc.errHas)
				}
				return
			}
			var res searchJSON
			if err := json.Unmarshal([]byte(out), &res); err != nil {
				t.Fatalf("output is not JSON: %v\n%s", err, out)
			}
			if res.Truncated != tc.truncated {
				t.Errorf("truncated %v, want %v", res.Truncated, tc.truncated)
			}
			if tc.top == "" {
				if len(res.Hits) != 0 {
					t.Errorf("want no hits, got %+v", res.Hits)
				}
				return
			}
			if len(res.Hits) == 0 {
				t.Fatalf("no hits, want %s first (terms %v)", tc.top, res.Terms)
			}
			h := res.Hits[0]
			if h.SourceID != tc.top || h.Rank != 1 || h.Score <= 0 || h.Title == "" || h.KUID == "" {
				t.Errorf("first hit %+v, want source %s", h, tc.top)
			}
			if tc.line > 0 && h.Line != tc.line {
				t.Errorf("first hit at line %d, want %d", h.Line, tc.line)
			}
			seen := map[string]bool{}
			for i, x := range res.Hits {
				if i > 0 && x.Score > res.Hits[i-1].Score {
					t.Errorf("hit %d scores %g above hit %d (%g)", i, x.Score, i-1, res.Hits[i-1].Score)
				}
				if seen[x.KUID] {
					t.Errorf("KU %s listed twice", x.KUID)
				}
				seen[x.KUID] = true
			}
		})
	}
}

func TestSearchTextOutput(t *testing.T) {
	db := filepath.Join(t.TempDir(), "kb.db")
	out, _, err := runSearchCLI(t, "-w", filepath.Join(searchData, "ws"), "--db", db, "search", "--plugin", "kb-fast", "spring tides neap")
	if err != nil {
		t.Fatal(err)
	}
	first := strings.Fields(strings.SplitN(out, "\n", 2)[0])
	if len(first) < 4 || first[0] != "1" || !strings.HasPrefix(first[2], "tides.md:") {
		t.Errorf("first line %q, want rank 1, score, tides.md:LINE, title", first)
	}
}

func TestSearchBatch(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "kb.db")
	ws := filepath.Join(searchData, "ws")
	queries := filepath.Join(searchData, "queries.jsonl")
	qrels := filepath.Join(searchData, "qrels.tsv")
	for _, p := range []string{"kb-fast", "kb-balanced", "kb-thinkingdb"} {
		t.Run(p, func(t *testing.T) {
			run := filepath.Join(dir, p+".trec")
			out, _, err := runSearchCLI(t, "-w", ws, "--db", db, "--json", "search", "--plugin", p,
				"--queries", queries, "--qrels", qrels, "--run", run, "--k", "3", "--workers", "2")
			if err != nil {
				t.Fatal(err)
			}
			var res struct {
				Queries     int
				Metrics     map[string]float64
				Seconds     *float64 `json:"seconds"`
				OpenSeconds *float64 `json:"openSeconds"`
			}
			if err := json.Unmarshal([]byte(out), &res); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if res.Seconds == nil || res.OpenSeconds == nil || *res.OpenSeconds < 0 {
				t.Errorf("the batch does not time the queries and the index opening apart: %s", out)
			}
			// q1-q3 and q5 find their document first; q4 is stop words only.
			if res.Queries != 6 || res.Metrics["ndcg@10"] != 0.8 || res.Metrics["mrr@10"] != 0.8 || res.Metrics["judgedQueries"] != 5 {
				t.Errorf("got %+v", res)
			}
			b, err := os.ReadFile(run)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSpace(string(b)), "\n")
			first := map[string]string{}
			for _, l := range lines {
				f := strings.Fields(l)
				if len(f) != 6 || f[1] != "Q0" || f[5] != p {
					t.Fatalf("run line %q is not qid Q0 docid rank score tag", l)
				}
				if strings.HasSuffix(f[2], ".md") {
					t.Errorf("docid %s keeps .md", f[2])
				}
				if f[3] == "1" {
					first[f[0]] = f[2]
				}
			}
			want := map[string]string{"q1": "photosynthesis", "q2": "vaccines", "q3": "notes/rust-ownership", "q5": "tides", "q6": "tokyo"}
			for q, d := range want {
				if first[q] != d {
					t.Errorf("%s: rank 1 is %q, want %q", q, first[q], d)
				}
			}
			if _, ok := first["q4"]; ok {
				t.Errorf("q4 (stop words) has hits")
			}
			r, err := retrieval.ReadTREC(strings.NewReader(string(b)))
			if err != nil || len(r["q1"]) > 3 {
				t.Errorf("run: %v, q1 has %d docs with --k 3", err, len(r["q1"]))
			}
		})
	}
}

func TestSearchBatchBadInput(t *testing.T) {
	db := filepath.Join(t.TempDir(), "kb.db")
	ws := filepath.Join(searchData, "ws")
	tests := []struct {
		name   string
		args   []string
		errHas string
	}{
		{"malformed line", []string{"--queries", filepath.Join(searchData, "bad-queries.jsonl")}, "line 2"},
		{"duplicate id", []string{"--queries", filepath.Join(searchData, "dup-queries.jsonl")}, "duplicate query id q1"},
		{"missing file", []string{"--queries", filepath.Join(searchData, "nope.jsonl")}, codeBadQueries},
		{"bad qrels", []string{"--queries", filepath.Join(searchData, "queries.jsonl"), "--qrels", filepath.Join(searchData, "bad-qrels.tsv")}, codeBadQrels},
		{"query and file", []string{"--queries", filepath.Join(searchData, "queries.jsonl"), "tides"}, codeEmptyQuery},
		{"unwritable run", []string{"--queries", filepath.Join(searchData, "queries.jsonl"), "--run", filepath.Join(searchData, "no", "such", "dir.trec")}, codeBadRun},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := runSearchCLI(t, append([]string{"-w", ws, "--db", db, "search"}, tc.args...)...)
			if exitStatus(err) != 2 || !strings.Contains(err.Error(), tc.errHas) {
				t.Errorf("err %v (exit %d), want exit 2 mentioning %q", err, exitStatus(err), tc.errHas)
			}
		})
	}
}

// TestSearchRepairsCorruptIndex garbles every value of a plugin's private
// bucket in the bbolt file: search must notice, rebuild the index from the
// stored KUs, say so on standard error and still answer.
func TestSearchRepairsCorruptIndex(t *testing.T) {
	db := filepath.Join(t.TempDir(), "kb.db")
	ws := filepath.Join(searchData, "ws")
	base := []string{"-w", ws, "--db", db, "--json", "search"}
	for _, p := range []string{"kb-fast", "kb-balanced", "kb-thinkingdb"} {
		t.Run(p, func(t *testing.T) {
			if _, _, err := runSearchCLI(t, append(base, "--plugin", p, "tides")...); err != nil {
				t.Fatal(err)
			}
			garble(t, db, p)
			for _, args := range [][]string{{"gravitational pull of the Moon"}, {"--queries", filepath.Join(searchData, "queries.jsonl"), "--run", filepath.Join(t.TempDir(), "run.trec")}} {
				out, stderr, err := runSearchCLI(t, append(append(base, "--plugin", p), args...)...)
				if err != nil {
					t.Fatalf("%v\n%s", err, stderr)
				}
				if !strings.Contains(stderr, "is corrupt") || !strings.Contains(stderr, "rebuilt the index of "+p) {
					t.Errorf("stderr does not report the repair: %q", stderr)
				}
				if args[0] != "--queries" {
					var res searchJSON
					if err := json.Unmarshal([]byte(out), &res); err != nil || len(res.Hits) == 0 || res.Hits[0].SourceID != "tides.md" {
						t.Errorf("after repair: %v %+v", err, res.Hits)
					}
				}
				garble(t, db, p)
			}
		})
	}
}

// garble overwrites every value of plugin id's namespace in the knowledge
// base file path with bytes no decoder accepts.
func garble(t *testing.T, path, id string) {
	t.Helper()
	st, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	storetest.Garble(t, st.PluginStore(id))
}
