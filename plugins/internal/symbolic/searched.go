package symbolic

import "regexp"

// SearchedForNote is the line a goal solver closes an answer with when the
// evidence was retrieved for other words than the question's (a
// spelling-corrected or follow-up-completed query). It repeats the user's
// words, so a validator must not take it for something the answer says
// (SearchedForRE finds it).
func SearchedForNote(query string) string { return "_Searched for: " + query + "_" }

// SearchedForRE matches a SearchedForNote line of an answer.
var SearchedForRE = regexp.MustCompile(`(?m)^_Searched for: .*_\s*$`)
