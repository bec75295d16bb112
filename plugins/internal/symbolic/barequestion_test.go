package symbolic

import (
	"slices"
	"testing"
)

// TestBareQuestionAsksOfTheStatementBefore: a question of question words
// alone ("Why?", "Why is that?") after a statement asks about that
// statement, as one task; one that opens the turn, or follows a question,
// stands as it is, and a question that names something of its own is a
// task of its own.
func TestBareQuestionAsksOfTheStatementBefore(t *testing.T) {
	tasksOf := map[string][]string{
		"In gin I registered /user/:name first, but /user/groups still wins. Why?": {"Why In gin I registered /user/:name first, but /user/groups still wins?"},
		"The build fails on CI. Why is that?":                                      {"Why is that The build fails on CI?"},
		"Why? What is gin?":                                                        {"Why?", "What is gin?"},
		"What is gin? Why?":                                                        {"What is gin?", "Why?"},
		"The build fails. Why does make stop?":                                     {"The build fails.", "Why does make stop?"},
	}
	for turn, want := range tasksOf {
		var got []string
		for _, p := range Split(turn) {
			if p.Task {
				got = append(got, p.Text)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("Split(%q) tasks = %q, want %q", turn, got, want)
		}
	}
}
