package gssymbolic

import (
	"strings"
	"testing"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugins/internal/symbolic"
)

// chiCatalogue is a README with prose about middlewares, a section that
// lists them as a table and one that lists extra packages.
var chiCatalogue = strings.Join([]string{"# chi", "", "## Middleware handlers", "",
	"chi's middlewares are just stdlib net/http middleware handlers, and chi ships many of them.", "",
	"## Core middlewares", "", "| handler | description |", "| --- | --- |",
	"| [Profiler] | Easily attach net/http/pprof to your routers |", "| [Logger] | Logs the start and end of each request |", "",
	"## Extra packages", "", "| package | description |", "| --- | --- |", "| [docgen] | Print chi.Router routes at runtime |", ""}, "\n")

// TestDefinedByItsCatalogueRow: "What is chi's Profiler middleware?" is
// answered by the row "Profiler" of the section that lists chi's
// middlewares, over prose that shares the question's other words; a row
// whose section does not list the kind the question names ("Extra
// packages" for "docgen in chi") is not its definition.
func TestDefinedByItsCatalogueRow(t *testing.T) {
	src := parseMD(t, "chi/README.md", chiCatalogue)
	asked := map[string]string{"Core middlewares": "chi's Profiler middleware", "Extra packages": "docgen in chi"}
	for title, want := range map[string]bool{"Core middlewares": true, "Extra packages": false} {
		k, got := src.leaf(t, title), false
		for _, s := range statementsOf(k, srcCorpus{src.id: src.md}) {
			got = got || keyCellDefined(s, symbolic.ContentTerms(asked[title]), k)
		}
		if got != want {
			t.Errorf("a row of %q defines %q: %v, want %v", title, asked[title], got, want)
		}
	}
	ev := []*kus.KU{src.leaf(t, "Middleware handlers"), src.leaf(t, "Core middlewares")}
	md := solveMD(t, "define", "What is chi's Profiler middleware?", "chi's Profiler middleware", []mdSource{src}, ev...)
	checkMD(t, md, []string{"pprof", "[1] Core middlewares"}, nil)
}
