package symbolic

import "testing"

func TestIsCodeName(t *testing.T) {
	for word, want := range map[string]bool{
		"--quiet":          true,
		"-v":               true,
		"c.FullPath()":     true,
		"Run()":            true,
		"mrpvm.llm":        true,
		"hook_timeout":     true,
		"quiet":            false,
		"errors":           false,
		"--":               false,
		"what's":           false,
		"chi's middleware": false,
	} {
		if got := IsCodeName(word); got != want {
			t.Errorf("IsCodeName(%q) = %v, want %v", word, got, want)
		}
	}
}
