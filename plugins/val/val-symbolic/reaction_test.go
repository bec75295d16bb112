package valsymbolic

import (
	"testing"

	"github.com/mrpvm/mrpvm/plugin"
)

// TestReactionIsNoDefinition: "What does X do when Y?" asks how X behaves
// in a situation, not what X is; "What does X do?" and "What is X?" ask
// what it is.
func TestReactionIsNoDefinition(t *testing.T) {
	cases := []struct {
		prompt string
		want   bool
	}{
		{"What does mrpvm do when the model service answers with a 429 rate limit?", false},
		{"What does the VM do if a validator rejects an answer?", false},
		{"What does it do after the timeout?", false},
		{"What does hookTimeoutMs do?", true},
		{"What is hookTimeoutMs?", true},
	}
	for _, tc := range cases {
		t.Run(tc.prompt, func(t *testing.T) {
			in := &plugin.ValidateInput{Payload: plugin.Payload{Prompt: tc.prompt},
				Intents: []plugin.Intent{{Act: "define", Target: tc.prompt}}}
			if got := defines(in); got != tc.want {
				t.Fatalf("defines = %v, want %v", got, tc.want)
			}
		})
	}
}
