package vm

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mrpvm/mrpvm/plugin"
)

// TestSituationContext: a first-person statement lends what it names,
// without its subject, the adverbs and auxiliaries before its verb, and
// the verb; a request, a statement about something else and a question
// lend nothing.
func TestSituationContext(t *testing.T) {
	cases := []struct {
		statement, want string
		ok              bool
	}{
		{"I resized the volume", "the volume", true},
		{"I already launched a slow build in my terminal", "a slow build in my terminal", true},
		{"We have recently renamed the repository.", "the repository", true},
		{"I have a folder of scanned invoices", "a folder of scanned invoices", true},
		{"I want to shrink a picture", "", false},
		{"I'm trying to merge two branches", "", false},
		{"The volume is full", "", false},
		{"I resized", "", false},
	}
	for _, c := range cases {
		got, ok := situationContext(c.statement)
		assert.Equal(t, c.ok, ok, c.statement)
		assert.Equal(t, c.want, got, c.statement)
	}
}

// TestFoldSituations: a statement closed by a full stop before a
// question is folded into that question as the words it borrows; a
// statement that ends the question, or one asked as a question, stays a
// task of its own.
func TestFoldSituations(t *testing.T) {
	intents := func(targets ...string) []plugin.Intent {
		var out []plugin.Intent
		for _, tg := range targets {
			out = append(out, plugin.Intent{Act: "implement", Target: tg})
		}
		return out
	}
	r := &run{trace: &Trace{}, question: "I resized the volume. How do I make the filesystem on it use the new space?"}
	got := r.foldSituations(intents("I resized the volume", "make the filesystem on it use the new space"))
	if assert.Len(t, got, 1) {
		assert.Equal(t, "make the filesystem on it use the new space (the volume)", got[0].Target)
	}

	r = &run{trace: &Trace{}, question: "I created a swap file; how do I start using it?"}
	got = r.foldSituations(intents("I created a swap file;", "start using it"))
	if assert.Len(t, got, 1, "a statement that keeps its closing semicolon is folded") {
		assert.Equal(t, "start using it (a swap file)", got[0].Target)
	}

	r = &run{trace: &Trace{}, question: "I resized the volume. My disk has no partition table. How do I grow it, and how do I check it?"}
	got = r.foldSituations(intents("I resized the volume", "My disk has no partition table", "grow it", "check it"))
	if assert.Len(t, got, 2, "statements in a row are all folded") {
		assert.Equal(t, "grow it (the volume; disk has no partition table)", got[0].Target)
		assert.Equal(t, "check it (the volume; disk has no partition table)", got[1].Target,
			"every part of the question after the statements is asked in their scene")
	}

	r = &run{trace: &Trace{}, question: "How do I list the volumes, and I resized the volume?"}
	assert.Len(t, r.foldSituations(intents("list the volumes", "I resized the volume")), 2)

	r = &run{trace: &Trace{}, question: "Did I resize the volume? How do I check it?"}
	assert.Len(t, r.foldSituations(intents("I resize the volume", "check it")), 2)
}
