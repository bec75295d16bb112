package valsymbolic

import (
	"testing"

	"github.com/mrpvm/mrpvm/plugin"
)

// TestReactionIsNoDefinition: "What does X do when Y?" asks how X behaves
// in a situation, not what X is; "What does X do?" and "What is X?" ask
// what it is.
func TestReactionIsNoDefinition(t *testing.T) {
	asksWhatItIs := map[string]bool{
		"What does mrpvm do when the model service answers with a 429 rate limit?": false,
		"What does the VM do if a validator rejects an answer?":                    false,
		"What does it do after the timeout?":                                       false,
		"What does hookTimeoutMs do?":                                              true,
		"What is hookTimeoutMs?":                                                   true,
	}
	for prompt, want := range asksWhatItIs {
		in := &plugin.ValidateInput{Payload: plugin.Payload{Prompt: prompt}, Intents: []plugin.Intent{{Act: "define", Target: prompt}}}
		if got := defines(in); got != want {
			t.Errorf("%q: defines = %v, want %v", prompt, got, want)
		}
	}
}
