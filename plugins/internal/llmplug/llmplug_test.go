package llmplug

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/txtar"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
)

func sources(n int) []Source {
	var out []Source
	for i := 1; i <= n; i++ {
		k := &kus.KU{ID: "k" + string(rune('0'+i)), Title: "T" + string(rune('0'+i)), SourceID: "s.md", Range: kus.Range{StartLine: i}}
		out = append(out, Source{N: i, KU: k, Title: k.Title})
	}
	return out
}

func TestCite(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
		ids            []string
		unknown        []int
	}{
		{"renumbered by first use", "B [3]. A [1]. B again [3].", "B [1]. A [2]. B again [1].", []string{"k3", "k1"}, nil},
		{"groups and ranges", "All [1, 2]. Some [2-3]. Semi [1; 3].", "All [1][2]. Some [2][3]. Semi [1][3].", []string{"k1", "k2", "k3"}, nil},
		{"unknown dropped", "X [9]. Y [2].", "X. Y [1].", []string{"k2"}, []int{9}},
		{"links kept", "See [1](https://x.org) and [2].", "See [1](https://x.org) and [1].", []string{"k2"}, nil},
		{"own sources list cut", "Z [1].\n\n## Sources\n[1] my list", "Z [1].", []string{"k1"}, nil},
		{"no citation", "Nothing cited.", "Nothing cited.", nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Cite(tc.in, sources(3))
			body, _, _ := strings.Cut(c.Markdown, "\n\nSources:\n")
			assert.Equal(t, tc.want, strings.TrimSpace(body))
			assert.Equal(t, tc.ids, c.EvidenceIDs())
			assert.Equal(t, tc.unknown, c.Unknown)
			if len(tc.ids) > 0 {
				assert.Contains(t, c.Markdown, "\n\nSources:\n[1] T")
			} else {
				assert.NotContains(t, c.Markdown, "Sources:")
			}
		})
	}
	c := Cite("A [2].", sources(2))
	assert.Equal(t, "A [1].\n\nSources:\n[1] T2 — s.md:2\n", c.Markdown)
}

func TestReadMarker(t *testing.T) {
	for _, tc := range []struct {
		in     string
		marker Marker
		reason string
	}{
		{"NO_CONTEXT: nothing about cats", MarkerNoContext, "nothing about cats"},
		{"**No context** — the sources are about dogs", MarkerNoContext, "the sources are about dogs"},
		{"```\nNEEDS_DECOMPOSITION: a; b\n```", MarkerNeedsDecomposition, "a; b"},
		{"needs-decomposition", MarkerNeedsDecomposition, ""},
		{"Paris [1]. Note: NO_CONTEXT would be wrong.", MarkerNone, ""},
	} {
		m, reason, _ := ReadMarker(tc.in)
		assert.Equal(t, tc.marker, m, tc.in)
		assert.Equal(t, tc.reason, reason, tc.in)
	}
}

func TestReadVerdict(t *testing.T) {
	for _, tc := range []struct {
		in      string
		verdict plugin.Status
		reason  string
		ok      bool
	}{
		{"ACCEPT: grounded", plugin.StatusAccepted, "grounded", true},
		{"Verdict: rejected - cites nothing", plugin.StatusRejected, "cites nothing", true},
		{"REJECT\nREASON: wrong city", plugin.StatusRejected, "wrong city", true},
		{"accepted", plugin.StatusAccepted, "", true},
		{`{"verdict":"accept","reason":"ok"}`, plugin.StatusAccepted, "ok", true},
		{`{"verdict":"maybe"}`, "", "", false},
		{"Looks fine to me. ACCEPT", "", "", false},
		{"", "", "", false},
	} {
		v, r, ok := ReadVerdict(tc.in)
		assert.Equal(t, tc.ok, ok, tc.in)
		assert.Equal(t, tc.verdict, v, tc.in)
		assert.Equal(t, tc.reason, r, tc.in)
	}
}

// TestExtractSeedDocs runs the replies in testdata/seed/*.txtar: each has a
// "reply" file and the expected "intent" and "context" documents (and
// "problems", one a line, when they must not validate).
func TestExtractSeedDocs(t *testing.T) {
	files, err := filepath.Glob("testdata/seed/*.txtar")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			raw, err := os.ReadFile(f)
			require.NoError(t, err)
			parts := map[string]string{}
			for _, p := range txtar.Parse(raw).Files {
				parts[p.Name] = strings.TrimSpace(string(p.Data))
			}
			docs, err := ExtractSeedDocs(parts["reply"])
			if want, ok := parts["error"]; ok {
				require.Error(t, err)
				assert.Contains(t, err.Error(), want)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, parts["intent"], docs.IntentCNL)
			assert.Equal(t, parts["context"], docs.ContextCNL)
			var problems []string
			if p := parts["problems"]; p != "" {
				problems = strings.Split(p, "\n")
			}
			got := CheckSeedDocs(docs)
			require.Len(t, got, len(problems), "%q", got)
			for i := range problems {
				assert.True(t, strings.HasPrefix(got[i], problems[i]), "%q does not start with %q", got[i], problems[i])
			}
		})
	}
}

func TestNumberEvidence(t *testing.T) {
	long := strings.Repeat("word ", 400)
	ev := []plugin.ScoredKU{{KU: &kus.KU{ID: "a", Title: "A", Claim: long}}, {KU: nil}, {KU: &kus.KU{ID: "b", Title: "B"}},
		{KU: &kus.KU{ID: "c", Title: "C", Claim: "short"}}}
	got := NumberEvidence(ev, nil, Limits{MaxItems: 5, MaxChars: 600})
	require.Len(t, got, 2, "nil and empty KUs are skipped")
	assert.Equal(t, 1, got[0].N)
	assert.Equal(t, "c", got[1].KU.ID)
	assert.LessOrEqual(t, len(got[0].Text), 300+len(" …"))
	ctx := NumberEvidence(nil, []plugin.ContextItem{{Title: "X", Text: "x", SourceLink: "x.md"}}, Limits{})
	require.Len(t, ctx, 1)
	assert.Equal(t, "X — x.md", ctx[0].Ref())
}

func TestPrompts(t *testing.T) {
	fsys := fstest.MapFS{"p/a.tmpl": {Data: []byte(`{{define "a.system"}} sys {{end}}{{define "a.user"}}Q: {{.Q}} {{join ", " .L}} {{truncate 3 .Q}}{{end}}`)}}
	p, err := ParsePrompts(fsys, "p/*.tmpl")
	require.NoError(t, err)
	assert.True(t, p.Has("a"))
	assert.False(t, p.Has("b"))
	msgs, err := p.Messages("a", map[string]any{"Q": "hello", "L": []string{"x", "y"}})
	require.NoError(t, err)
	assert.Equal(t, []plugin.Message{{Role: "system", Content: "sys\n"}, {Role: "user", Content: "Q: hello x, y hel …\n"}}, msgs)
	_, err = p.Messages("a", map[string]any{"L": []string{}})
	assert.ErrorContains(t, err, "Q", "missing keys are errors")
	_, err = p.Messages("b", nil)
	assert.ErrorContains(t, err, `no prompt template "b.system"`)
	_, err = ParsePrompts(fstest.MapFS{"p/bad.tmpl": {Data: []byte(`{{define "x"}}`)}}, "p/*.tmpl")
	assert.Error(t, err)
}

func TestStatusOf(t *testing.T) {
	for code, want := range map[string]plugin.Status{plugin.CodeLLMUnavailable: plugin.StatusUnsupported, plugin.CodeLLMBudget: plugin.StatusUnsupported,
		"llm_timeout": plugin.StatusError, "llm_auth": plugin.StatusError} {
		st, e := StatusOf(&plugin.Error{Code: code, Message: "m"})
		assert.Equal(t, want, st, code)
		assert.Equal(t, code, e.Code)
	}
	st, e := StatusOf(nil)
	assert.Equal(t, plugin.StatusSuccess, st)
	assert.Nil(t, e)
}
