package vm

import (
	"regexp"
	"slices"
	"strings"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugin/text"
	"github.com/mrpvm/mrpvm/store"
)

// The parts of one question share what it is about: "How do I see my cron
// jobs, and how do I wipe all of them?" asks its second part of the first
// part's cron jobs, and "How do I give a viper key a default, and how do I
// reload the config when the file changes?" asks both of viper. A part is
// searched on its own words plus what it leaves to its siblings, so that
// each part is retrieved, answered and cited on its own without losing
// the question's subject.

// maxPartContextWords bounds the words a part borrows from its siblings.
const maxPartContextWords = 8

// partContext returns the words a part of a multi-part question borrows
// from the part before it, "" when it needs none:
//   - a part that points back ("them", "it", "that") or continues ("and
//     also ...") with few words of its own takes the earlier part's words
//     that name what that part was answered from (named), else the words
//     of the earlier part, its leading action left out;
//   - any other part takes the earlier part's words that name the page
//     that part was answered from (page: "viper" of viper/README.md)
//     when it does not say them itself. The section of that page the
//     earlier part was answered from is what that part asked about, not
//     what a part asking something else of the same page is about ("bind
//     URI path parameters" after "bind request headers", answered from
//     "Bind Header", is not about headers).
//
// named reports whether an analysed term names that source or the
// passage first cited from it, page whether it names that source or its
// page title; both are nil when the earlier part was not answered.
// leadAction says the earlier part starts with its action (a how-to's
// "see my cron jobs"), which is never carried.
func partContext(parts []string, i int, named, page func(term string) bool, leadAction bool) string {
	if i <= 0 || i >= len(parts) {
		return ""
	}
	own := map[string]bool{}
	for _, t := range contentTerms(parts[i]) {
		own[t] = true
	}
	var words []string
	seen := map[string]bool{}
	add := func(w string) {
		key := strings.ToLower(w)
		if seen[key] || len(words) >= maxPartContextWords {
			return
		}
		ts := contentTerms(w)
		if len(ts) == 0 || !slices.ContainsFunc(ts, func(t string) bool { return !own[t] }) {
			return
		}
		seen[key] = true
		words = append(words, strings.Trim(w, ".,;:?!\"'()"))
	}
	earlier := wordRE.FindAllString(parts[i-1], -1)
	if head := headNounFor(parts[i], earlier, leadAction); head != "" {
		return head
	}
	choice := slices.ContainsFunc(earlier, func(w string) bool { return choiceWords[strings.ToLower(w)] })
	if leadAction && len(earlier) > 1 {
		// The earlier part's leading action ("see", "delete") is what
		// was done, not what it was done to.
		earlier = earlier[1:]
	}
	if pointsBackInPart(parts[i]) && named != nil && !choice && !pointsAtEvent(parts[i]) {
		// What the earlier part was answered from names what the
		// pointer stands for ("a chi router" of "serve static files with
		// it", answered from chi's "Router interface"): those words, not
		// what was done to it ("middleware"), which this part need not
		// be about. A choice ("zip or gzip") is carried whole: the pointer
		// stands for all of it.
		saysItself := false
		for _, w := range earlier {
			if ts := contentTerms(w); slices.ContainsFunc(ts, named) {
				add(w)
				saysItself = saysItself || !slices.ContainsFunc(ts, func(t string) bool { return !own[t] })
			}
		}
		if len(words) > 0 {
			return strings.Join(words, " ")
		}
		if saysItself {
			// The part names what the pointer stands for itself ("with
			// pandoc, how do I list the formats it supports"): the rest
			// of the earlier part is about something else.
			return ""
		}
	}
	if pointsBackInPart(parts[i]) {
		// The earlier part as it reads (an event a "before that" points
		// at is what it describes, not only what it names): "zip or gzip" stays a choice a
		// later "how do they differ" compares.
		if len(earlier) > 2*maxPartContextWords {
			earlier = earlier[:2*maxPartContextWords]
		}
		if len(contentTerms(strings.Join(earlier, " "))) == 0 {
			return ""
		}
		return strings.Join(earlier, " ")
	}
	if page == nil {
		return ""
	}
	for _, w := range earlier {
		if slices.ContainsFunc(contentTerms(w), page) {
			add(w)
		}
	}
	return strings.Join(words, " ")
}

// headNounFor is the word a part's leading "one" stands in for: the
// noun the part before it asks about, which both parts' question word
// ("which", "what") was put before ("one shows free memory" after
// "command shows disk usage": "which one" is another command, not the
// disk usage). "" when the part does not start with "one", or the part
// before starts with its action rather than the noun asked about.
func headNounFor(part string, earlier []string, leadAction bool) string {
	w := wordRE.FindAllString(strings.ToLower(part), 2)
	if leadAction || len(w) < 2 || w[0] != "one" && w[0] != "ones" || len(earlier) < 2 {
		return ""
	}
	if len(contentTerms(earlier[0])) == 0 {
		return ""
	}
	return earlier[0]
}

// pointsBackInPart reports whether a part of a question depends on the
// part before it: it continues it ("and also ...") or has an anaphor
// ("them", "that", "one") pointing back, and few words of its own. Unlike
// a whole question's, an antecedent inside the part itself does not count
// ("run cleanup code before that" points at the earlier part).
func pointsBackInPart(part string) bool {
	if is, _ := followUp(part); is {
		return true
	}
	if len(contentTerms(part)) > maxFollowUpTerms {
		return false
	}
	low := strings.ToLower(part)
	words := wordRE.FindAllString(low, -1)
	for i, w := range words {
		if anaphors[w] && pointsBack(words, i) {
			return true
		}
	}
	return false
}

// eventPrepositions put a point in time before the word that names it.
var eventPrepositions = map[string]bool{"before": true, "after": true, "until": true, "till": true, "since": true, "during": true, "once": true}

// pointsAtEvent reports whether a part points back at what happens in
// the part before it rather than at a thing it names: a pointer placed in
// time ("before that", "after it", "until then"). "How can I run cleanup
// code before that", after "what does logrus do after logging a fatal
// message", is about the fatal message, not about logrus alone.
func pointsAtEvent(part string) bool {
	words := wordRE.FindAllString(strings.ToLower(part), -1)
	for i := 1; i < len(words); i++ {
		if eventPrepositions[words[i-1]] && (words[i] == "then" || anaphors[words[i]] && pointsBack(words, i)) {
			return true
		}
	}
	return false
}

// trailingScopeRE is the scope a question names after its last part ("...,
// and how do I run the server in gin?"): the one word after "in", "with"
// or "using" closing it.
var trailingScopeRE = regexp.MustCompile(`(?i)\s(?:in|with|using)\s+([\p{L}\p{N}][\p{L}\p{N}./_+-]*)\s*[?.!]*$`)

// trailingScope is the scope the last part of a question closes with,
// which its earlier parts share ("gin" of "How do I group routes, and how
// do I run the server in gin?"); "" when it names none.
func trailingScope(parts []string) string {
	if len(parts) < 2 {
		return ""
	}
	m := trailingScopeRE.FindStringSubmatch(parts[len(parts)-1])
	if m == nil {
		return ""
	}
	return m[1]
}

// withPartContext returns the sub-task searched for part i of a multi-part
// task: its target completed with what it borrows from the part before it
// ("wipe all of them (my scheduled cron jobs)") and, for an earlier part,
// the scope the last part closes with when it names a source, or the part
// as it is.
// prevSource is the source the part before was answered from ("" when it
// was not answered), prevTitle the title of the passage it cited first.
func (r *run) withPartContext(subs []plugin.Intent, i int, prevSource, prevTitle string) plugin.Intent {
	parts := make([]string, len(subs))
	for j, s := range subs {
		parts[j] = s.Target
	}
	var named, page func(string) bool
	if prevSource != "" {
		base := sourceName(prevSource) + " " + r.pageTitle(prevSource)
		pageNames := termSet(base)
		names := termSet(base + " " + prevTitle)
		named = func(t string) bool { return names[t] }
		page = func(t string) bool { return pageNames[t] }
	} else if i > 0 && r.m != nil && r.m.kb != nil {
		// The part before was not answered: what it names of the
		// workspace's libraries ("viper" of "is one viper instance safe
		// from several goroutines") is what a pointer back ("are its
		// keys case sensitive") stands for, not the rest of its
		// question ("safe", "goroutines").
		libs := r.libraryNames()
		if slices.ContainsFunc(contentTerms(parts[i-1]), func(t string) bool { return libs[t] }) {
			named = func(t string) bool { return libs[t] }
			page = named
		}
	}
	ctx := partContext(parts, i, named, page, i > 0 && subs[i-1].Act == "implement")
	if scope := trailingScope(parts); scope != "" && i < len(parts)-1 && r.m != nil && r.m.kb != nil && r.namesSource(contentTerms(scope)) {
		own := termSet(parts[i] + " " + ctx)
		if !slices.ContainsFunc(contentTerms(scope), func(t string) bool { return own[t] }) {
			ctx = strings.TrimSpace(ctx + " " + scope)
		}
	}
	if i < len(parts)-1 {
		// A library a later part names ("the gin server" of "..., and
		// how do I run the gin server?") is what the earlier parts are
		// about too.
		own := termSet(parts[i] + " " + ctx)
		libs := r.libraryNames()
		for _, later := range parts[i+1:] {
			for _, w := range wordRE.FindAllString(later, -1) {
				ts := contentTerms(w)
				if len(ts) == 1 && libs[ts[0]] && !own[ts[0]] {
					own[ts[0]] = true
					ctx = strings.TrimSpace(ctx + " " + w)
				}
			}
		}
	}
	if ctx == "" {
		return subs[i]
	}
	sub := subs[i]
	sub.Target = strings.TrimRight(strings.TrimSpace(sub.Target), "?.! ") + " (" + ctx + ")"
	r.trace.note("part %d of the question searched with the words its sibling parts lend it: %q", i+1, sub.Target)
	return sub
}

// libraryNames are the analysed names of the workspace's top-level
// folders that stand for one subject (anchorFolders' rule: a library's
// documentation, such as "gin" of gin/, not a collection such as tldr's
// common/), found once per request.
func (r *run) libraryNames() map[string]bool {
	if r.libs != nil {
		return r.libs
	}
	r.libs = map[string]bool{}
	count := map[string]int{}
	files := 0
	for _, st := range r.sourceStats() {
		if strings.Contains(st.SourceID, "::") {
			continue
		}
		files++
		if f := topFolder(st.SourceID); f != "" {
			count[f]++
		}
	}
	for folder, n := range count {
		if n <= maxFolderFamily && 2*n <= files {
			for _, t := range text.Terms(folder) {
				r.libs[t] = true
			}
		}
	}
	return r.libs
}

// kuByID finds a cited unit among the evidence, else in the store.
func (r *run) kuByID(id string, evidence []plugin.ScoredKU) (*kus.KU, error) {
	for _, e := range evidence {
		if e.KU != nil && e.KU.ID == id {
			return e.KU, nil
		}
	}
	if r.m == nil || r.m.kb == nil {
		return nil, nil
	}
	return r.m.kb.Store().KU(id)
}

// partAsFollowUp makes a part that borrowed words from the part before it
// continue that part as a follow-up continues a turn: while its frame
// runs, the source the part before was answered from (prevSource, its
// cited units prevCited) is preferred when it holds the part's own words
// as well as the best other unit does ("delete a local one" after "which
// git branch am I on" is answered from git-branch, not git-delete-branch).
// When the part before asked how to do something and its source is
// named after that action ("start a docker container", answered from
// docker-container-start), the page is not what the parts are about: its
// family (docker-container) is carried instead, as a follow-up's is, so
// that "stop it" is answered from the sibling named after stopping.
// prevHowTo is the part before as a how-to question ("" when it is not
// one).
// It returns the function that restores the run's own follow-up state; a
// question that is itself a follow-up keeps that state throughout.
func (r *run) partAsFollowUp(own, searched string, prevSource string, prevCited []string, prevHowTo string) func() {
	if r.carried != nil || prevSource == "" || own == searched {
		return func() {}
	}
	savedCarried, savedOwn := r.carried, r.own
	topic := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(searched, strings.TrimRight(strings.TrimSpace(own), "?.! ")), " ("), ")")
	inTopic := termSet(topic)
	var mine []string
	for _, t := range contentTerms(own) {
		if !inTopic[t] && !slices.Contains(mine, t) {
			mine = append(mine, t)
		}
	}
	r.carried = &TurnContext{TurnID: "part", Query: searched, Topic: topic, Sources: []string{prevSource},
		Anchors: []string{prevSource}, AnchorKUs: prevCited}
	if fam := familyOf(prevHowTo, topic, prevSource); fam != "" {
		r.carried.Anchors, r.carried.AnchorKUs, r.carried.Family = nil, nil, fam
	}
	r.own = mine
	return func() { r.carried, r.own = savedCarried, savedOwn }
}

// clauseJoinRE joins a task's clauses: ", and", ", then", ", and then",
// ", and later", or a comma alone between the items of a list of actions
// ("start a container, stop it, and remove it"); group 1 is set for the
// comma alone.
var clauseJoinRE = regexp.MustCompile(`(?i),\s*(?:(?:and|then)\s+(?:(?:then|later|afterwards|also)\s+)?|()\s*)`)

// continuedClauses splits a task at ", and ..." where the clause after it
// goes on with what the one before it named ("pack a directory into a
// tar.gz file, and later unpack it into another folder"): two tasks on one
// thing. A clause that does not name it again ("copy files, and keep their
// permissions") qualifies the task and stays part of it.
func continuedClauses(task string) []string {
	locs := clauseJoinRE.FindAllStringSubmatchIndex(task, -1)
	var out []string
	start := 0
	for _, l := range locs {
		next := len(task)
		for _, m := range locs {
			if m[0] > l[0] {
				next = m[0]
				break
			}
		}
		head, clause := task[start:l[0]], task[l[1]:next]
		if len(contentTerms(head)) == 0 || !namesAgain(clause) {
			continue
		}
		if l[2] >= 0 && !actsOnPronoun(clause) {
			// A comma alone separates actions only when what follows is
			// an action done to what was named ("stop it"), not a
			// condition or a manner ("if it fails", "keeping it").
			continue
		}
		out = append(out, strings.TrimSpace(head))
		start = l[1]
	}
	return append(out, strings.TrimSpace(task[start:]))
}

// nonActions open a clause that is not an action of its own: a
// subordinating or coordinating word, a preposition, or a verb form that
// qualifies the action before it.
var nonActions = map[string]bool{"if": true, "when": true, "whenever": true, "while": true, "because": true, "unless": true,
	"until": true, "once": true, "so": true, "but": true, "or": true, "as": true, "since": true, "after": true, "before": true,
	"with": true, "without": true, "for": true, "from": true, "to": true, "in": true, "on": true, "into": true, "like": true}

// actsOnPronoun reports whether a clause is an action done to something
// named before it: its first word is a verb-like word (not in nonActions,
// not an "-ing" form) and its second an object pronoun ("stop it",
// "remove them").
func actsOnPronoun(clause string) bool {
	words := wordRE.FindAllString(strings.ToLower(clause), 3)
	return len(words) >= 2 && !nonActions[words[0]] && !strings.HasSuffix(words[0], "ing") &&
		len(text.Terms(words[0])) > 0 && objectPronouns[words[1]]
}

// objectPronouns stand for a thing named before as what a clause acts on.
var objectPronouns = map[string]bool{"it": true, "them": true, "one": true, "ones": true, "this": true, "that": true, "these": true, "those": true}

// namesAgain reports whether a clause acts on something named before it
// by a pronoun ("unpack it", "remove them"), not a possessive ("keep
// their permissions"), with few words of its own.
func namesAgain(clause string) bool {
	if len(contentTerms(clause)) > maxFollowUpTerms {
		return false
	}
	words := wordRE.FindAllString(strings.ToLower(clause), -1)
	for i, w := range words {
		if objectPronouns[w] && pointsBack(words, i) {
			return true
		}
	}
	return false
}

// sourceStats is the knowledge base's file stats, read once for the
// request's life: the stat bucket lists every source id without decoding
// a source record, and libraryNames, fileNamesWith and pageNames each
// scan it, on workspaces of many thousand files. Nil when there is no
// knowledge base or it cannot be read.
func (r *run) sourceStats() []store.FileStat {
	if r.statsRead {
		return r.stats
	}
	r.statsRead = true
	if r.m == nil || r.m.kb == nil {
		return nil
	}
	stats, err := r.m.kb.Store().FileStats()
	if err != nil {
		return nil
	}
	r.stats = stats
	return r.stats
}
