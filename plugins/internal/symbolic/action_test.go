package symbolic

import (
	"reflect"
	"testing"
)

func TestAction(t *testing.T) {
	for _, tc := range []struct {
		task, action string
		object       []string
	}{
		{"How do I follow a log file as it grows?", "follow", []string{"log", "file"}},
		{"find where the executable for a program lives", "find", nil},
		{"and how do I quickly remove one?", "remov", nil},
		{"How do I make a script executable?", "", nil}, // "make" says only "do"
		{"how to lst running proceses", "", nil},        // a typing mistake is no action
		{"What is the meaning of life?", "", nil},       // "what" is a stop word
		{"kill all processes by name", "kill", []string{"process"}},
		{"What can I run to read the disk temperature?", "read", []string{"disk", "temperatur"}},
		{"Is it possible to rename a branch?", "renam", []string{"branch"}},
	} {
		a, o := Action(tc.task)
		if a != tc.action || (tc.action != "" && len(o)+len(tc.object) > 0 && !reflect.DeepEqual(o, tc.object)) {
			t.Errorf("Action(%q) = %q %q, want %q %q", tc.task, a, o, tc.action, tc.object)
		}
	}
}

func TestActionMatch(t *testing.T) {
	for _, tc := range []struct {
		action, text string
		want         float64
	}{
		{"stop", "Stop a running process", 1},
		{"stop", "Halt the machine", relativeMatch},          // a synonym
		{"break", "Split a file into pieces", relativeMatch}, // "break" is among the synonyms of "split"
		{"find", "Start a program and show a live view", 0},
	} {
		if got := ActionMatch(tc.action, TermSet(tc.text), true); got != tc.want {
			t.Errorf("ActionMatch(%q, %q) = %v, want %v", tc.action, tc.text, got, tc.want)
		}
	}
}

func TestActionCompoundAndIdentTerms(t *testing.T) {
	if got := ActionCompound("How do I shut down a server gracefully?"); got != "shutdown" {
		t.Errorf("ActionCompound = %q, want shutdown", got)
	}
	if got := ActionCompound("How do I stop a server?"); got != "" {
		t.Errorf("ActionCompound of a plain verb = %q", got)
	}
	if a, o := Action("shut down a server gracefully"); a != "shut" || !reflect.DeepEqual(o, []string{"server", "grace"}) {
		t.Errorf("Action = %q %q", a, o)
	}
	id := IdentTerms("viper.SetDefault(\"key\", 1)")
	if !id["set"] || !id["default"] {
		t.Errorf("IdentTerms = %v", id)
	}
}

// TestWeakAction: the weak verb a task opens with, after its how-to
// opening; none for a task with a verb of its own.
func TestWeakAction(t *testing.T) {
	checkCalls(t, "WeakAction", WeakAction, map[string]string{
		"I want to put two files next to each other": "put",
		"How do I make a script executable?":         "make",
		"kill all processes by name":                 "",
	})
}
