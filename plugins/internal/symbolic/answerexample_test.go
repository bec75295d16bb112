package symbolic

import (
	"testing"

	"github.com/mrpvm/mrpvm/plugin"
	"github.com/stretchr/testify/assert"
)

func TestCommandExamplesAreTheExamplesWithACommandLine(t *testing.T) {
	answer := "- Allow the .envrc [1]:\n\n  `direnv allow`\n\n- Show a block [1]:\n\n  ```sh\n  ls\n  ```\n\n- Not an example\n\n  `ls`\n"
	assert.Equal(t, []string{"Allow the .envrc [1]:"}, CommandExamples(answer))
	assert.Empty(t, CommandExamples("plain prose"))
}

func TestLastAnswerIsTheLastAssistantTurn(t *testing.T) {
	conv := []plugin.Turn{{Role: "user", Text: "q1"}, {Role: "assistant", Text: "a1"}, {Role: "user", Text: "q2"}, {Role: "assistant", Text: "a2"}, {Role: "user", Text: "q3"}}
	assert.Equal(t, "a2", LastAnswer(conv))
	assert.Equal(t, "", LastAnswer(conv[:1]))
}
