package valsymbolic

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mrpvm/mrpvm/plugin"
)

const grantDeny = "direnv [1]: Shell extension.\n\n" +
	"- Grant direnv permission to load the `.envrc`:\n\n  `direnv allow {{.}}`\n\n" +
	"- Revoke the authorization to load the `.envrc`:\n\n  `direnv deny {{.}}`\n\nSources:\n[1] direnv — common/direnv.md:3\n"

func conversationAfter(answer string) plugin.RunContext {
	return plugin.RunContext{Conversation: []plugin.Turn{
		{Role: "user", Text: "How do I let direnv load the .envrc?"},
		{Role: "assistant", Text: answer},
	}}
}

func TestRepeatsLastLead(t *testing.T) {
	rc := conversationAfter(grantDeny)
	again := "direnv [1]: Shell extension.\n\n- Grant direnv permission to load the `.envrc`:\n\n  `direnv allow {{.}}`\n"
	lead, ok := repeatsLastLead(again, rc)
	assert.True(t, ok, "the follow-up's answer is the example that answered the turn before")
	assert.Equal(t, "Grant direnv permission to load the `.envrc`:", lead)

	other := "direnv [1]: Shell extension.\n\n- Revoke the authorization to load the `.envrc`:\n\n  `direnv deny {{.}}`\n"
	_, ok = repeatsLastLead(other, rc)
	assert.False(t, ok, "an example the earlier answer only showed further down is a new answer")

	_, ok = repeatsLastLead(again, plugin.RunContext{})
	assert.False(t, ok, "without an earlier answer nothing is repeated")

	prose := "From Setup [1]:\n\n- Viper reads these files:\n\n  _It looks in the working directory._\n"
	_, ok = repeatsLastLead(prose, conversationAfter(prose))
	assert.False(t, ok, "a quoted paragraph is no example")
}
