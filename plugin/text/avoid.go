package text

import (
	"regexp"
	"strings"
)

// A request often says what it does not want to do besides what it wants:
// "empty a log file without deleting it", "reuse replies instead of calling
// the model again". The words of such a clause name a constraint on the
// answer, not the thing sought: a page about deleting files does not empty
// one. avoidMarkerRE finds the words that may open such a clause;
// avoidEndRE the first mark or word after it that closes it (a clause mark,
// or a conjunction that opens another clause). "or" and "and" stay inside
// ("without changing its owner or group"); a bare "not" opens none, since
// it negates the predicate itself ("why are keys not case sensitive").
var (
	avoidMarkerRE = regexp.MustCompile(`(?i)(?:^|[\s,(])(without|rather\s+than|instead\s+of|but\s+not|and\s+not)\s`)
	avoidEndRE    = regexp.MustCompile(`(?i)[,;:.?!()]|\s(?:so|because|since|while|when|whenever|then|but|unless|until|if|and\s+then)\s`)
)

// Avoided splits s into what it seeks and the actions it asks to avoid:
// avoided holds the words of every clause opened by "without", "rather
// than", "instead of", "but not" or "and not" whose first word is an
// action (opensWithAction), up to the end of that clause; sought is the
// rest of s without those clauses and the words that open them. Both have
// their white space collapsed; text with no such clause comes back whole
// as sought.
func Avoided(s string) (sought, avoided string) {
	locs := avoidMarkerRE.FindAllStringSubmatchIndex(s, -1)
	if len(locs) == 0 {
		return s, ""
	}
	var keep, away strings.Builder
	from := 0
	for _, m := range locs {
		start, body := m[2], m[3]
		if start < from {
			continue // inside the clause of an earlier marker
		}
		end := len(s)
		if e := avoidEndRE.FindStringIndex(s[body:]); e != nil {
			end = body + e[0]
		}
		if !opensWithAction(s[body:end]) {
			continue
		}
		keep.WriteString(s[from:start])
		keep.WriteByte(' ')
		away.WriteString(s[body:end])
		away.WriteByte(' ')
		from = end
	}
	keep.WriteString(s[from:])
	return strings.Join(strings.Fields(keep.String()), " "), strings.Join(strings.Fields(away.String()), " ")
}

// opensWithAction reports whether a clause starts with a verb's -ing form,
// after any adverbs and the pronoun or name that does it ("rebooting",
// "first deleting it", "it asking first", "viper treating every dot as
// nesting"): "without deleting it" names an action the user
// will not take, a side effect the answer must avoid. A clause that names
// a thing instead ("without the default middleware", "instead of
// encoding/json") often names the very property that sets the answer
// apart, in the words its page uses, and is left to count.
func opensWithAction(clause string) bool {
	words := strings.Fields(strings.ToLower(clause))
	subject := false
	for i, w := range words {
		w = strings.Trim(w, `"'`+"`")
		switch {
		case strings.HasSuffix(w, "ly") || beforeIng[w]:
			continue
		case len(w) >= 5 && strings.HasSuffix(w, "ing") && !ingNouns[w]:
			// After a name, the -ing form is an action only with an
			// object of its own ("viper treating every dot"); without
			// one the name modifies a noun ("directory listing").
			return !subject || i+1 < len(words)
		case !subject && !determiners[w]:
			// A name may do the action ("without viper treating every
			// dot as nesting"); a determiner opens a thing instead
			// ("without the logging middleware").
			subject = true
			continue
		}
		return false
	}
	return false
}

// determiners open a noun phrase, which names a thing, not who acts.
var determiners = map[string]bool{
	"a": true, "an": true, "the": true, "any": true, "some": true, "all": true, "every": true, "each": true, "no": true,
	"my": true, "its": true, "their": true, "your": true, "our": true, "his": true, "this": true, "that": true, "these": true, "those": true,
}

// beforeIng are the words that may stand before the -ing form of an
// avoided action: adverbs not ending in -ly and the pronouns that do the
// action ("without it asking", "instead of me typing it").
var beforeIng = map[string]bool{
	"first": true, "ever": true, "even": true, "again": true,
	"me": true, "it": true, "them": true, "him": true, "her": true, "us": true, "you": true,
	"anyone": true, "anybody": true, "someone": true, "somebody": true,
}

// ingNouns are common words ending in -ing that are not a verb's -ing
// form.
var ingNouns = map[string]bool{
	"thing": true, "anything": true, "everything": true, "nothing": true, "something": true,
	"string": true, "spring": true, "swing": true, "sibling": true, "ceiling": true,
	"during": true, "morning": true, "evening": true,
}
