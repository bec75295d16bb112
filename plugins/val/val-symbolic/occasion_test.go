package valsymbolic

import (
	"testing"

	"github.com/mrpvm/mrpvm/plugin"
)

const inotifywaitPage = `# inotifywait

> Waits for changes to files.

- Watch a directory recursively for events:

` + "`inotifywait --monitor --recursive {{path/to/directory}}`" + `
`

// TestHowToOccasionIsNotAsked: a how-to's clause that says when the user
// does it ("as it happens", "before I post them") is no part of what the
// answer must cover; the same words asked as the task are.
func TestHowToOccasionIsNotAsked(t *testing.T) {
	c := sourced{corpus: corpus{n: 1000, df: freqs(map[string]int{"watch directory recursive event change file print": 100, "happen": 2})},
		src: map[string]string{"linux/inotifywait.md": inotifywaitPage}}
	ev := units(t, "linux/inotifywait.md", inotifywaitPage)
	answer := "- Watch a directory recursively for events [1]:\n\n  `inotifywait --monitor --recursive {{path/to/directory}}`\n\nSources:\n[1] inotifywait — linux/inotifywait.md:3\n"
	for _, tc := range []struct {
		target string
		want   plugin.Status
	}{
		{"watch a directory recursively, printing each change as it happens", plugin.StatusAccepted},
		{"watch a directory recursively and print what happens", plugin.StatusRejected},
	} {
		t.Run(tc.target, func(t *testing.T) {
			res := validate(t, c, &plugin.ValidateInput{
				Payload: plugin.Payload{Prompt: "How do I " + tc.target + "?"},
				Intents: []plugin.Intent{{ID: "i1", Act: "implement", Target: tc.target}},
				Answer:  answer, Evidence: ev})
			expect(t, res, tc.want, "happen")
		})
	}
}

// TestOccasionFree: the occasion clause goes up to a completed
// follow-up's topic, which stays; a target that would keep nothing but
// filler stays whole.
func TestOccasionFree(t *testing.T) {
	for in, want := range map[string]string{
		"remove the GPS tags from photos before I post them online": "remove the GPS tags from photos",
		"stop it from wrapping lines when I encode (base64)":        "stop it from wrapping lines (base64)",
		"force a new password the next time they log in":            "force a new password",
		"remove the tags before posting":                            "remove the tags before posting",
		"do it when I log in":                                       "do it when I log in",
	} {
		if got := occasionFree(in); got != want {
			t.Errorf("occasionFree(%q) = %q, want %q", in, got, want)
		}
	}
}
