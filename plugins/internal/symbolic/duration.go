package symbolic

import "regexp"

var (
	// durationAskRE is a question about a span of time: "how long may a
	// call take", "how soon", "how often".
	durationAskRE = regexp.MustCompile(`(?i)\bhow\s+(long|soon|often)\b`)
	// durationRE is a span of time a text gives: an amount with a unit of
	// time ("48 hours", "150 ms", "5s"), or a setting or name for one
	// ("timeoutMs", "pluginTimeoutMs", "time.Second", "--timeout", an
	// interval, a deadline). A word that only ends in one names something
	// else ("wrapper_timeout" is an error).
	durationRE = regexp.MustCompile(`(?i)\b\d+(?:[.,]\d+)?\s*(?:ms|milliseconds?|s|secs?|seconds?|mins?|minutes?|h|hours?|days?|weeks?|months?|years?)\b|\b(?:timeout|deadline|interval)s?\b|\btime\.(?:millisecond|second|minute|hour)\b|[a-z]Ms\b`)
)

// AsksDuration reports whether a question asks for a span of time: how
// long, how soon or how often.
func AsksDuration(question string) bool { return durationAskRE.MatchString(question) }

// GivesDuration reports whether a text gives a span of time (durationRE).
func GivesDuration(text string) bool { return durationRE.MatchString(text) }

// WithoutDurationAdverb is question with the adverb of each "how long",
// "how soon" or "how often" left out: the adverb asks for the span and
// names nothing an answer that gives one must say.
func WithoutDurationAdverb(question string) string {
	return durationAskRE.ReplaceAllStringFunc(question, func(m string) string {
		return m[:len("how")]
	})
}
