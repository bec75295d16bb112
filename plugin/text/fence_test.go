package text

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestFences(t *testing.T) {
	doc := "prose\n```go\ncode\n~~~\nstill code\n  ```\nafter\n~~~\n```not closing\n~~~\nend"
	var f Fences
	var code []string
	for _, l := range strings.Split(doc, "\n") {
		if f.Step(l) {
			code = append(code, strings.TrimSpace(l))
		}
	}
	assert.Equal(t, []string{"```go", "code", "~~~", "still code", "```", "~~~", "```not closing", "~~~"}, code)
	assert.False(t, f.Open())
	f.Step("```")
	assert.True(t, f.Open())
}
