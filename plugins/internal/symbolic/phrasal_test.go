package symbolic

import "testing"

// TestPhrasal: a how-to's verb takes the particle right after it; a text
// says the phrasal verb with its particle or as one word, and the verb
// alone when the particle does not follow it.
func TestPhrasal(t *testing.T) {
	for task, want := range map[string]string{
		"How do I set up a swap file?":      "up",
		"shut down the server":              "down",
		"How do I set the label of a disk?": "",
		"back":                              "",
	} {
		if got := ActionParticle(task); got != want {
			t.Errorf("ActionParticle(%q) = %q, want %q", task, got, want)
		}
	}
	for s, want := range map[string]bool{
		"Set up a given swap area":    true,
		"Run the setup wizard":        true,
		"Set the UUID of a swap area": false,
	} {
		if got := SaysPhrasal("set", "up", s); got != want {
			t.Errorf("SaysPhrasal(set, up, %q) = %v, want %v", s, got, want)
		}
		if got := SaysVerbAlone("set", "up", s); got != (s == "Set the UUID of a swap area") {
			t.Errorf("SaysVerbAlone(set, up, %q) = %v", s, got)
		}
	}
}
