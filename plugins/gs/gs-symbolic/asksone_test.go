package gssymbolic

import "testing"

// TestIdentifyOneThingShowsItsRow: "Which chi middleware puts a request ID
// into every request's context?" asks for one middleware: the answer is
// the table's row for it, not the whole table; "Which middlewares does chi
// ship?" asks for the list and gets every row.
func TestIdentifyOneThingShowsItsRow(t *testing.T) {
	src := parseMD(t, "chi/README.md", "# chi\n\n## Core middlewares\n\n"+
		"| chi/middleware Handler | description |\n| :--- | :--- |\n"+
		"| [BasicAuth] | Basic HTTP authentication |\n"+
		"| [Compress] | Gzip compression for clients that accept compressed responses |\n"+
		"| [Logger] | Logs the start and end of each request with the elapsed processing time |\n"+
		"| [Recoverer] | Gracefully absorb panics and prints the stack trace |\n"+
		"| [RequestID] | Injects a request ID into the context of each request |\n")
	one := solveMD(t, "identify", "Which chi middleware puts a request ID into every request's context?", "chi middleware puts a request ID into every request's context",
		[]mdSource{src}, src.leaf(t, "Core middlewares"))
	checkMD(t, one, []string{"[RequestID]"}, []string{"[BasicAuth]", "[Compress]", "[Recoverer]"})
	all := solveMD(t, "identify", "Which middlewares log or compress requests?", "middlewares log or compress requests",
		[]mdSource{src}, src.leaf(t, "Core middlewares"))
	checkMD(t, all, []string{"[BasicAuth]", "[Compress]", "[Logger]", "[Recoverer]", "[RequestID]"}, nil)
}

func TestAsksOne(t *testing.T) {
	for q, want := range map[string]bool{
		"Which chi middleware puts a request ID into every request's context?": true,
		"Which field keeps a command out of the help output?":                  true,
		"Which one stops a panic from crashing the server?":                    true,
		"What option is required for this?":                                    true,
		"Which middlewares set response headers?":                              false,
		"Which of chi's core middlewares set response headers?":                false,
		"Which chi options matter?":                                            false,
		"What does tar do?":                                                    false,
		"Which commands does the Neovim plugin add?":                           false,
	} {
		if got := asksOne(q); got != want {
			t.Errorf("asksOne(%q) = %v, want %v", q, got, want)
		}
	}
}
