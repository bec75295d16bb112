package symbolic

import "regexp"

var (
	// sizeAskRE is a question about an amount of data: "how big can a
	// file be", "how large", "how small".
	sizeAskRE = regexp.MustCompile(`(?i)\bhow\s+(big|large|small)\b`)
	// sizeRE is an amount of data a text gives: a number with a unit of
	// bytes ("1 MiB", "64 KB", "512 bytes").
	sizeRE = regexp.MustCompile(`(?i)\b\d+(?:[.,]\d+)?\s*(?:[kmgt]i?b|bytes?|kilobytes?|megabytes?|gigabytes?)\b`)
)

// GivesSize reports whether a text gives an amount of data (sizeRE).
func GivesSize(text string) bool { return sizeRE.MatchString(text) }

// WithoutSizeAdjective is question with the adjective of each "how big",
// "how large" or "how small" left out: it asks for an amount of data and
// names nothing an answer that gives one must say.
func WithoutSizeAdjective(question string) string {
	return sizeAskRE.ReplaceAllStringFunc(question, func(m string) string {
		return m[:len("how")]
	})
}
