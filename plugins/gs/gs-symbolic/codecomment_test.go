package gssymbolic

import "testing"

// routesPage documents its routing rule only in the comments of its code.
const routesPage = "# Routing\n\n## Parameters in path\n\n```go\nfunc main() {\n  router := gin.Default()\n\n" +
	"  // This handler will match /user/john but not /user\n  router.GET(\"/user/:name\", func(c *gin.Context) {\n" +
	"    c.String(http.StatusOK, \"Hello\")\n  })\n\n" +
	"  // Exact routes are resolved before param routes, regardless of the order they were defined.\n" +
	"  router.GET(\"/user/groups\", func(c *gin.Context) {\n    c.String(http.StatusOK, \"groups\")\n  })\n\n" +
	"  // Start it\n  router.Run(\":8080\")\n}\n```\n"

// TestCodeCommentsAnswerWhy: a question of why (or of what something
// gives) is answered by the comment in documentation code that says it,
// shown with the statement under it, not by the program around it; a
// comment too short to state anything is no answer of its own.
func TestCodeCommentsAnswerWhy(t *testing.T) {
	src := parseMD(t, "gin/docs/doc.md", routesPage)
	md := solveMD(t, "explain", "Why does /user/groups go to the groups handler and not to /user/:name?",
		"does /user/groups go to the groups handler and not to /user/:name", []mdSource{src}, src.leaf(t, "Parameters in path"))
	checkMD(t, md, []string{
		"Exact routes are resolved before param routes, regardless of the order they were defined. [1]",
		"router.GET(\"/user/groups\", func(c *gin.Context) {\n  c.String(http.StatusOK, \"groups\")\n})",
	}, []string{"func main"})

	said := map[string]bool{}
	ss := statementsOf(src.leaf(t, "Parameters in path"), srcCorpus{src.id: src.md})
	for _, s := range commentStatements(ss) {
		said[s.text] = len(s.block) > 0
	}
	if _, ok := said["Start it"]; ok || !said["This handler will match /user/john but not /user"] {
		t.Errorf("want each comment of five words or more, with the code under it, and no shorter one: %v", said)
	}
}
