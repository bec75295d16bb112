package gssymbolic

import (
	"strings"
	"testing"
)

// TestTableRowNamedByItsKeyCellLeads: a table row whose first cell the
// question names ("a new configuration key") is the table's entry for what
// it asks, and the answer leads with it over a page that only shares the
// question's words in its prose.
func TestTableRowNamedByItsKeyCellLeads(t *testing.T) {
	ref := parseMD(t, "docs/configuration.md", "# Configuration reference\n\nmrpvm reads three JSON files. This page lists every configuration key with its default, and a test checks each key against the code.\n")
	arch := parseMD(t, "docs/architecture.md", "# Architecture\n\n## Where does this change belong\n\n"+
		"| change | where it belongs |\n| --- | --- |\n"+
		"| a new configuration key | `config` (the struct and its default), documented in `docs/configuration.md` |\n"+
		"| a new ingest step | `ingest` (`plan.go`, `walk.go`) |\n")
	md := solveMD(t, "identify", "Where should the code for a new configuration key go?", "should the code for a new configuration key go",
		[]mdSource{ref, arch}, ref.soleLeaf(t), arch.leaf(t, "Where does this change belong"))
	sources := md[strings.Index(md, "Sources:"):]
	checkMD(t, sources, []string{"[1] Where does this change belong"}, nil)
	checkMD(t, md, []string{"a new configuration key"}, nil)
}

// TestWhatQuestionAskingForAKeyColumnGetsEveryRow: a "what" question that
// asks for the things a table's first column holds ("packages" of a
// "package | description" table) is shown every row, not only the rows
// that share its other words.
func TestWhatQuestionAskingForAKeyColumnGetsEveryRow(t *testing.T) {
	src := parseMD(t, "chi/README.md", testdataMD(t, "chi-packages.md"))
	md := solveMD(t, "explain", "What extra packages does the project offer, for example for rate limiting?", "extra packages does the project offer, for example for rate limiting",
		[]mdSource{src}, src.leaf(t, "Extra middlewares & packages"))
	checkMD(t, md, []string{"cors", "jwtauth", "httprate", "stampede"}, nil)
	if keyColumnAsked([]string{"| package | description |"}, []string{"rate", "limit"}) {
		t.Error("a question that does not ask for the key column's things asks for every row")
	}
}
