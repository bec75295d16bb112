package suite03

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mrpvm/mrpvm/test/internal/suitetest"
)

// TestSuite03Symbolic is the symbolic multi-hop suite: it must pass whole.
func TestSuite03Symbolic(t *testing.T) {
	res := suitetest.Run(t, "suite03")
	assert.Equal(t, 1.0, res.AnswerPassRate)
	assert.Equal(t, 1.0, res.ContextPassRate)
	assert.Empty(t, res.Notes, "the story is read by the suite's seed detector")
}
