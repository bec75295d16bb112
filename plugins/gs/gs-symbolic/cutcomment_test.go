package gssymbolic

import (
	"strings"
	"testing"

	"github.com/mrpvm/mrpvm/plugins/internal/symbolic"
)

// TestCutBlockKeepsCommentedStatement: a long code block cut to the lines
// that hold the task's terms keeps, after a matching comment, the
// statement the comment describes, not the comment alone.
func TestCutBlockKeepsCommentedStatement(t *testing.T) {
	lines := []string{"```go", "func main() {", "  r := gin.Default()", ""}
	for i := 0; i < 30; i++ {
		lines = append(lines, "  step"+strings.Repeat("x", i%4)+"()")
	}
	lines = append(lines,
		"  r.GET(\"/long_async\", func(c *gin.Context) {",
		"    // create copy to be used inside the goroutine",
		"    cCp := c.Copy()",
		"    go func() {",
		"  })",
		"}",
		"```")
	got := strings.Join(cutBlock(lines, symbolic.ContentTerms("start a goroutine from a handler safely")), "\n")
	if !strings.Contains(got, "used inside the goroutine") || !strings.Contains(got, "cCp := c.Copy()") {
		t.Errorf("the comment's statement is cut:\n%s", got)
	}
	if strings.Contains(got, "stepx()") {
		t.Errorf("lines without a task term kept:\n%s", got)
	}
	if !strings.HasPrefix(got, "```") || !strings.HasSuffix(got, "```") {
		t.Errorf("fences lost:\n%s", got)
	}
}
