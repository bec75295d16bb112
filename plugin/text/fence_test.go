package text

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestFences(t *testing.T) {
	doc := "prose\n```go\ncode\n~~~\nstill code\n  ```\nafter\n~~~\n```not closing\n~~~\nend"
	want := []FenceLine{Prose, Opening, Inside, Inside, Inside, Closing, Prose, Opening, Inside, Closing, Prose}
	var f Fences
	var got []FenceLine
	for _, l := range strings.Split(doc, "\n") {
		got = append(got, f.Read(l))
	}
	assert.Equal(t, want, got)
	assert.False(t, f.Open())
	assert.True(t, f.Step("```"))
	assert.True(t, f.Open())
	assert.True(t, f.Step("x"))
	assert.False(t, f.Step("```") && f.Open())
	assert.False(t, f.Step("y"))
}
