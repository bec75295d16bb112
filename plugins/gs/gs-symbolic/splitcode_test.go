package gssymbolic

import (
	"testing"

	"github.com/mrpvm/mrpvm/kus"
)

// TestCodeCommentOpensNoExample: a piece of a code block too long for one
// unit is held without its fences; a comment in it ending in ":" labels
// the code under it and is not a description opening an example, so the
// piece is no procedure of "description: command" pairs.
func TestCodeCommentOpensNoExample(t *testing.T) {
	k := &kus.KU{ID: "r::1::1", Level: kus.LevelLeaf, Title: "Examples", TextBody: "    r.Post(\"/\", createArticle)\n\n" +
		"    // Subrouters:\n    r.Route(\"/{articleID}\", func(r chi.Router) {\n      r.Get(\"/\", getArticle)\n    })\n  })\n" +
		"  # Shell step:\n  http.ListenAndServe(\":3333\", r)\n}"}
	if p, ok := readProcedure(k); ok {
		t.Fatalf("readProcedure read examples %+v from code", p.examples)
	}
	k.TextBody = "Run the server.\n\n- Start it on a port:\n\n`serve --port 80`"
	if p, ok := readProcedure(k); !ok || len(p.examples) != 1 || p.examples[0].desc != "Start it on a port" {
		t.Fatalf("readProcedure = %+v, %v; want the one example", p, ok)
	}
}
