package symbolic

import "testing"

// TestPhrasal: a how-to's verb takes the particle right after it; a text
// says the phrasal verb with its particle or as one word, and the verb
// alone when the particle does not follow it.
func TestPhrasal(t *testing.T) {
	checkCalls(t, "ActionParticle", ActionParticle, map[string]string{
		"How do I set up a swap file?":      "up",
		"shut down the server":              "down",
		"How do I set the label of a disk?": "",
		"back":                              "",
	})
	sets := func(s string) bool { return SaysPhrasal("set", "up", s) }
	setsAlone := func(s string) bool { return SaysVerbAlone("set", "up", s) }
	checkCalls(t, "SaysPhrasal(set, up)", sets, map[string]bool{
		"Set up a given swap area":    true,
		"Run the setup wizard":        true,
		"Set the UUID of a swap area": false,
	})
	checkCalls(t, "SaysVerbAlone(set, up)", setsAlone, map[string]bool{
		"Set up a given swap area":    false,
		"Run the setup wizard":        false,
		"Set the UUID of a swap area": true,
	})
}
