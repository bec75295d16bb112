package vm

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/mrpvm/mrpvm/plugins/sdk/text"
)

// TurnContext is what a later follow-up may draw on from one answered turn
// of a session: the question as it was searched and the sources its answer
// cited (first cited first).
type TurnContext struct {
	TurnID  string   `json:"turnId"`
	Query   string   `json:"query"`
	Topic   string   `json:"topic,omitempty"` // the words a follow-up carries
	Sources []string `json:"sources,omitempty"`
	Titles  []string `json:"titles,omitempty"`
}

// anaphors are words that point back at something named earlier.
var anaphors = map[string]bool{
	"it": true, "its": true, "it's": true, "them": true, "they": true, "their": true, "theirs": true,
	"this": true, "that": true, "these": true, "those": true, "one": true, "ones": true, "there": true,
	"he": true, "she": true, "him": true, "her": true, "same": true,
}

// ellipsisStarts open a question that continues the previous one.
var ellipsisStarts = []string{"and ", "also ", "but ", "or ", "what about ", "how about ", "then ", "so "}

// lightWords carry no topic of their own in a follow-up ("how do I see
// them", "where are its settings").
var lightWords = map[string]bool{}

func init() {
	for _, t := range text.Terms("see show get make use find want need way ways thing things work do does") {
		lightWords[t] = true
	}
}

var wordRE = regexp.MustCompile(`[\p{L}\p{N}][\p{L}\p{N}'./_+-]*[\p{L}\p{N}]|[\p{L}\p{N}]`)

// howLeadRE finds the action word of a how-to question ("how do I *run* ...").
var howLeadRE = regexp.MustCompile(`(?i)\bhow\s+(?:do|can|could|should|would|to)\s+(?:i\s+|we\s+|you\s+)?`)

// contentTerms are the analysed terms of s that carry a topic: no stop
// words, no anaphors, no light verbs.
func contentTerms(s string) []string {
	var out []string
	for _, t := range text.Terms(s) {
		if !anaphors[t] && !lightWords[t] {
			out = append(out, t)
		}
	}
	return out
}

// followUp reports whether q depends on an earlier turn: it points back
// ("them", "its") or continues ("and ...", "what about ...") and names too
// little on its own to be searched alone.
func followUp(q string) (bool, string) {
	low := strings.ToLower(strings.TrimSpace(q))
	content := contentTerms(q)
	for _, e := range ellipsisStarts {
		if strings.HasPrefix(low, e) && len(content) <= 4 {
			return true, strings.TrimSpace(e)
		}
	}
	if len(content) > 3 {
		return false, ""
	}
	for _, w := range wordRE.FindAllString(low, -1) {
		if anaphors[w] {
			return true, w
		}
	}
	return false, ""
}

// topicOf picks the words of an answered turn that a follow-up carries:
// the question's words that also name its first cited source (its path or
// title: "docker container" of "How do I run a docker container ...",
// answered from docker-container-run), and the words that look like names
// (urfave/cli, kb-thinkingdb); when none do, every content word but the
// how-to's action. The action is kept only when the source is named after
// it and few sources hold it: "stash" of git-stash names a thing, "run"
// of docker-container-run is what one does to it.
func topicOf(query string, sourceID, title string, rare func(term string) bool) string {
	action := ""
	if loc := howLeadRE.FindStringIndex(query); loc != nil {
		if ws := wordRE.FindAllString(query[loc[1]:], 1); len(ws) > 0 {
			action = ws[0]
		}
	}
	named := map[string]bool{}
	for _, t := range text.Terms(strings.NewReplacer("/", " ", "-", " ", "_", " ", ".md", " ").Replace(sourceID) + " " + title) {
		named[t] = true
	}
	var picked, rest []string
	anyHit := false
	seen := map[string]bool{}
	for _, w := range wordRE.FindAllString(query, -1) {
		ts := contentTerms(w)
		if len(ts) == 0 || seen[strings.ToLower(w)] {
			continue
		}
		seen[strings.ToLower(w)] = true
		isAction := action != "" && strings.EqualFold(w, action)
		nameLike := strings.ContainsAny(w, "/-_.") || (len(w) > 1 && strings.ToUpper(w) == w && strings.ToLower(w) != w)
		hit := false
		for _, t := range ts {
			hit = hit || named[t]
		}
		anyHit = anyHit || hit
		switch {
		case isAction && !(hit && rare != nil && rare(ts[0])):
		case hit || nameLike:
			picked = append(picked, w)
			rest = append(rest, w)
		default:
			rest = append(rest, w)
		}
	}
	if !anyHit {
		picked = rest
	}
	return strings.Join(picked, " ")
}

// resolveFollowUp rewrites a follow-up question with the topic of the
// session's last answered turn. It returns the question to search for,
// the turn it drew on (nil when q stands alone or nothing precedes it)
// and whether q is a follow-up at all.
func (r *run) resolveFollowUp(q string) (string, *TurnContext, bool) {
	is, _ := followUp(q)
	if !is {
		return q, nil, false
	}
	var prev *TurnContext
	for i := len(r.session.Context) - 1; i >= 0; i-- {
		if r.session.Context[i].Topic != "" {
			prev = &r.session.Context[i]
			break
		}
	}
	if prev == nil {
		return q, nil, true
	}
	for _, src := range prev.Sources {
		if r.m.kb == nil {
			break
		}
		if rec, err := r.m.kb.Store().Source(src); err == nil && rec == nil {
			r.trace.fail(nil, CodeSessionSourceGone, "source %s, cited by an earlier turn of this session, is no longer in the knowledge base; only that turn's words are carried", src)
		}
	}
	body := strings.TrimSpace(q)
	low := strings.ToLower(body)
	for _, e := range ellipsisStarts {
		if strings.HasPrefix(low, e) {
			body = strings.TrimSpace(body[len(e):])
			break
		}
	}
	body = strings.TrimRight(body, "?.! ")
	if body != "" {
		body = strings.ToUpper(body[:1]) + body[1:]
	}
	return fmt.Sprintf("%s (%s)?", body, prev.Topic), prev, true
}

// turnContext records an answered turn for later follow-ups; nil for a
// turn that did not answer (its words would mislead the next question).
func (r *run) turnContext(resp *Response, searched string, carried *TurnContext) *TurnContext {
	if resp.Status != StatusAnswered {
		return nil
	}
	tc := &TurnContext{TurnID: r.turnID, Query: firstLine(searched, 1024)}
	for _, e := range resp.Evidence {
		if len(tc.Sources) == 5 {
			break
		}
		tc.Sources = append(tc.Sources, e.SourceID)
		tc.Titles = append(tc.Titles, e.Title)
	}
	rare := func(t string) bool {
		c := r.corp
		if c == nil {
			c = newCorpus(r.m.kb)
		}
		if c == nil || c.Sources() == 0 {
			return true
		}
		return float64(c.SourceFreq(t)) < 0.02*float64(c.Sources())
	}
	switch {
	case carried != nil:
		tc.Topic = carried.Topic
	case len(tc.Sources) > 0:
		tc.Topic = topicOf(searched, tc.Sources[0], tc.Titles[0], rare)
	default:
		tc.Topic = topicOf(searched, "", "", rare)
	}
	return tc
}
