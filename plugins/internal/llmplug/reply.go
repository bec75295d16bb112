package llmplug

import (
	"encoding/json"
	"strings"

	"github.com/mrpvm/mrpvm/plugin"
)

// Marker is what a goal solver's reply says about itself on its first line.
type Marker int

// Reply markers.
const (
	MarkerNone               Marker = iota // an answer
	MarkerNoContext                        // NO_CONTEXT: the evidence does not answer the task
	MarkerNeedsDecomposition               // NEEDS_DECOMPOSITION: the task is too broad for one answer
)

// ReadMarker looks at the first non-empty line of a reply for NO_CONTEXT or
// NEEDS_DECOMPOSITION (any case, with -, _ or a space, optionally in bold or
// backticks), followed by an optional ":" and a reason. It returns the
// marker, the reason (the rest of that line and of the reply) and the reply
// with code fences around the whole of it removed.
func ReadMarker(reply string) (Marker, string, string) {
	body := Unfence(reply)
	first, rest, _ := strings.Cut(strings.TrimSpace(body), "\n")
	norm := strings.ToUpper(strings.Trim(strings.TrimSpace(first), "*_`#> "))
	norm = strings.NewReplacer("-", "_", " ", "_").Replace(norm)
	for _, m := range []struct {
		key    string
		marker Marker
	}{{"NO_CONTEXT", MarkerNoContext}, {"NEEDS_DECOMPOSITION", MarkerNeedsDecomposition}} {
		if !strings.HasPrefix(norm, m.key) {
			continue
		}
		// The reason is the original text after the marker word.
		orig := strings.Trim(strings.TrimSpace(first), "*_`#> ")
		reason := strings.TrimSpace(orig[min(len(m.key), len(orig)):])
		reason = strings.TrimSpace(strings.TrimLeft(reason, ":-–—*` "))
		if r := strings.TrimSpace(rest); r != "" {
			reason = strings.TrimSpace(reason + " " + strings.Join(strings.Fields(r), " "))
		}
		return m.marker, Truncate(reason, 500), body
	}
	return MarkerNone, "", body
}

// Unfence removes one code fence wrapping the whole text (```markdown ...
// ```), which some models add around every reply.
func Unfence(s string) string {
	t := strings.TrimSpace(s)
	if !strings.HasPrefix(t, "```") || !strings.HasSuffix(t, "```") || len(t) < 6 {
		return t
	}
	first, rest, ok := strings.Cut(t, "\n")
	if !ok || strings.Contains(strings.TrimPrefix(first, "```"), "`") {
		return t
	}
	inner := strings.TrimSuffix(rest, "```")
	if strings.Contains(inner, "```") { // several blocks: not one wrapper
		return t
	}
	return strings.TrimSpace(inner)
}

// ReadVerdict reads a validator's reply: a first line ACCEPT or REJECT
// (also ACCEPTED/REJECTED, "VERDICT: ...", any case), with the reason after
// a colon or on a "REASON:" line, or a JSON object {"verdict", "reason"}.
// ok is false when no verdict can be found.
func ReadVerdict(reply string) (verdict plugin.Status, reason string, ok bool) {
	body := Unfence(reply)
	var js struct {
		Verdict string `json:"verdict"`
		Reason  string `json:"reason"`
	}
	if strings.HasPrefix(body, "{") && json.Unmarshal([]byte(body), &js) == nil {
		if v, ok := verdictWord(js.Verdict); ok {
			return v, strings.TrimSpace(js.Reason), true
		}
		return "", "", false
	}
	lines := strings.Split(body, "\n")
	for i, line := range lines {
		l := strings.Trim(strings.TrimSpace(line), "*_`#> ")
		if l == "" {
			continue
		}
		rest := l
		if len(rest) >= 7 && strings.EqualFold(rest[:7], "verdict") {
			rest = strings.TrimLeft(rest[7:], ":*_ ")
		}
		word := rest
		if j := strings.IndexAny(rest, " :.,;-—"); j >= 0 {
			word = rest[:j]
		}
		v, found := verdictWord(word)
		if !found {
			return "", "", false // the first line must carry the verdict
		}
		reason = strings.TrimSpace(strings.TrimLeft(rest[len(word):], ":.,;-—*_ "))
		for _, more := range lines[i+1:] {
			m := strings.Trim(strings.TrimSpace(more), "*_`#> ")
			if m == "" {
				continue
			}
			if strings.HasPrefix(strings.ToUpper(m), "REASON") {
				m = strings.TrimSpace(strings.TrimLeft(m[len("REASON"):], ":*_ "))
			}
			reason = strings.TrimSpace(reason + " " + m)
		}
		return v, Truncate(reason, 500), true
	}
	return "", "", false
}

func verdictWord(w string) (plugin.Status, bool) {
	switch strings.ToUpper(strings.TrimSpace(w)) {
	case "ACCEPT", "ACCEPTED", "PASS", "PASSED", "VALID":
		return plugin.StatusAccepted, true
	case "REJECT", "REJECTED", "FAIL", "FAILED", "INVALID":
		return plugin.StatusRejected, true
	}
	return "", false
}
