package vm

import (
	"regexp"
	"strings"
)

// completedTopicRE matches the topic a follow-up was completed with: the
// parenthesised group that closes the question as searched.
var completedTopicRE = regexp.MustCompile(`\s*\([^()]*\)\s*[?.!]?\s*$`)

// followUpUnknown lists the words a follow-up adds to the conversation's
// topic, as searched (after any spelling correction), when none of them
// occurs in the knowledge base ("swap" of "and after a disk swap?" on a
// page about the disk): the follow-up asks about something the
// workspace does not hold, however well a passage on the topic matches
// the words the topic lends it. nil for a question that is no follow-up,
// that adds no word of its own, or when one of its words is known.
func (r *run) followUpUnknown() []string {
	if r.carried == nil {
		return nil
	}
	q := r.question
	if r.trace.SearchedFor != "" {
		q = r.trace.SearchedFor
	}
	topic := termSet(r.carried.Topic)
	var own []string
	for _, w := range wordRE.FindAllString(completedTopicRE.ReplaceAllString(q, ""), -1) {
		ts := contentTerms(w)
		if len(ts) > 0 && !allTermsIn(ts, topic) {
			own = append(own, w)
		}
	}
	if len(own) == 0 {
		return nil
	}
	return r.unknownIn(strings.Join(own, " "))
}

// allTermsIn reports whether set holds every one of terms.
func allTermsIn(terms []string, set map[string]bool) bool {
	for _, t := range terms {
		if !set[t] {
			return false
		}
	}
	return true
}
