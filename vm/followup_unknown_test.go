package vm_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mrpvm/mrpvm/vm"
)

// TestFollowUpOfUnknownWordsHasNoContext: a follow-up whose own words
// ("defragmentation") occur nowhere in the knowledge base gets no answer, however
// well the topic it inherits ("disk", "storage") matches a page; one
// whose own word is known is answered from the page.
func TestFollowUpOfUnknownWordsHasNoContext(t *testing.T) {
	root, db := sessionWorkspace(t, "storage")
	got := askTurns(t, root, db,
		turn{"What happens to the knowledge base file on disk after a power loss?", "docs/storage.md"},
		turn{"and after a defragmentation?", ""})
	assert.Equal(t, vm.StatusNoContext, got[1].Status, "a follow-up about a word the workspace never uses is not answered from the topic's page")

	known := askTurns(t, root, db,
		turn{"What happens to the knowledge base file on disk after a power loss?", "docs/storage.md"},
		turn{"and how do I back it up?", "docs/storage.md"})
	assert.Equal(t, vm.StatusAnswered, known[1].Status)
}
