package llmplug

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
)

// Source is one numbered piece of evidence shown to the model as [N].
type Source struct {
	N     int
	KU    *kus.KU // nil for a context item with no KU behind it
	Title string
	Link  string // source:line#ku-id, as in plugin.ContextItem
	Text  string // what the prompt shows, possibly shortened
	Why   string // the retriever's reason (a proof chain), if any
}

// Ref renders where the source is: "title — source:line".
func (s Source) Ref() string {
	if s.KU == nil {
		if s.Link == "" {
			return s.Title
		}
		return s.Title + " — " + s.Link
	}
	title := s.KU.Title
	if title == "" {
		title = s.KU.Topic
	}
	return fmt.Sprintf("%s — %s:%d", title, s.KU.SourceID, max(1, s.KU.Range.StartLine))
}

// Limits bound the evidence a prompt shows.
type Limits struct {
	MaxItems int // default 8
	MaxChars int // all texts together; default 12000
}

func (l Limits) withDefaults() Limits {
	if l.MaxItems <= 0 {
		l.MaxItems = 8
	}
	if l.MaxChars <= 0 {
		l.MaxChars = 12000
	}
	return l
}

// NumberEvidence numbers the evidence KUs [1]..[n] in the order given (the
// retriever's, most relevant first), skipping empty ones. With no KUs it
// numbers the payload's context items instead. Each text is shortened so
// that all of them fit in the limits.
func NumberEvidence(evidence []plugin.ScoredKU, context []plugin.ContextItem, lim Limits) []Source {
	lim = lim.withDefaults()
	var out []Source
	for _, e := range evidence {
		if e.KU == nil {
			continue
		}
		body := e.KU.Text()
		if e.KU.Procedure == "" && len(e.KU.TextBody) > len(body) {
			body = e.KU.TextBody
		}
		if strings.TrimSpace(body) == "" {
			continue
		}
		ci := plugin.ContextItemOf(e.KU)
		out = append(out, Source{KU: e.KU, Title: ci.Title, Link: ci.SourceLink, Text: body, Why: e.Why})
		if len(out) == lim.MaxItems {
			break
		}
	}
	if len(out) == 0 {
		for _, c := range context {
			if strings.TrimSpace(c.Text) == "" {
				continue
			}
			out = append(out, Source{Title: c.Title, Link: c.SourceLink, Text: c.Text})
			if len(out) == lim.MaxItems {
				break
			}
		}
	}
	if len(out) > 0 {
		per := max(300, lim.MaxChars/len(out))
		for i := range out {
			out[i].N = i + 1
			out[i].Text = Truncate(strings.TrimSpace(out[i].Text), per)
			out[i].Why = Truncate(strings.TrimSpace(out[i].Why), 400)
		}
	}
	return out
}

// Guidance returns the text of guidance KUs (answer shape, procedure,
// validation rules), one line each, at most n.
func Guidance(g []plugin.ScoredKU, n int) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range g {
		if s.KU == nil {
			continue
		}
		t := strings.Join(strings.Fields(s.KU.Text()), " ")
		if t == "" || seen[t] {
			continue
		}
		seen[t] = true
		out = append(out, Truncate(t, 400))
		if len(out) == n {
			break
		}
	}
	return out
}

// citeRe matches [1], [1, 2], [1; 3] and [1-3] (not Markdown links).
var citeRe = regexp.MustCompile(`\[(\d{1,3}(?:\s*(?:[,;]|-|–)\s*\d{1,3})*)\]`)

// sourcesHeading matches a "Sources:" / "References" section the model
// wrote itself; it is replaced by the canonical one.
var sourcesHeading = regexp.MustCompile(`(?im)^\s*(?:#{1,6}\s*|\*\*)?(?:sources|references|citations)\s*:?\s*(?:\*\*)?\s*:?\s*$`)

// Cited is an answer with its citations checked and renumbered.
type Cited struct {
	// Markdown is the answer with citations renumbered in order of first
	// use, unknown numbers dropped, and a "Sources:" list appended.
	Markdown string
	// Used are the sources cited, in their new order ([1] is Used[0]).
	Used []Source
	// Unknown lists cited numbers that name no source.
	Unknown []int
}

// EvidenceIDs returns the KU ids of the cited sources.
func (c Cited) EvidenceIDs() []string {
	var ids []string
	for _, s := range c.Used {
		if s.KU != nil && s.KU.ID != "" {
			ids = append(ids, s.KU.ID)
		}
	}
	return ids
}

// Cite checks the [n] citations of a model's answer against the numbered
// sources: each maps back to its KU, numbers are renumbered in order of
// first citation, numbers that name no source are dropped (and listed in
// Unknown), a sources section the model wrote is cut, and the canonical
// "Sources:" list (as gs-symbolic writes it) is appended.
func Cite(answer string, sources []Source) Cited {
	body := strings.TrimSpace(answer)
	if loc := sourcesHeading.FindStringIndex(body); loc != nil && loc[0] > 0 {
		body = strings.TrimSpace(body[:loc[0]])
	}
	byN := map[int]Source{}
	for _, s := range sources {
		byN[s.N] = s
	}
	renum := map[int]int{}
	var c Cited
	unknown := map[int]bool{}
	body = replaceCites(body, func(nums []int) string {
		var parts []string
		for _, n := range nums {
			s, ok := byN[n]
			if !ok {
				if !unknown[n] {
					unknown[n] = true
					c.Unknown = append(c.Unknown, n)
				}
				continue
			}
			k, ok := renum[n]
			if !ok {
				c.Used = append(c.Used, s)
				k = len(c.Used)
				renum[n] = k
			}
			parts = append(parts, "["+strconv.Itoa(k)+"]")
		}
		return strings.Join(dedupe(parts), "")
	})
	sort.Ints(c.Unknown)
	var b strings.Builder
	b.WriteString(strings.TrimSpace(body))
	b.WriteString("\n")
	if len(c.Used) > 0 {
		b.WriteString("\nSources:\n")
		for i, s := range c.Used {
			fmt.Fprintf(&b, "[%d] %s\n", i+1, s.Ref())
		}
	}
	c.Markdown = b.String()
	return c
}

// replaceCites calls fn for each citation group and replaces it by the
// result.
func replaceCites(s string, fn func([]int) string) string {
	var b strings.Builder
	last := 0
	for _, m := range citeRe.FindAllStringSubmatchIndex(s, -1) {
		start, end := m[0], m[1]
		if end < len(s) && s[end] == '(' {
			continue // a Markdown link such as [1](https://...)
		}
		rep := fn(parseNums(s[m[2]:m[3]]))
		before := s[last:start]
		if rep == "" {
			before = strings.TrimRight(before, " ")
		}
		b.WriteString(before)
		b.WriteString(rep)
		last = end
	}
	b.WriteString(s[last:])
	return b.String()
}

// parseNums reads "1, 2", "1;3" or "1-3".
func parseNums(s string) []int {
	var out []int
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ';' }) {
		part = strings.TrimSpace(part)
		lo, hi, isRange := strings.Cut(strings.ReplaceAll(part, "–", "-"), "-")
		a, err := strconv.Atoi(strings.TrimSpace(lo))
		if err != nil {
			continue
		}
		if !isRange {
			out = append(out, a)
			continue
		}
		b, err := strconv.Atoi(strings.TrimSpace(hi))
		if err != nil || b < a || b-a > 20 {
			out = append(out, a)
			continue
		}
		for n := a; n <= b; n++ {
			out = append(out, n)
		}
	}
	return out
}

func dedupe(xs []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
