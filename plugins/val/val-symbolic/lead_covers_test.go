package valsymbolic

import (
	"strings"
	"testing"

	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins/internal/plugintest"
)

// TestTheLeadSourceCoversSomethingAsked: an answer that leads with a
// source whose statements cover none of the question's key terms leads
// with something else, though a source it cites further down covers
// them all; a lead source that covers some of them is not rejected for it.
func TestTheLeadSourceCoversSomethingAsked(t *testing.T) {
	const target = "rotate nginx logs weekly"
	rotate := plugintest.Claim("r::1", "logrotate", "common/logrotate.md", 3, "Rotate nginx logs weekly.")
	// Each first statement, from a source cited first, and whether the
	// answer is rejected for leading with it.
	leadRejected := map[string]bool{
		"Print the disk usage of a folder.": true,
		"Print the nginx version.":          false,
	}
	for claim, rejected := range leadRejected {
		t.Run(claim, func(t *testing.T) {
			lead := plugintest.Claim("l::1", "lead", "common/lead.md", 3, claim)
			in := plugin.ValidateInput{Payload: plugin.Payload{Prompt: "How do I " + target + "?"},
				Intents:  []plugin.Intent{{ID: "i1", Act: "implement", Target: target}},
				Answer:   claim + " [1]\n\nRotate nginx logs weekly. [2]\n\nSources:\n[1] lead — common/lead.md:3\n[2] logrotate — common/logrotate.md:3\n",
				Evidence: []plugin.ScoredKU{{KU: lead, Score: 1}, {KU: rotate, Score: 1}}}
			res := validate(t, nil, &in)
			if got := strings.Contains(res.Reason, "covers none of what"); got != rejected {
				t.Errorf("rejected for the lead source: %v, want %v (%s: %s)", got, rejected, res.Status, res.Reason)
			}
		})
	}
}
