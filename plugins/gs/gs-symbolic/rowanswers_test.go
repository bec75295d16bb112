package gssymbolic

import (
	"strings"
	"testing"
)

// TestHowToAnsweredByAReferenceTableRow: a how-to whose words a row of a
// reference table holds ("GetHead | Automatically route undefined HEAD
// requests to GET handlers") is answered with that row, not with the code
// of a section that shares only a word or two of it.
func TestHowToAnsweredByAReferenceTableRow(t *testing.T) {
	src := parseMD(t, "chi/README.md", "# chi\n\n## Request handlers\n\n"+
		"chi uses standard net/http request handlers.\n\n"+
		"```go\nfunc MyRequestHandler(w http.ResponseWriter, r *http.Request) {\n  w.Write([]byte(\"hi\"))\n}\n```\n\n"+
		"## Core middlewares\n\n"+
		"| chi/middleware Handler | description |\n| :--- | :--- |\n"+
		"| [Compress] | Gzip compression for clients that accept compressed responses |\n"+
		"| [GetHead] | Automatically route undefined HEAD requests to GET handlers |\n"+
		"| [Logger] | Logs the start and end of each request with the elapsed processing time |\n")
	md := solveMD(t, "implement", "How do I make HEAD requests get routed to my GET handlers automatically?", "make HEAD requests get routed to my GET handlers automatically",
		[]mdSource{src}, src.leaf(t, "Request handlers"), src.leaf(t, "Core middlewares"))
	checkMD(t, md, []string{"GetHead"}, []string{"MyRequestHandler"})
	sources := md[strings.Index(md, "Sources:"):]
	checkMD(t, sources, []string{"[1] Core middlewares"}, nil)
}
