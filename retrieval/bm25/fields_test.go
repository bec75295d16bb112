package bm25

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mrpvm/mrpvm/kus"
)

func TestSplitBody(t *testing.T) {
	for _, tc := range []struct {
		name string
		body string
		want bodyParts
	}{
		{"empty", "", bodyParts{}},
		{"one paragraph is the description", "Display the last part of a file.\nMore lines.",
			bodyParts{desc: "Display the last part of a file.\nMore lines."}},
		{"how-to page", "Display the last part of a file.\n\n- Show the last lines:\n\ntail -n 5 path\n\n- Keep reading it until Ctrl c:\n\ntail --follow path",
			bodyParts{desc: "Display the last part of a file.\n", items: "- Show the last lines:\n- Keep reading it until Ctrl c:\n",
				code: "tail -n 5 path\ntail --follow path"}},
		{"prose after an item without a colon is not code", "Intro.\n\n- first point\n\nA closing remark.",
			bodyParts{desc: "Intro.\n", items: "- first point\n", rest: "A closing remark."}},
		{"badges and a logo before the description", "testing codecov godoc\n\nGorilla Logo\n\nPackage mux implements a request router.\n\nMore prose.",
			bodyParts{desc: "Package mux implements a request router.\n", rest: "testing codecov godoc\nGorilla Logo\nMore prose."}},
		{"a long unpunctuated first paragraph is the description", "a router for building Go HTTP services in small parts\n\nmore",
			bodyParts{desc: "a router for building Go HTTP services in small parts\n", rest: "more"}},
		{"only the first few paragraphs are searched", "a b\n\nc d\n\ne f\n\nA sentence at last.",
			bodyParts{rest: "a b\nc d\ne f\nA sentence at last."}},
		{"a list first has no description", "1. step one:\n2. step two\n\nafterwards",
			bodyParts{items: "1. step one:\n2. step two\n", rest: "afterwards"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, splitBody(tc.body))
		})
	}
}

func TestQueryTermsDropQuestionWords(t *testing.T) {
	x := New(DefaultParams())
	terms, w := x.QueryTerms("How many CPU cores are available?")
	assert.Equal(t, []string{"cpu", "core", "avail"}, terms)
	assert.Equal(t, []float64{1, 1, 1}, w)
	terms, w = x.QueryTerms("How do I make a script executable?")
	assert.Equal(t, []string{"make", "script", "execut"}, terms)
	assert.Equal(t, []float64{lightWeight, 1, 1}, w)
	// A query of question words only is still searched.
	terms, _ = x.QueryTerms("how many?")
	assert.NotEmpty(t, terms)
}

// The first paragraph is the description block when examples or steps
// follow it, and the lead of plain prose otherwise.
func TestDescriptionOrLead(t *testing.T) {
	howto := FieldTexts(&kus.KU{Topic: "tail", TextBody: "Display the last part of a file.\n\n- Show the last lines:\n\ntail -n 5 path"})
	assert.Equal(t, "Display the last part of a file.\n", howto[FieldDesc])
	assert.Empty(t, howto[FieldLead])
	prose := FieldTexts(&kus.KU{Topic: "abstract", TextBody: "Background of the study.\n\nMethods and results."})
	assert.Equal(t, "Background of the study.\n", prose[FieldLead])
	assert.Empty(t, prose[FieldDesc])
	assert.Equal(t, "Methods and results.", prose[FieldBody])
	w := DefaultParams().Weights
	assert.Greater(t, w[FieldDesc], w[FieldLead], "a page's description outweighs a prose opening")
}

// TestHasWords: hasWords counts words as strings.Fields splits them.
func TestHasWords(t *testing.T) {
	for _, s := range []string{"", "  ", "one", "a b c d e", "a b c d e f", " a\tb\nc  d e f g ", "ünï cödé wörds  in\u00a0text here and more", strings.Repeat("w ", 50)} {
		for n := 1; n <= 8; n++ {
			if got, want := hasWords(s, n), len(strings.Fields(s)) >= n; got != want {
				t.Errorf("hasWords(%q, %d) = %v, want %v", s, n, got, want)
			}
		}
	}
}

// TestQueryTermsLeaveOutAvoidedActions: the words of a clause naming an
// action the question avoids are not searched, unless the rest of the
// question holds them too.
func TestQueryTermsLeaveOutAvoidedActions(t *testing.T) {
	x := New(DefaultParams())
	terms, _ := x.QueryTerms("How do I clear a cache folder without restarting the daemon?")
	assert.Equal(t, []string{"clear", "cach", "folder", "without"}, terms)
	terms, _ = x.QueryTerms("restart the daemon without restarting its workers")
	assert.Equal(t, []string{"restart", "daemon", "without"}, terms)
	terms, _ = x.QueryTerms("build a router without the default middleware")
	assert.Equal(t, []string{"build", "router", "without", "default", "middlewar"}, terms)
}
