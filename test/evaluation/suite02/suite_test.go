package suite02

import (
	"testing"

	"github.com/mrpvm/mrpvm/test/internal/suitetest"
)

// TestStoryNeverInvents: without a model every answer must be grounded
// (no-context, or statements copied from the story with citations).
func TestStoryNeverInvents(t *testing.T) {
	suitetest.AssertGrounded(t, "suite02", suitetest.Run(t, "suite02"))
}
