package gssymbolic

import (
	"regexp"
	"slices"
	"strings"
)

// dottedNameRE matches a name written as code writes a path, a file or a
// setting: words joined by dots or slashes (".vscode/settings.json",
// "mrpvm.llm.endpoint", "net.ipv4.ip_forward"), a final ".*" standing for
// every name under it ("mrpvm.llm.*").
var dottedNameRE = regexp.MustCompile(`[A-Za-z0-9_~-]*[A-Za-z0-9_~-](?:[./][A-Za-z0-9_~-]+)+(?:\.\*)?|\.[A-Za-z0-9_-]+(?:[./][A-Za-z0-9_~-]+)+`)

// dottedNames are the qualified names s writes, lower-cased: dotted or
// slashed names of three parts or more. A name of two ("plugin.json",
// "urfave/cli") is a file or a library that whole pages are about and many
// of their passages write.
func dottedNames(s string) []string {
	var out []string
	for _, m := range dottedNameRE.FindAllString(s, -1) {
		m = strings.TrimRight(m, ".")
		if strings.Count(m, ".")+strings.Count(m, "/") >= 2 {
			out = append(out, strings.ToLower(m))
		}
	}
	return out
}

// quotesNames is the share of the dotted names asked (dottedNames of the
// target) that text writes as they are, or under a name it ends with ".*"
// ("mrpvm.llm.*" for "mrpvm.llm.endpoint"). The analysed terms of such a
// name ("mrpvm", "llm", "endpoint") are common words of a workspace that
// many passages share; the name written whole is what only the passages
// about that setting or file say.
func quotesNames(asked []string, text string) float64 {
	if len(asked) == 0 {
		return 0 // the text is not scanned for names nobody asked
	}
	return shareSaid(asked, dottedNames(text), func(a, s string) bool {
		return s == a || strings.HasSuffix(s, ".*") && strings.HasPrefix(a, strings.TrimSuffix(s, "*"))
	})
}

// shareSaid is the share of the names asked (at least one) that match
// (by match) one of the names said.
func shareSaid(asked, said []string, match func(asked, said string) bool) float64 {
	n := 0
	for _, a := range asked {
		if slices.ContainsFunc(said, func(s string) bool { return match(a, s) }) {
			n++
		}
	}
	return float64(n) / float64(len(asked))
}

// identNameRE matches an identifier written in camel or Pascal case: a
// capital right after a lower-case letter or digit inside it ("FullPath",
// "SetDefault", "getVarNames"); a word in capitals ("UUID") is not one.
var identNameRE = regexp.MustCompile(`\b[A-Za-z][A-Za-z0-9]*[a-z0-9][A-Z][A-Za-z0-9]*\b|\b[a-z][A-Z][A-Za-z0-9]*\b`)

// identNames are the camel or Pascal case identifiers s writes, as
// written.
func identNames(s string) []string {
	if !hasCaseStep(s) {
		return nil
	}
	var out []string
	for _, m := range identNameRE.FindAllString(s, -1) {
		if !slices.Contains(out, m) {
			out = append(out, m)
		}
	}
	return out
}

// hasCaseStep reports whether s has a capital right after a lower-case
// letter or digit, which every identifier identNameRE matches has: most
// statements have none and are not scanned.
func hasCaseStep(s string) bool {
	for i := 1; i < len(s); i++ {
		if c, p := s[i], s[i-1]; 'A' <= c && c <= 'Z' && ('a' <= p && p <= 'z' || '0' <= p && p <= '9') {
			return true
		}
	}
	return false
}

// writesIdents is the share of the identifiers asked (identNames of the
// target) that text writes as they are, case and all. Such an identifier
// ("c.FullPath()", "FilePath") is one term among the question's words,
// weighing no more in a statement's overlap than a common word many
// passages share ("gin", "handler"); written whole, it is what the
// passages about that call, field or setting say, as a qualified name is
// (quotesNames).
func writesIdents(asked []string, text string) float64 {
	if len(asked) == 0 {
		return 0 // the text is not scanned for names nobody asked
	}
	return shareSaid(asked, identNames(text), func(a, s string) bool { return a == s })
}
