package gssymbolic

import (
	"context"
	"embed"
	"fmt"
	"math"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin/text"
	"github.com/mrpvm/mrpvm/plugins/internal/symbolic"

	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins"
)

// ID is the plugin id.
const ID = "gs-symbolic"

//go:embed plugin.json plugin.kus.md
var files embed.FS

// Plugin is gs-symbolic; it takes no options, and any key is an error.
type Plugin struct{ plugin.Base }

var _ plugin.GSPlugin = (*Plugin)(nil)

// New builds the plugin from its options and injected services, as the
// catalog does.
var New = plugins.RegisterBuiltin(plugins.DefineStateless(files, func(base plugin.Base) plugin.Plugin { return &Plugin{Base: base} }))

// minOverlap is the share of the task's content terms the evidence must
// hold for an answer to be attempted.
const minOverlap = 0.5

// Solve answers one task from its evidence (solve), searched for and
// labelled as the kb-plugin's spelling-corrected query when there is one.
func (p *Plugin) Solve(ctx context.Context, rc plugin.RunContext, in *plugin.SolveInput) (*plugin.SolveResult, error) {
	if in.SearchedFor == "" || len(in.Intents) > 1 {
		return p.solve(ctx, rc, in)
	}
	fixed := *in
	if len(in.Intents) == 1 {
		fixed.Intents = []plugin.Intent{in.Intents[0]}
		fixed.Intents[0].Target = in.SearchedFor
	} else {
		fixed.Payload.Prompt = in.SearchedFor
	}
	res, err := p.solve(ctx, rc, &fixed)
	if err == nil && res != nil && res.Status == plugin.StatusSuccess {
		// After the Sources list, which validators and readers take as
		// the end of the answer's statements.
		res.ResponseMarkdown = strings.TrimRight(res.ResponseMarkdown, "\n") + "\n\n" + symbolic.SearchedForNote(in.SearchedFor) + "\n"
	}
	return res, err
}

// solve answers one task from its evidence.
func (p *Plugin) solve(ctx context.Context, rc plugin.RunContext, in *plugin.SolveInput) (*plugin.SolveResult, error) {
	if len(in.Intents) > 1 && in.FrameDepth < rc.Budgets.MaxFrameDepth {
		return &plugin.SolveResult{Status: plugin.StatusNeedsDecomposition,
			ResponseMarkdown: fmt.Sprintf("The question holds %d separate tasks; each is answered on its own.", len(in.Intents))}, nil
	}
	act, target := "describe", in.Payload.Prompt
	if len(in.Intents) > 0 {
		act, target = in.Intents[0].Act, in.Intents[0].Target
	}
	want := withoutModals(symbolic.ContentTerms(target))
	ownAsk := followUpOwn(rc.Conversation, target)
	own := symbolic.ContentTerms(ownAsk)
	var rar symbolic.Rarity
	if rc.Corpus != nil {
		rar = symbolic.NewRarity(rc.Corpus)
	}
	g := readGuidance(in.Guidance)
	if len(own) > 0 {
		g.shown = lastLeadExample(rc.Conversation)
		g.ownAction, _ = symbolic.Action(ownAsk)
	}
	if g.oneWord {
		return noContext("A one-word or yes/no verdict needs reasoning beyond the stated facts; the symbolic solver does not guess. Configure an LLM endpoint for such questions."), nil
	}

	if act == "implement" || act == "verify" && canAskRE.MatchString(in.Payload.Prompt) {
		task := withoutAlternative(target)
		if res := solveProcedure(in.Evidence, task, symbolic.TaskTerms(task), g, rc.Corpus); res != nil {
			return res, nil
		}
	}

	// Candidate statements: each sentence, list item, table row or code
	// block of each evidence KU, scored by the task terms it holds;
	// proofs from the retriever come first.
	var stmts []scored
	all := map[string]bool{}
	// A unit's Topic or Title is a label, not a statement: a sentence that
	// only repeats one ("kb-fast versus kb-thinkingdb") claims nothing.
	labels := map[string]bool{}
	for _, e := range in.Evidence {
		if e.KU != nil {
			labels[label(e.KU.Topic)], labels[label(e.KU.Title)] = true, true
		}
	}
	delete(labels, "")
	proofOrder := proofKUs(in.Evidence, want)
	cue := cueOf(act, in.Payload.Prompt, target)
	negWant := negated(target)
	subject := definedSubject(target)
	names := dottedNames(target)
	idents := identNames(target)
	for ei, e := range in.Evidence {
		if e.KU == nil || aliased(e.KU, in.Evidence) {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		ss := statementsOf(e.KU, rc.Corpus)
		if act == "explain" || act == "define" {
			// A reason or what a call gives may be said only in
			// the comments of a page's code (commentStatements).
			ss = append(ss, commentStatements(ss)...)
		}
		titleOverlap := symbolic.Overlap(want, symbolic.TermSet(e.KU.Title))
		for t := range symbolic.TermSet(e.KU.Title) {
			all[t] = true
		}
		for si, s := range ss {
			for t := range symbolic.TermSet(s.plain()) {
				all[t] = true
			}
			if si >= maxStatements || labels[label(s.text)] || strings.TrimSpace(s.text) == "" {
				continue
			}
			// A statement's weight: the task terms it holds (with its KU's
			// title, which names what it is about), then how highly the
			// retriever ranked its KU. A heading that names the task
			// ("Reset the knowledge base") marks the passage written to
			// answer it.
			plain := s.plain()
			have := symbolic.TermSet(e.KU.Title + " " + plain)
			if leadsInOnly(s, want) && !cue.list && !cue.define {
				// Its items stand as statements of their own and
				// answer for what they say (leadsInOnly). A list
				// question asks for the whole list, and a definition
				// is shown in the list that names it.
				have = symbolic.TermSet(e.KU.Title + " " + s.text)
			}
			sc := symbolic.Overlap(want, have) + e.Score + 0.5*titleOverlap
			sc += cue.bonus(s)
			// A file or setting the question names whole is said
			// whole by the passages about it (quotesNames).
			sc += quotedNameWeight * quotesNames(names, plain)
			// So is an identifier it writes in camel or Pascal case
			// (writesIdents).
			sc += quotedNameWeight * writesIdents(idents, plain)
			// A follow-up's own words count again, by rarity: they say
			// what it asks of the topic's pages (followUpOwn).
			sc += weighedShare(own, have, rar)
			if len(negWant) > 0 && anyIn(negWant, negated(e.KU.Title+". "+s.text)) {
				// The question asks about something's absence ("when no
				// model endpoint is configured"), and so does this
				// statement or its heading ("Without a model").
				sc += negationWeight
			}
			if cue.define && subject != "" && s.kind != kindCode && (label(e.KU.Title) == subject || opensWith(s.text, subject) || pathNames(e.KU.SourceID, subject)) {
				// The prose of the section the defined term heads
				// ("PhaseScopes" for "What are phaseScopes on a knowledge
				// unit?"), or a statement that opens with the term
				// ("Doc generation - `docgen` auto-generates ..."), or
				// the prose of a page filed under the term's name
				// ("gin/ginS/README.md" for ginS), says what it is,
				// where a passage about the scope names it in passing;
				// code only uses it.
				sc += headsWeight
			}
			if keyCellNamed(s, want) || cue.define && keyCellDefined(s, want, e.KU) {
				// A table row whose key cell the question names ("a
				// new configuration key" of "where should the code for
				// a new configuration key go") is the table's entry for
				// what it asks.
				sc += headsWeight
			}
			if act == "verify" && asksAlike(e.KU.Title, want) {
				// A section headed by the question asked, or one much
				// like it ("Is it safe to concurrently read and write to
				// a viper?"), is the page's own answer to it.
				sc += cueWeight
			}
			if s.kind == kindCode {
				// Code alone says nothing a reader can follow; it shows
				// how, which only a how-to asks.
				sc -= codePenalty(act)
			}
			if rank, ok := proofOrder[e.KU.ID]; ok {
				sc += 2 - float64(rank)*0.01
			}
			stmts = append(stmts, scored{statement: s, ku: e.KU, score: sc, order: ei*1000 + si})
		}
	}
	if len(stmts) == 0 || symbolic.Overlap(want, all) < minOverlap {
		return noContext("The knowledge base has no evidence that answers this."), nil
	}
	sort.SliceStable(stmts, func(i, j int) bool { return stmts[i].score > stmts[j].score })
	limit := 3
	switch {
	case g.brief:
		limit = 1
	case act == "explain" && len(proofOrder) > 0:
		limit = min(6, max(3, len(proofOrder)))
	case act == "identify" || act == "compare" || g.bullets:
		limit = 5
	}
	picked := pick(stmts, limit)
	if cue.list && !g.brief {
		picked = withFollowingList(picked, stmts)
		picked = spreadList(picked, stmts)
	}
	if !g.brief {
		picked = withNextSentence(picked, stmts, limit)
		if act == "explain" {
			picked = withGround(picked, stmts)
		}
		picked = withTopicSentence(picked, stmts, limit)
		if codePenalty(act) < 1 {
			picked = withShownCode(picked, stmts, limit)
		}
	}
	ex := exclusionOf(in.Payload.Prompt)
	if ov := overview(stmts, ex.without(want), act, cue.list || strings.HasPrefix(strings.ToLower(strings.TrimSpace(in.Payload.Prompt)), "what are "), ex); len(ov) > 0 && !g.brief {
		picked = ov
	}
	if len(picked) == 0 {
		return noContext("The evidence mentions the topic but no statement answers the task."), nil
	}
	if act == "explain" && len(proofOrder) > 0 {
		picked = followProof(picked, proofOrder, in.Evidence)
	}

	// Number the sources in order of first citation.
	var cites citations
	num := cites.num
	var b strings.Builder
	if (act == "compare" || act == "recommend") && !g.bullets {
		// A recommendation between named items ("curl or wget: which
		// should I use to ...") is answered as their comparison when the
		// evidence speaks for at least two of them.
		need := 1
		if act == "recommend" {
			need = 2
		}
		if rows, ok := compareRows(in.Evidence, target, want, num, rc.Corpus, need); ok {
			b.WriteString(rows)
			return finish(&b, cites.kus), nil
		}
		cites = citations{}
	}
	switch {
	case act == "compare" || g.table:
		statementTable(&b, picked, num)
	default:
		render(&b, picked, shownFor(want, own), act == "identify" || g.bullets, act == "identify" && !g.bullets && asksOne(in.Payload.Prompt), asksWhatRE.MatchString(in.Payload.Prompt), act == "explain" && len(proofOrder) > 0, num)
		if act == "explain" {
			if concl := conclusion(in.Evidence, want); concl != "" {
				fmt.Fprintf(&b, "\nTherefore: %s.\n", concl)
			}
		}
	}
	return finish(&b, cites.kus), nil
}

// statementTable writes picked as a table of statements, one row each
// with its source. A code block does not fit a table cell, whose text is
// one line: it stands fenced as written, with its source, before the table
// when it leads the answer, after it otherwise. Sources are numbered in
// the statements' order (num).
func statementTable(b *strings.Builder, picked []scored, num func(*kus.KU) int) {
	for _, s := range picked {
		num(s.ku)
	}
	writeCode := func(s scored) {
		fmt.Fprintf(b, "From %s [%d]:\n\n", s.ku.Title, num(s.ku))
		for _, l := range trimBlock(s.md) {
			b.WriteString(l + "\n")
		}
		b.WriteString("\n")
	}
	lead := 0
	for lead < len(picked) && picked[lead].kind == kindCode {
		writeCode(picked[lead])
		lead++
	}
	var code []scored
	b.WriteString("| source | statement |\n| --- | --- |\n")
	for _, s := range picked[lead:] {
		if s.kind == kindCode {
			code = append(code, s)
			continue
		}
		fmt.Fprintf(b, "| %s [%d] | %s |\n", escapeCell(s.ku.Title), num(s.ku), escapeCell(s.text))
	}
	for _, s := range code {
		b.WriteString("\n")
		writeCode(s)
	}
}

// modals are the auxiliary verbs of a question ("How long may a call
// run", "what will it read"): they shape what is asked without naming
// anything a passage could say.
var modals = map[string]bool{"may": true, "might": true, "must": true, "shall": true, "will": true, "would": true, "should": true, "could": true}

// withoutModals is terms less the modal verbs.
func withoutModals(terms []string) []string {
	return slices.DeleteFunc(terms, func(t string) bool { return modals[t] })
}

// followUpOwn is what a follow-up asks in its own words when target is the
// question completed with the topic of an earlier turn of the
// conversation ("Are hidden folders read too" of "Are hidden folders read
// too (files folder)?", asked as "And are hidden folders read too?"); ""
// when target closes with no parenthesised topic (lentContext) or nothing
// was asked before it. The topic found the pages; the follow-up's own
// words choose the passage of them that answers it, and a passage that
// holds only the topic's words, which every passage of those pages
// shares, does not.
func followUpOwn(conv []plugin.Turn, target string) string {
	own, lent := lentContext(target)
	if lent == "" || !slices.ContainsFunc(conv, func(t plugin.Turn) bool { return t.Role == "user" }) {
		return ""
	}
	return own
}

// shownFor is the task terms that choose what a picked passage shows
// of its lists and tables: a follow-up's own words when it has them
// (the topic's words are those of every item of the topic's pages), else
// want.
func shownFor(want, own []string) []string {
	if len(own) > 0 {
		return own
	}
	return want
}

// weighedShare is the share of want that have holds, each term weighed
// by its rarity in the knowledge base: of a follow-up's own words, the
// rare one ("hidden") says what it asks more than the common one ("read").
func weighedShare(want []string, have map[string]bool, rar symbolic.Rarity) float64 {
	total, in := 0.0, 0.0
	for _, t := range want {
		w := rar.Weight(t)
		total += w
		if have[t] {
			in += w
		}
	}
	if total <= 0 {
		return 0
	}
	return in / total
}

// quotedNameWeight is what a statement gains for writing every dotted or
// slashed name the question writes.
const quotedNameWeight = 0.4

// keyCellNamed reports whether s is a table row whose first cell has at
// least minKeyCellTerms content terms, all of them among want.
func keyCellNamed(s statement, want []string) bool {
	if s.kind != kindRow || len(s.md) == 0 {
		return false
	}
	key := symbolic.ContentTerms(plainMD(firstCell(s.md[0])))
	return len(key) >= minKeyCellTerms && allAsked(key, want)
}

// keyCellDefined reports whether s is a table row whose key cell a
// definition asks for: its terms are asked, the question names the kind
// of thing the row's section lists, and every other word asked names that
// section or the page ("chi's Profiler middleware" of the row "Profiler"
// in the section "Core middlewares" of chi/README.md), which only says
// where the thing asked stands.
func keyCellDefined(s statement, want []string, k *kus.KU) bool {
	if s.kind != kindRow || len(s.md) == 0 {
		return false
	}
	key := symbolic.ContentTerms(plainMD(firstCell(s.md[0])))
	if len(key) == 0 || !allAsked(key, want) {
		return false
	}
	kind, page := symbolic.TermSet(k.Title), symbolic.TermSet(strings.ReplaceAll(k.SourceID, "/", " "))
	kinds := 0
	for _, w := range want {
		switch {
		case slices.Contains(key, w):
		case kind[w]:
			kinds++
		case !page[w]:
			return false
		}
	}
	return kinds > 0
}

// minKeyCellTerms is the fewest content terms a row's key cell must have
// for the question to name it: one word ("Heartbeat", "path") is named by
// questions about other things too.
const minKeyCellTerms = 2

// labelRE is the short label a statement opens with ("content: title,
// role (...), topic"): the statement is about what the label names.
var labelRE = regexp.MustCompile(`^([^\s:]+(?:\s+[^\s:]+){0,2}):\s`)

// opensWith reports whether text opens with the term a definition asks
// for: names it among its first words (leads), or, when it opens with a
// label, in that label. A statement labelled with something else ("content:
// title, role (...)") lists the term among others without saying what it
// is.
func opensWith(text, subject string) bool {
	if m := labelRE.FindStringSubmatch(text); m != nil {
		return namesItem(m[1], subject)
	}
	return leads(text, subject)
}

// headsWeight is what a statement gains for standing in the section the
// term a definition asks for heads, or for opening with that term.
const headsWeight = 1.5

// definedScopeRE is the scope a definition's subject is asked in ("docgen
// in chi", "phaseScopes on a knowledge unit").
var definedScopeRE = regexp.MustCompile(`(?i)\s+(?:in|on|of|for|within|inside)\s+\S.*$`)

// definedSubject is the term a definition target asks for, as a label
// compares: without its scope or a leading article.
func definedSubject(target string) string {
	if f := strings.Fields(target); len(f) > 1 && symbolic.IsCodeName(f[0]) {
		// "What does --quiet hide?" asks what the option does: the
		// name written as code is the subject, the words after it the
		// question's verb.
		return label(f[0])
	}
	t := definedScopeRE.ReplaceAllString(strings.TrimSpace(target), "")
	return label(itemArticleRE.ReplaceAllString(t, ""))
}

// alternativeRE is the way of doing a task that a how-to sets aside:
// "rather than a remote one" of "send messages to the local daemon rather
// than a remote one".
var alternativeRE = regexp.MustCompile(`(?i),?\s+(?:rather than|instead of)\s+[^,;?.()]+`)

// withoutAlternative is a how-to's task without the way of doing it the
// question sets aside: the passage that does it the other way is not the
// one asked for, so the words of that way do not choose the passage.
func withoutAlternative(task string) string {
	if t := strings.TrimSpace(alternativeRE.ReplaceAllString(task, "")); len(symbolic.ContentTerms(t)) > 0 {
		return t
	}
	return task
}

// canAskRE is a yes/no question that asks whether something can be done
// ("Can it reload when the file changes?", "Can I set a default?", a
// follow-up's "and can they be nested?"): the page that shows how
// answers it.
var canAskRE = regexp.MustCompile(`(?i)^\s*(?:(?:and|so|but|then),?\s+)?(?:can|could)\s+(?:i|it|they|you|we|one)\s+\w`)

// negationRE finds a negated word: "no", "without", "not", "never",
// "neither", "nor" or a verb negated with "n't" ("hasn't been set") and
// the words after it, past an article or a passive "been".
var negationRE = regexp.MustCompile(`(?i)(?:\b(?:no|without|not|never|neither|nor)|n['’]t)\s+(?:(?:a|an|the|any|been)\s+)?([\p{L}\p{N}_-]+(?:\s+[\p{L}\p{N}_-]+)?)`)

// negationWeight is what a statement gains for negating what the question
// negates.
const negationWeight = 0.3

// negated is the content terms text says are absent: the one or two
// words after each negation ("no model endpoint": model, endpoint).
func negated(text string) map[string]bool {
	out := map[string]bool{}
	for _, m := range negationRE.FindAllStringSubmatch(text, -1) {
		for _, t := range symbolic.ContentTerms(m[1]) {
			out[t] = true
		}
	}
	return out
}

// anyIn reports whether a and b share a key.
func anyIn(a, b map[string]bool) bool {
	for k := range a {
		if b[k] {
			return true
		}
	}
	return false
}

// asksAlike reports whether a heading is a question that shares at least
// a third of the terms a yes/no question asks about.
func asksAlike(title string, want []string) bool {
	return strings.HasSuffix(strings.TrimSpace(title), "?") && 3*symbolic.Overlap(want, symbolic.TermSet(title)) >= 1
}

// aliased reports whether k is a page that only says it is another name
// of a page the evidence also holds ("This command is an alias of GNU
// nohup" beside nohup): that page speaks for it.
func aliased(k *kus.KU, ev []plugin.ScoredKU) bool {
	m := aliasRE.FindStringSubmatch(k.Text())
	if m == nil {
		m = aliasRE.FindStringSubmatch(k.TextBody)
	}
	if m == nil {
		return false
	}
	target := strings.ToLower(strings.TrimSpace(m[1]))
	for _, e := range ev {
		if e.KU == nil || e.KU.SourceID == k.SourceID || e.KU.Title == "" {
			continue
		}
		// The page it names: that title, or that title behind one
		// qualifying word ("GNU nohup" for nohup).
		t := strings.ToLower(strings.TrimSpace(e.KU.Title))
		if target == t || strings.HasSuffix(target, " "+t) && len(strings.Fields(target)) == len(strings.Fields(t))+1 {
			return true
		}
	}
	return false
}

// auxiliaries are the verbs that shape a question without naming
// anything in it ("what can I do with", "what does it do").
var auxiliaries = symbolic.TermSet("can could do does did should would will may might must")

// asksWhatRE is a question that asks what or which things are so.
var asksWhatRE = regexp.MustCompile(`(?i)^\s*(?:what|which)\b`)

// commonToExamples returns the terms that at least half of the examples
// of page k hold (a list item with the command under it), when it shows
// at least minCommonExamples of them; nil otherwise.
func commonToExamples(stmts []scored, k *kus.KU) map[string]bool {
	count := map[string]int{}
	examples := 0
	for _, s := range stmts {
		if s.ku != k || s.kind != kindItem || len(s.block) == 0 {
			continue
		}
		examples++
		for t := range symbolic.TermSet(s.plain()) {
			count[t]++
		}
	}
	if examples < minCommonExamples {
		return nil
	}
	common := map[string]bool{}
	for t, n := range count {
		if 2*n >= examples {
			common[t] = true
		}
	}
	return common
}

// minCommonExamples is how many examples a page needs before a word most
// of them hold is taken for what they all are about.
const minCommonExamples = 4

// maxOverview bounds the statements of an overview.
const maxOverview = 9

// overview answers a question that names only what a page is about
// ("What can I do with git stash?"), or a list question about it, with the
// page itself: its summary and its examples in order (the examples that
// bear most on the question when there are more than fit). It is nil when
// the question asks for more than the best statement's page names in its
// title (a list question aside), asks for a comparison or an explanation,
// or the page shows fewer than two examples. An example is a list item
// with the command under it, or a paragraph with the code block it
// introduces ("jsoniter" over "go build -tags=jsoniter ."). "What does tar do?" is such a
// question: the page's summary says, its examples show.
func overview(stmts []scored, want []string, act string, list bool, ex exclusion) []scored {
	if len(stmts) == 0 || len(want) == 0 || act == "compare" || act == "explain" {
		return nil
	}
	k := stmts[0].ku
	title := symbolic.TermSet(k.Title)
	named := 0
	var other []string
	for _, w := range want {
		switch {
		case title[w]:
			named++
		case !auxiliaries[w]:
			other = append(other, w)
		}
	}
	// A word most of the page's examples hold ("information" of acpi's
	// "Show battery information", "Show thermal information", ...) is
	// what they all are about: "what information can acpi show" names
	// the page and nothing that chooses among its examples.
	common := commonToExamples(stmts, k)
	other = slices.DeleteFunc(other, func(w string) bool { return common[w] })
	// A list question ("Which subcommands does git stash have?", "What
	// are the ways to ...?") asks for the page's examples whatever else
	// it names: first those that bear on it, else all of them.
	if named == 0 || len(other) > 0 && !list {
		return nil
	}
	if list {
		// What the page's description says it is about ("service" of
		// systemctl, a "service manager") is what every example is
		// about: it does not choose among them.
		var desc map[string]bool
		for _, s := range stmts {
			if s.ku == k && s.kind == kindSentence && s.para == 1 {
				if desc == nil {
					desc = map[string]bool{}
				}
				for t := range symbolic.TermSet(s.plain()) {
					desc[t] = true
				}
			}
		}
		other = slices.DeleteFunc(other, func(w string) bool { return desc[w] })
	}
	pickFrom := func(filter []string) ([]scored, int) {
		var out []scored
		examples := 0
		for _, s := range stmts { // best first
			if s.ku != k {
				continue
			}
			if len(s.block) > 0 && (s.kind == kindItem || s.kind == kindSentence && s.para > 1 && fenced(s.block)) {
				if examples == maxOverview-1 || len(filter) > 0 && symbolic.Overlap(filter, symbolic.TermSet(s.plain())) == 0 || ex.covers(s.text) {
					continue // past the cap, not about what else the question names, or what it sets aside
				}
				examples++
			} else if s.kind != kindSentence || s.para != 1 {
				continue
			}
			out = append(out, s)
		}
		return out, examples
	}
	out, examples := pickFrom(other)
	if examples == 0 && len(other) > 0 {
		// No example names the rest: the page's examples are the list.
		out, examples = pickFrom(nil)
	}
	if examples < 2 && len(other) == 0 || examples == 0 {
		return nil
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].order < out[j].order })
	return out
}

// codePenalty is what a code block standing alone loses for an act.
func codePenalty(act string) float64 {
	switch act {
	case "implement", "describe":
		return 0.5
	}
	return 1
}

// maxStatements bounds the statements read from one KU.
const maxStatements = 40

// scored is a statement of one evidence KU with how well it answers.
type scored struct {
	statement
	ku    *kus.KU
	score float64
	order int // evidence rank, then place in the KU
}

// pick takes the best statements, at most limit: past the best, only
// those that bear on the task nearly as much (a list of loosely related
// facts is noise), each said once (a list item its introduction already
// shows is not repeated).
func pick(stmts []scored, limit int) []scored {
	// A comment read from a code block (commentStatements) and the
	// statement that introduces the whole block show the same code: the
	// first picked stands for both (showsCode).
	var picked []scored
	seen := map[string]bool{}
	for _, s := range stmts {
		if len(picked) >= limit || s.score <= 0 {
			break
		}
		if len(picked) > 0 && s.score < 0.6*picked[0].score {
			break
		}
		key := strings.ToLower(strings.TrimSpace(s.text))
		if seen[key] {
			continue
		}
		if slices.ContainsFunc(picked, func(p scored) bool { return showsCode(p, s) }) {
			continue
		}
		seen[key] = true
		picked = slices.DeleteFunc(picked, func(p scored) bool { return showsCode(s, p) })
		shown := map[string]bool{}
		for _, t := range s.subs {
			k := strings.ToLower(strings.TrimSpace(t))
			seen[k], shown[k] = true, true
		}
		if len(shown) > 0 {
			// Items picked before their introduction are shown under it.
			kept := picked[:0]
			for _, p := range picked {
				if !(p.ku == s.ku && p.kind == kindItem && shown[strings.ToLower(strings.TrimSpace(p.text))]) {
					kept = append(kept, p)
				}
			}
			picked = kept
		}
		picked = append(picked, s)
	}
	return picked
}

// maxSpread bounds the units spreadList adds to an answer.
const maxSpread = 3

// spreadList completes the answer to a list question whose picked
// statements are prose with the best sentence of each other unit of the
// best statement's page that bears on the question nearly as much, in
// score order: a page that gives each member of what is asked for a
// section of its own ("ZSH Support", "PowerShell Support") states the list
// across its sections, where the best statements may all come from one of
// them. When the statements picked hold a list, a table or an
// introduction to one, the page states the list there, and the picked
// statements stand.
func spreadList(picked, stmts []scored) []scored {
	if len(picked) == 0 || slices.ContainsFunc(picked, func(s scored) bool { return listed(s.statement) }) {
		return picked
	}
	top := picked[0]
	units := map[string]bool{}
	said := map[string]bool{}
	for _, p := range picked {
		units[p.ku.ID] = true
		said[strings.ToLower(strings.TrimSpace(p.text))] = true
	}
	added := 0
	for _, s := range stmts {
		if added == maxSpread || s.score < 0.6*top.score {
			break
		}
		key := strings.ToLower(strings.TrimSpace(s.text))
		if s.ku.SourceID != top.ku.SourceID || units[s.ku.ID] || said[key] || s.kind != kindSentence {
			continue
		}
		units[s.ku.ID], said[key] = true, true
		picked = append(picked, s)
		added++
	}
	return picked
}

// maxListGap is the most lines between the end of a paragraph and the
// start of a table or list it leads into: blank lines, a subheading and a
// rule.
const maxListGap = 6

// withFollowingList answers a list question whose best statement is the
// last paragraph of its unit with the table or list the evidence holds
// right after that paragraph on the page. A section that opens by saying
// what it offers ("chi comes equipped with an optional middleware package,
// providing a suite of standard middlewares.") and then tables or lists it
// under a subheading states the members there, not in the opening prose.
func withFollowingList(picked, stmts []scored) []scored {
	if len(picked) == 0 || listed(picked[0].statement) {
		return picked
	}
	top := picked[0]
	if top.kind != kindSentence || slices.ContainsFunc(stmts, func(s scored) bool { return s.ku == top.ku && s.order > top.order && s.para != top.para }) {
		return picked
	}
	var first *scored
	for i := range stmts {
		s := &stmts[i]
		if (s.kind != kindRow && s.kind != kindItem) || !follows(top.ku, s.ku) {
			continue
		}
		if first == nil || s.order < first.order {
			first = s
		}
	}
	if first == nil {
		return picked
	}
	return append(picked, *first)
}

// follows reports whether unit next starts on top's page within
// maxListGap lines of top's end.
func follows(top, next *kus.KU) bool {
	if top == next || top.SourceID != next.SourceID {
		return false
	}
	gap := next.Range.StartLine - top.Range.EndLine
	return gap > 0 && gap <= maxListGap
}

// listed reports whether s is a list item, a table row, or a statement
// that introduces a list or a table.
func listed(s statement) bool {
	if s.kind == kindItem || s.kind == kindRow {
		return true
	}
	if len(s.block) == 0 {
		return false
	}
	first := strings.TrimSpace(s.block[0])
	return isItem(first) || strings.HasPrefix(first, "|")
}

// withNextSentence keeps the best statement's paragraph together: when it
// is a sentence, the sentence after it in its paragraph goes on what it
// says ("Logrus can register functions called when a fatal message is
// logged. The registered handlers will be executed before logrus performs
// an os.Exit(1).") and is shown with it, in place of the last statement
// picked from elsewhere when the answer is full. When the best statement
// introduces a block ("Viper accepts a custom Finder interface
// implementation:" and its code), the sentence right after that block goes
// on it when it opens by referring back to it ("It is supposed to return
// a list of paths to config files."): the page says there what the thing
// shown is for. A code block right after the best sentence is one it
// introduces.
func withNextSentence(picked, stmts []scored, limit int) []scored {
	if len(picked) == 0 || picked[0].kind != kindSentence {
		return picked
	}
	top := picked[0]
	introduces := len(top.block) > 0 || strings.HasSuffix(strings.TrimSpace(top.text), ":")
	next := top.order + 1
	if !introduces && slices.ContainsFunc(stmts, func(s scored) bool { return s.ku == top.ku && s.order == next && s.kind == kindCode }) {
		// The code block that follows the sentence shows what it says
		// ("... by specifying the nomsgpack build tag." over "go build
		// -tags=nomsgpack ."): the sentence after that block speaks of
		// it as of a block the sentence introduces.
		introduces, next = true, next+1
	}
	for _, p := range picked {
		if p.ku == top.ku && p.order == next {
			return picked // already there
		}
	}
	for _, s := range stmts {
		if s.ku != top.ku || s.order != next || s.kind != kindSentence || s.score <= 0 {
			continue
		}
		if introduces {
			if s.para == top.para || !refersBack(s.text) {
				continue
			}
		} else if s.para != top.para {
			continue
		}
		if len(picked) >= limit {
			last := len(picked) - 1
			if picked[last].ku == top.ku {
				return picked // the answer is full of the best statement's own unit
			}
			picked = picked[:last]
		}
		return append(picked, s)
	}
	return picked
}

// maxTopicReach is how far into its paragraph the best statement may
// stand for the paragraph's opening sentence to be shown with it.
const maxTopicReach = 2

// maxTopicWords bounds the words of a paragraph's opening sentence shown
// for the sentence after it: a topic sentence says briefly what the
// paragraph is about, where a long opening says things of its own.
const maxTopicWords = 25

// withTopicSentence shows the best statement with the sentence that opens
// its paragraph when it stands a little way into it and the opening is
// short (maxTopicWords): a paragraph's first sentence says what the rest
// is about ("A plugin.kus.md file writes units by hand." before "Each
// block starts with a heading ..."), and the sentences after it lean on
// it. It takes the place of the last statement picked from another unit
// when the answer is full.
func withTopicSentence(picked, stmts []scored, limit int) []scored {
	if len(picked) == 0 || picked[0].kind != kindSentence {
		return picked
	}
	top := picked[0]
	var opening *scored
	for i := range stmts {
		s := &stmts[i]
		if s.ku == top.ku && s.kind == kindSentence && s.para == top.para && s.order < top.order && (opening == nil || s.order < opening.order) {
			opening = s
		}
	}
	if opening == nil || top.order-opening.order > maxTopicReach || opening.score <= 0 || len(strings.Fields(opening.text)) > maxTopicWords {
		return picked
	}
	if slices.ContainsFunc(picked, func(p scored) bool { return p.ku == top.ku && p.order == opening.order }) {
		return picked
	}
	return withRoomFor(picked, *opening, limit)
}

// withGround shows the best statement of an explanation with the
// sentence right before it in its paragraph: a page states the ground
// before what follows from it ("Note: exa is no longer maintained. Use
// eza instead."), so the sentence that best matches a why-question's
// words may be the consequence, its reason the sentence before. The
// ground is shown past the answer's limit: a reason is what a
// why-question asks, and none of the rest gives way to it.
func withGround(picked, stmts []scored) []scored {
	if len(picked) == 0 || picked[0].kind != kindSentence {
		return picked
	}
	top := picked[0]
	i := slices.IndexFunc(stmts, func(s scored) bool {
		return s.ku == top.ku && s.order == top.order-1 && s.kind == kindSentence && s.para == top.para && s.score > 0
	})
	if i < 0 || slices.ContainsFunc(picked, func(p scored) bool { return p.ku == top.ku && p.order == top.order-1 }) {
		return picked
	}
	return append(picked, stmts[i])
}

// withRoomFor adds s, a statement of the best one's unit, to picked; when
// the answer is full it takes the place of the last statement picked from
// another unit, and is left out when every statement is of that unit.
func withRoomFor(picked []scored, s scored, limit int) []scored {
	if len(picked) >= limit {
		other := -1
		for i, p := range picked {
			if p.ku != picked[0].ku {
				other = i
			}
		}
		if other < 0 {
			return picked
		}
		picked = slices.Delete(slices.Clone(picked), other, other+1)
	}
	return append(picked, s)
}

// withShownCode shows the code block that follows the best statement's
// paragraph in its unit, when the answer holds that paragraph's last
// sentence: a paragraph followed by code ("You can also implement your own
// configuration source and feed it to viper." over the code that does) says
// what the code shows, and the code is what a reader asking how runs. It
// takes the place of the last statement picked from another unit.
func withShownCode(picked, stmts []scored, limit int) []scored {
	if len(picked) == 0 || picked[0].kind != kindSentence || len(picked[0].block) > 0 {
		return picked
	}
	top := picked[0]
	end := top
	for _, s := range stmts {
		if s.ku == top.ku && s.kind == kindSentence && s.para == top.para && s.order > end.order {
			end = s
		}
	}
	if !slices.ContainsFunc(picked, func(p scored) bool { return p.ku == end.ku && p.order == end.order }) || len(end.block) > 0 {
		return picked
	}
	i := slices.IndexFunc(stmts, func(s scored) bool { return s.ku == top.ku && s.order == end.order+1 && s.kind == kindCode })
	if i < 0 || slices.ContainsFunc(picked, func(p scored) bool { return p.ku == top.ku && p.order == end.order+1 }) {
		return picked
	}
	return withRoomFor(picked, stmts[i], limit)
}

// referringWords open a sentence that speaks of what the sentence before
// it named.
var referringWords = map[string]bool{"it": true, "its": true, "this": true, "these": true, "they": true, "their": true}

// refersBack reports whether sentence s opens with a word that refers to
// what was said just before it ("It is supposed to return ...").
func refersBack(s string) bool {
	w, _, _ := strings.Cut(strings.TrimSpace(s), " ")
	return referringWords[strings.ToLower(strings.Trim(w, ",;:"))]
}

// followProof orders the picked statements along the proof chain and adds
// every stated link between two entities of the chain ("X uses Y" next to
// "X depends on Y").
func followProof(picked []scored, proofOrder map[string]int, ev []plugin.ScoredKU) []scored {
	sort.SliceStable(picked, func(i, j int) bool {
		ri, iok := proofOrder[picked[i].ku.ID]
		rj, jok := proofOrder[picked[j].ku.ID]
		if iok && jok {
			return ri < rj
		}
		return iok && !jok
	})
	var withLinks []scored
	used := map[string]bool{}
	for _, p := range picked {
		used[p.ku.ID] = true
	}
	for _, p := range picked {
		withLinks = append(withLinks, p)
		if !p.ku.HasFact() {
			continue
		}
		for _, e := range ev {
			k := e.KU
			if k == nil || used[k.ID] || !k.HasFact() || len(withLinks) >= 8 {
				continue
			}
			if strings.EqualFold(k.SymbolicSubject, p.ku.SymbolicSubject) && strings.EqualFold(k.SymbolicObject, p.ku.SymbolicObject) {
				used[k.ID] = true
				t := k.Text()
				withLinks = append(withLinks, scored{statement: statement{kind: kindSentence, text: t, md: []string{t}}, ku: k, score: p.score, order: p.order})
			}
		}
	}
	return withLinks
}

// citations numbers the KUs an answer cites in the order it first cites
// them; kus lists them in that order for finish.
type citations struct {
	index map[string]int
	kus   []*kus.KU
}

// num is k's citation number, giving it the next one on its first use.
func (c *citations) num(k *kus.KU) int {
	if n, ok := c.index[k.ID]; ok {
		return n
	}
	if c.index == nil {
		c.index = map[string]int{}
	}
	c.kus = append(c.kus, k)
	c.index[k.ID] = len(c.kus)
	return len(c.kus)
}

// finish appends the Sources list of the cited KUs, numbered in order.
func finish(b *strings.Builder, cited []*kus.KU) *plugin.SolveResult {
	b.WriteString("\nSources:\n")
	ids := make([]string, len(cited))
	for i, k := range cited {
		ids[i] = k.ID
		fmt.Fprintf(b, "[%d] %s — %s:%d\n", i+1, k.Title, k.SourceID, max(1, k.Range.StartLine))
	}
	return &plugin.SolveResult{Status: plugin.StatusSuccess, ResponseMarkdown: b.String(), EvidenceIDs: ids}
}

// withoutCovers is a section's body without the "Covers: a; b." list of
// its sub-headings that ingest appends: headings are labels, and split
// into sentences they read as claims that say nothing.
func withoutCovers(body string) string {
	if strings.HasPrefix(body, "Covers: ") {
		return ""
	}
	if i := strings.LastIndex(body, "\n\nCovers: "); i >= 0 {
		return body[:i]
	}
	return body
}

// pathNames reports whether a folder or the file name (without its
// extension) of a source's path is, as a label, term.
func pathNames(sourceID, term string) bool {
	segs := strings.Split(sourceID, "/")
	last := len(segs) - 1
	segs[last] = strings.TrimSuffix(segs[last], path.Ext(segs[last]))
	return slices.ContainsFunc(segs, func(seg string) bool { return label(seg) == term })
}

// label is s as a label compares: lower case, without its end
// punctuation, markup or a field name.
func label(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	s = strings.TrimPrefix(s, "topic:")
	s = strings.TrimPrefix(s, "title:")
	return strings.Trim(s, " \t.;:,*#`")
}

func noContext(msg string) *plugin.SolveResult {
	return &plugin.SolveResult{Status: plugin.StatusNoContext, ResponseMarkdown: msg}
}

// guidance is what shapes an answer besides its task: the form the
// workspace's guidance units ask for, and, for a follow-up, the example
// the turn before led with (shown), which the user has just read, and the
// action the follow-up's own words ask for (ownAction).
type guidance struct {
	oneWord, bullets, brief, table bool
	shown, ownAction               string
}

func readGuidance(in []plugin.ScoredKU) guidance {
	var g guidance
	for _, s := range in {
		if s.KU == nil {
			continue
		}
		low := strings.ToLower(s.KU.Text() + " " + s.KU.Title)
		g.oneWord = g.oneWord || strings.Contains(low, "one word") || strings.Contains(low, "single word") || strings.Contains(low, "yes or no") || strings.Contains(low, "yes/no") || strings.Contains(low, "one-word")
		g.bullets = g.bullets || strings.Contains(low, "bullet") || strings.Contains(low, "as a list")
		g.brief = g.brief || strings.Contains(low, "brief") || strings.Contains(low, "one sentence") || strings.Contains(low, "short answer")
		g.table = g.table || strings.Contains(low, "table")
	}
	return g
}

// kuRef finds "[ku-id]" references in a proof line.
var kuRef = regexp.MustCompile(`\[([^\[\]]+)\]`)

// proofLines picks the retriever's proof lines that bear most on the task:
// those holding the most task terms, derivations first; at most three. A
// line must hold at least half of the task's terms: a chain that shares
// one word with a longer task ("find job numbers uses atq" for "why use
// nohup when starting a long job") is about something else, and would
// lead the answer away from the passage that answers.
func proofLines(ev []plugin.ScoredKU, want []string) []string {
	type cand struct {
		line  string
		score float64
	}
	var cs []cand
	seen := map[string]bool{}
	for _, e := range ev {
		for _, line := range strings.Split(e.Why, "\n") {
			if line == "" || seen[line] || !kuRef.MatchString(line) {
				continue
			}
			seen[line] = true
			sc := symbolic.Overlap(want, symbolic.TermSet(strings.ReplaceAll(line, "_", " "))) * float64(len(want))
			if strings.Contains(line, " => ") {
				sc += 0.5
			}
			cs = append(cs, cand{line, sc})
		}
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].score > cs[j].score })
	var out []string
	need := max(1, math.Ceil(float64(len(want))/2))
	for _, c := range cs {
		if len(out) == 3 || c.score < need {
			break
		}
		out = append(out, c.line)
	}
	return out
}

// proofKUs orders the KUs the chosen proofs cite, in chain order.
func proofKUs(ev []plugin.ScoredKU, want []string) map[string]int {
	out := map[string]int{}
	for _, line := range proofLines(ev, want) {
		for _, m := range kuRef.FindAllStringSubmatch(line, -1) {
			if _, ok := out[m[1]]; !ok {
				out[m[1]] = len(out)
			}
		}
	}
	return out
}

// conclusion reads the derived fact of the best proof that has one.
func conclusion(ev []plugin.ScoredKU, want []string) string {
	for _, line := range proofLines(ev, want) {
		if i := strings.Index(line, " => "); i >= 0 {
			c := line[i+4:]
			if j := strings.LastIndex(c, " ("); j > 0 {
				c = c[:j]
			}
			return strings.ReplaceAll(strings.TrimSpace(c), "_", " ")
		}
	}
	return ""
}

func escapeCell(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "|", "\\|"), "\n", " ")
}

// exclusionRE finds what a question sets aside: "Besides creating keys,
// what else ...", "other than listing them".
var exclusionRE = regexp.MustCompile(`(?i)\b(?:besides|apart from|aside from|other than|except(?: for)?)\s+([^,;?.]+)`)

// exclusion is what a question sets aside: the action and what it acts
// on ("creating keys": create, key).
type exclusion struct {
	action string
	object []string
	terms  []string // every term of the phrase and of its cue
}

// exclusionOf reads what prompt sets aside; the zero exclusion when it
// sets nothing aside.
func exclusionOf(prompt string) exclusion {
	m := exclusionRE.FindStringSubmatch(prompt)
	if m == nil {
		return exclusion{}
	}
	action, object := symbolic.Action(m[1])
	// The cue ("besides", "apart from") is no word of what is asked
	// either: its terms go with the phrase's.
	return exclusion{action: action, object: object, terms: symbolic.ContentTerms(m[0])}
}

// without is want less the terms the exclusion names: what a question
// sets aside does not choose what answers it.
func (x exclusion) without(want []string) []string {
	if len(x.terms) == 0 {
		return want
	}
	return slices.DeleteFunc(slices.Clone(want), func(t string) bool { return slices.Contains(x.terms, t) })
}

// covers reports whether an example's description does what the question
// sets aside: it opens with the action, a synonym or a kind of it, and
// names all of its object, if it has one ("Generate an ed25519 key" for
// "creating keys").
func (x exclusion) covers(desc string) bool {
	if x.action == "" {
		return false
	}
	d := text.Terms(desc)
	if len(d) == 0 || symbolic.ActionMatch(x.action, map[string]bool{d[0]: true}, true) < symbolic.RelativeMatch {
		return false
	}
	return len(x.object) == 0 || symbolic.Overlap(x.object, symbolic.TermSet(desc)) == 1
}

// showsCode reports whether a, picked, already shows the code b stands
// over: b is a comment of the code block a introduces (commentStatements),
// every line of b's code being in a's block.
func showsCode(a, b scored) bool {
	if a.ku != b.ku || len(b.block) < 3 || len(a.block) <= len(b.block) {
		return false
	}
	in := map[string]bool{}
	for _, l := range a.block {
		in[strings.TrimSpace(l)] = true
	}
	for _, l := range b.block[1 : len(b.block)-1] {
		if !in[strings.TrimSpace(l)] {
			return false
		}
	}
	return true
}
