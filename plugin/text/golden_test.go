package text

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// update rewrites the golden files from the current analyzer:
// go test ./plugin/text -run Same -update (with the SciFact corpus
// present for testdata/scifact.golden). Review the diff before committing:
// a golden file records the tokens the knowledge base's indexes depend on.
var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current analyzer")

// goldenLine renders one text and its tokens as a JSON line:
// {"text": ..., "tokens": [[term, pos, part], ...]}.
func goldenLine(s string, toks []Token) []byte {
	rows := make([][3]any, len(toks))
	for i, tok := range toks {
		rows[i] = [3]any{tok.Term, tok.Pos, tok.Part}
	}
	b, err := json.Marshal(struct {
		Text   string   `json:"text"`
		Tokens [][3]any `json:"tokens"`
	}{s, rows})
	if err != nil {
		panic(err)
	}
	return b
}

// analyse returns the golden lines of texts under a fresh analyzer of
// opts, and requires term IDs that number the terms one to one.
func analyse(t *testing.T, opts Options, texts []string) [][]byte {
	t.Helper()
	a := New(opts)
	byID := map[uint32]string{}
	idOf := map[string]uint32{}
	lines := make([][]byte, 0, len(texts))
	for _, s := range texts {
		var got []Token
		a.Each(s, func(tok Token) {
			if tok.ID == 0 {
				t.Fatalf("term %q of %q has no ID", tok.Term, s)
			}
			if term, ok := byID[tok.ID]; ok && term != tok.Term {
				t.Fatalf("ID %d is %q and %q", tok.ID, term, tok.Term)
			}
			if id, ok := idOf[tok.Term]; ok && id != tok.ID {
				t.Fatalf("term %q has IDs %d and %d", tok.Term, id, tok.ID)
			}
			byID[tok.ID], idOf[tok.Term] = tok.Term, tok.ID
			got = append(got, tok)
		})
		lines = append(lines, goldenLine(s, got))
	}
	return lines
}

// compareGolden compares lines with testdata/name, or writes them there
// under -update.
func compareGolden(t *testing.T, name string, lines [][]byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, append(bytes.Join(lines, []byte("\n")), '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to record it)", err)
	}
	want := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(want) < len(lines) {
		t.Fatalf("%s holds %d lines, the analyzer gave %d", path, len(want), len(lines))
	}
	for i, got := range lines {
		if string(got) != want[i] {
			t.Fatalf("%s line %d:\nwant %s\ngot  %s", path, i+1, want[i], got)
		}
	}
}

// checkGolden analyses texts and compares their tokens with testdata/name.
func checkGolden(t *testing.T, name string, opts Options, texts []string) {
	t.Helper()
	compareGolden(t, name, analyse(t, opts, texts))
}

// digestBlock is how many texts one digest line of a large golden covers.
const digestBlock = 200

// checkGoldenDigests is checkGolden for a corpus too large to keep whole,
// analysed twice by one analyzer (cold, then warm cache), both passes
// required to agree: the golden holds the SHA-256 of each block of
// digestBlock golden lines of one pass, and a prefix of the corpus checks
// the blocks it covers (a prefix that ends inside a block fails: keep
// prefixes to multiples of digestBlock).
func checkGoldenDigests(t *testing.T, name string, opts Options, texts []string) {
	t.Helper()
	lines := analyse(t, opts, append(slices.Clip(texts), texts...))
	cold, warm := lines[:len(texts)], lines[len(texts):]
	for i := range cold {
		if !bytes.Equal(cold[i], warm[i]) {
			t.Fatalf("text %d: the warm cache changed the tokens:\ncold %s\nwarm %s", i, cold[i], warm[i])
		}
	}
	var digests [][]byte
	for i := 0; i < len(cold); i += digestBlock {
		block := cold[i:min(i+digestBlock, len(cold))]
		digests = append(digests, fmt.Appendf(nil, "%d %x", i, sha256.Sum256(bytes.Join(block, []byte("\n")))))
	}
	compareGolden(t, name, digests)
}
