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
	requireTasks(t, tasksOf)
}

// TestToolQuestionAsksHowToDoTheStatementBefore: a question that only asks
// which tool, command or program to use ("What command do I use?"), or
// only how ("How?"), after what the user wants done is one task with it:
// the statement, asked as a how-to when it states a wish ("I need to
// ..."); a question that names something of its own, or opens the turn,
// stands as it is.
func TestToolQuestionAsksHowToDoTheStatementBefore(t *testing.T) {
	tasksOf := map[string][]string{
		"I want to turn a PNG into a lossless WebP image. What command do I use?":           {"How do I turn a PNG into a lossless WebP image?"},
		"My script must answer the prompts of an interactive program. Which tool do I use?": {"My script must answer the prompts of an interactive program."},
		"I need to see which words changed between two files. What can I use?":              {"How do I see which words changed between two files?"},
		"I want to turn a PNG into WebP. Which tool converts SVG files?":                    {"I want to turn a PNG into WebP.", "Which tool converts SVG files?"},
		"For a prize draw I need to pick 3 lines at random from a file. How?":               {"How do I pick 3 lines at random from a file?"},
		"The backup must run every night. How do I do that?":                                {"How do I do that The backup must run every night?"},
		// The tool may be named by its kind: a noun of what it does.
		"I want to shrink my WAV recordings without losing quality. Which encoder do I use and how?": {"How do I shrink my WAV recordings without losing quality?"},
		"I want to archive my photos. Which folder do I keep them in?":                               {"I want to archive my photos.", "Which folder do I keep them in?"},
		// Any question of question words alone but "why" asks how to do
		// a wish; the subject may be left out after "and", and what is
		// wished may be a thing.
		"I'm on Fedora 40 and want to move the system to the next release. What are the steps?": {"How do I move the system to the next release (I'm on Fedora 40)?"},
		"Before the upgrade I'd like a read-only snapshot of my root filesystem. How?":          {"How do I get a read-only snapshot of my root filesystem?"},
		"I need an HTTPS certificate for localhost. How do I make one?":                         {"How do I make an HTTPS certificate for localhost?"},
		"I want to print a log file without its last 5 lines. What's the quickest way?":         {"How do I print a log file without its last 5 lines?"},
		"I have a big log file. How?":                                                  {"How I have a big log file?"},
		"I want to renew the certificate. When?":                                       {"When I want to renew the certificate?"},
		"I need a certificate for localhost. How do I do that?":                        {"How do I get a certificate for localhost?"},
		"The old backups pile up and need to be pruned. How?":                          {"How The old backups pile up and need to be pruned?"},
		"I want to print a log without its last lines. Is there a more efficient way?": {"How do I print a log without its last lines?"},
		"I want to pick 3 lines at random. Why?":                                       {"Why I want to pick 3 lines at random?"},
		"The disk is full. What are the steps?":                                        {"What are the steps The disk is full?"},
		"Which tool do I use?":                                                         {"Which tool do I use?"},
		"How do I crop a PNG? Which tool do I use?":                                    {"How do I crop a PNG?", "Which tool do I use?"},
	}
	requireTasks(t, tasksOf)
}

// requireTasks checks that Split reads each turn of tasksOf into the
// tasks it maps the turn to, in order.
func requireTasks(t *testing.T, tasksOf map[string][]string) {
	t.Helper()
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
