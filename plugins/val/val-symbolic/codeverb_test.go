package valsymbolic

import "testing"

// TestQuestionVerbsAskNothing: the verb after a code name a definition
// opens with ("hide" of "--quiet hide") and the verb of a likeness ("look
// like") are the question's verbs, which the answer need not say; a word
// the lexicon knows as no verb, and a target that does not open with a
// code name, keep their words.
func TestQuestionVerbsAskNothing(t *testing.T) {
	readAs := map[string]string{
		"--quiet hide":                          "--quiet ",
		"c.FullPath() give me in a gin handler": "c.FullPath()  me in a gin handler",
		"--verbose mode":                        "--verbose mode",
		"the --quiet flag hide":                 "the --quiet flag hide",
		"errors look like with --json":          "errors   with --json",
	}
	for target, want := range readAs {
		if got := likenessFree(codeVerbFree(target)); got != want {
			t.Errorf("%q read as %q, want %q", target, got, want)
		}
	}
}
