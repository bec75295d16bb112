package valsymbolic

import (
	"context"
	"embed"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugin/text"
	"github.com/mrpvm/mrpvm/plugins"
	"github.com/mrpvm/mrpvm/plugins/internal/symbolic"
	"github.com/mrpvm/mrpvm/retrieval"
	"github.com/mrpvm/mrpvm/retrieval/lexicon"
)

// ID is the plugin id.
const ID = "val-symbolic"

//go:embed plugin.json plugin.kus.md
var files embed.FS

// Options tune how strict the check is.
type Options struct {
	// MinSupport is the share of a statement's content terms that must
	// occur in the evidence it rests on (0..1).
	MinSupport float64 `json:"minSupport"`
	// MinKeyTerms is the share of the intent's key terms the answer must
	// mention (at least one term is always required when there are any).
	MinKeyTerms float64 `json:"minKeyTerms"`
	// MinKeyCoverage is the share of the intent's key terms, each weighed
	// by how rare it is in the knowledge base, that the answer and the
	// titles and paths of the sources it cites must cover (0..1): sharing
	// a common word with the question is not answering it.
	MinKeyCoverage float64 `json:"minKeyCoverage"`
}

func defaults() Options { return Options{MinSupport: 0.6, MinKeyTerms: 0.34, MinKeyCoverage: 0.6} }

func (o *Options) validate() error {
	if o.MinSupport < 0 || o.MinSupport > 1 {
		return fmt.Errorf("minSupport %v: want a value in [0, 1]", o.MinSupport)
	}
	if o.MinKeyCoverage < 0 || o.MinKeyCoverage > 1 {
		return fmt.Errorf("minKeyCoverage %v: want a value in [0, 1]", o.MinKeyCoverage)
	}
	if o.MinKeyTerms < 0 || o.MinKeyTerms > 1 {
		return fmt.Errorf("minKeyTerms %v: want a value in [0, 1]", o.MinKeyTerms)
	}
	return nil
}

// Plugin is val-symbolic.
type Plugin struct {
	plugin.Base
	Options Options
}

var _ plugin.ValPlugin = (*Plugin)(nil)

// New builds the plugin from its options and injected services, as the
// catalog does.
var New = plugins.RegisterBuiltin(plugins.Define(files, defaults(), (*Options).validate,
	func(base plugin.Base, opts Options, _ plugin.Env) plugin.Plugin {
		return &Plugin{Base: base, Options: opts}
	}))

// Validate accepts or rejects the answer; it never calls a model.
func (p *Plugin) Validate(ctx context.Context, rc plugin.RunContext, in *plugin.ValidateInput) (*plugin.ValidateResult, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var rar symbolic.Rarity
	if rc.Corpus != nil {
		rar = symbolic.NewRarity(rc.Corpus)
	}
	v := p.check(in, rc, rar, false)
	if v.reason != "" && asksWhy(in) {
		// "Why X when Y?" is judged on X; an answer grounded in the
		// whole question, the circumstance Y with it, answers it too.
		if whole := p.check(in, rc, rar, true); whole.reason == "" {
			v = whole
		}
	}
	res := &plugin.ValidateResult{Metadata: plugin.Metadata{Extra: map[string]any{
		"statements": v.statements, "supported": v.supported, "keyTerms": v.keyTerms, "keyTermsFound": v.keyFound,
		"keyCoverage": v.coverage,
	}}}
	if v.reason != "" {
		res.Status, res.Verdict, res.Reason = plugin.StatusRejected, plugin.StatusRejected, v.reason
		return res, nil
	}
	res.Status, res.Verdict = plugin.StatusAccepted, plugin.StatusAccepted
	res.Reason = fmt.Sprintf("%d of %d statements supported by their evidence; %d of %d key terms addressed",
		v.supported, v.statements, v.keyFound, v.keyTerms)
	return res, nil
}

// verdict is the outcome of check; an empty reason accepts.
type verdict struct {
	reason                                    string
	statements, supported, keyTerms, keyFound int
	coverage                                  float64
}

// statement is one checkable claim of an answer.
type statement struct {
	text  string
	cites []int // 1-based source numbers
	line  int   // 1-based line in the answer
	code  bool  // a line of a fenced code block, quoted as written
	lead  bool  // its citation opens what follows ("Title [1]: ...")
	row   bool  // a table row
}

var (
	// citeGroupRE finds a citation group: "[n]"s standing as words, not an
	// index or array type inside quoted code ("args[1]", "[2]string").
	citeGroupRE = regexp.MustCompile("(?:^|[\\s.,;:!?)\"'*`])((?:\\s*\\[\\d+\\])+)(?:$|[\\s.,;:!?|)])")
	citeNumRE   = regexp.MustCompile(`\[(\d+)\]`)
	// sourceLineRE matches "[n] Title — source:line" in a Sources list.
	sourceLineRE = regexp.MustCompile(`^\[(\d+)\]\s+(.*?)\s+[—–-]+\s+(\S+?)(?::(\d+))?\s*$`)
	numberRE     = regexp.MustCompile(`\b\d+(?:[.,]\d+)*\b`)
	mustMention  = regexp.MustCompile(`(?i)must (?:mention|include|contain|name)\s+["“']?([^"”'.;]+)`)
	citeRule     = regexp.MustCompile(`(?i)\bcite\b|\bcitations?\b`)
)

// check judges the answer; withCircumstance keeps the circumstance of a
// "why" question (whyAsked) among what it asks.
func (p *Plugin) check(in *plugin.ValidateInput, rc plugin.RunContext, rar symbolic.Rarity, withCircumstance bool) verdict {
	var v verdict
	body, sources := splitSources(in.Answer)
	if strings.TrimSpace(body) == "" {
		v.reason = "the answer is empty"
		return v
	}
	// Map source numbers to evidence KUs: by the Sources list when the
	// answer has one, else by position in the evidence.
	cited := map[int]*kus.KU{}
	for n, ref := range sources {
		if k := findKU(in.Evidence, ref); k != nil {
			cited[n] = k
		} else {
			v.reason = fmt.Sprintf("source [%d] %q is not among the retrieved evidence", n, ref.title)
			return v
		}
	}
	if len(sources) == 0 {
		for i, e := range in.Evidence {
			if e.KU != nil {
				cited[i+1] = e.KU
			}
		}
	}

	// A comparison or a choice must weigh each of the things it names,
	// which is judged on the answer's form before its statements are.
	if weighs(in) {
		if why := weighsApart(body, intentTargets(in), cited); why != "" {
			v.reason = why
			return v
		}
	}
	stmts := statements(body)
	citedAny := false
	for _, s := range stmts {
		if len(s.cites) > 0 {
			citedAny = true
		}
	}
	requireCites := false
	for _, g := range userRules(in.Guidance) {
		if citeRule.MatchString(g.Text()) {
			requireCites = true
		}
	}
	// The evidence an uncited statement may rest on: what the answer
	// cites, else everything retrieved.
	var fallback []*kus.KU
	if citedAny {
		for _, s := range stmts {
			for _, n := range s.cites {
				if k := cited[n]; k != nil {
					fallback = append(fallback, k)
				}
			}
		}
	} else {
		for _, e := range in.Evidence {
			if e.KU != nil {
				fallback = append(fallback, e.KU)
			}
		}
	}
	fallbackText := citedText(fallback, rc)
	allText := fallbackText
	if citedAny {
		allText = citedText(evidenceKUs(in.Evidence), rc)
	}

	for _, s := range stmts {
		if s.code {
			// Quoted code is checked as written: its line must occur in
			// the Markdown of a source the answer cites.
			v.statements++
			if !quoted(s.text, fallback, rc) {
				v.reason = fmt.Sprintf("line %d: the code %q occurs in no cited source", s.line, clip(s.text))
				return v
			}
			v.supported++
			continue
		}
		terms := claimTerms(s.text)
		if len(terms) == 0 {
			continue // connective text: "Steps:", "Therefore:"
		}
		v.statements++
		var support string
		if len(s.cites) > 0 {
			var ks []*kus.KU
			for _, n := range s.cites {
				k, ok := cited[n]
				if !ok {
					v.reason = fmt.Sprintf("line %d cites [%d], but the answer has no such source", s.line, n)
					return v
				}
				ks = append(ks, k)
			}
			support = citedText(ks, rc)
		} else {
			if requireCites {
				v.reason = fmt.Sprintf("line %d states %q without a citation, and the user asked for cited sources", s.line, clip(s.text))
				return v
			}
			support = fallbackText
		}
		have := symbolic.TermSet(support)
		share := symbolic.Overlap(terms, have)
		if share < p.Options.MinSupport && len(s.cites) == 0 && citedAny {
			// An uncited bridge sentence may rest on any retrieved KU.
			have = symbolic.TermSet(allText)
			share = symbolic.Overlap(terms, have)
		}
		if share < p.Options.MinSupport {
			v.reason = fmt.Sprintf("line %d: %q is not supported by %s (missing: %s)",
				s.line, clip(s.text), citeLabel(s.cites), strings.Join(missing(terms, have), ", "))
			return v
		}
		for _, num := range numberRE.FindAllString(s.text, -1) {
			if !strings.Contains(support, num) && !strings.Contains(allText, num) {
				v.reason = fmt.Sprintf("line %d: the number %s in %q occurs in no evidence", s.line, num, clip(s.text))
				return v
			}
		}
		v.supported++
	}
	if v.statements == 0 {
		v.reason = "the answer makes no checkable statement"
		return v
	}

	// A how-to is answered by something to do: a command, code,
	// numbered steps or a request in prose (instructs), when the evidence
	// has any to show.
	if howTo(in) && !symbolic.Actionable(body) && !instructs(body) && !namesToolInRow(body) {
		for _, e := range in.Evidence {
			if e.KU != nil && symbolic.Actionable(e.KU.Text()+"\n"+e.KU.TextBody) {
				v.reason = "the question asks how to do something, and the answer shows no command, code or steps although the evidence has some"
				return v
			}
		}
	}
	// Key terms: the targets of the intents (else the question).
	answerTerms := symbolic.TermSet(in.Answer)
	maps.Copy(answerTerms, callTerms(in.Answer))
	targets := intentTargets(in)
	for _, it := range in.Intents {
		if it.Act != "define" && statesScene(it.Target, in.Payload.Prompt) {
			v.reason = fmt.Sprintf("%q states what the user has, asking nothing; the question asks elsewhere", clip(it.Target))
			return v
		}
	}
	if in.SearchedFor != "" && len(targets) <= 1 {
		// The evidence was retrieved for the spelling-corrected or
		// follow-up-completed query, and the answer is judged on it.
		targets = []string{in.SearchedFor}
	}
	// "What does X mean?" asks what X is: its "mean" is the question's
	// verb, not a word the answer must hold, in each part of the question
	// and in the topic a later part was completed with.
	if asksMeaning(in, rc) {
		for i, t := range targets {
			targets[i] = meanRE.ReplaceAllString(t, " ")
		}
	}
	// "What does --quiet hide?" asks what the option does (codeVerbFree);
	// "What do errors look like?" what form they take: "look like" says a
	// likeness, as "mean" says a meaning, and names nothing the answer
	// must say, which shows the form itself.
	for i, t := range targets {
		if defines(in) {
			t = codeVerbFree(t)
		}
		targets[i] = likenessFree(t)
	}
	// "Why X when Y?" asks the reason for X; Y is the circumstance it is
	// asked in, which a reason need not repeat ("Why would I use nohup
	// when starting a long job?" is answered by "nohup lets a process
	// live when the terminal is killed").
	if asksWhy(in) && !withCircumstance {
		for i, t := range targets {
			targets[i] = whyAsked(t)
		}
	}
	// "How do I X before I Y?" asks how to X; the clause that says when
	// the user does it (a subordinating word and a subject pronoun:
	// "before I post them online", "as it happens") is the occasion, which
	// the command that does X need not name.
	if howTo(in) {
		for i, t := range targets {
			targets[i] = avoidFree(occasionFree(t), answerTerms)
		}
	}
	// "What kinds of things can nmcli manage?" asks what nmcli manages: a
	// classifier noun before "of" and a generic word ("things") frame the
	// question and name nothing the answer must say. "$HOME-style
	// variables" asks about variables like $HOME: a combining form
	// ("-style", "-like") makes its word a likeness and names nothing of
	// its own either (combiningRE); nor does the verb of a contact clause
	// closing it ("the reason it gave", contactRE), nor the words that set
	// the scene of the question: the user's reason, an example they give
	// and a limit they set (sceneFree), a place of their own the answer
	// does not name (ownPlaceFree); nor a semi-modal ("is supposed to",
	// semiModalFree); nor an equative construction ("as soon as", "as
	// well", degreeFree), nor the adjective that judges an extraposed
	// clause's action ("is it fine to", evaluationFree), nor the frame of
	// a question about what follows ("what happens if", happensFree), nor
	// the noun that names a field as a world ("in the go-chi ecosystem",
	// domainFree).
	for i, t := range targets {
		targets[i] = contactRE.ReplaceAllString(combiningRE.ReplaceAllString(classifierFree(ownPlaceFree(sceneFree(semiModalFree(evaluationFree(degreeFree(domainFree(happensFree(t)))))), answerTerms)), "$1"), "$1$2")
	}
	// "How soon", "how long" and "how often" ask for a span of time: an
	// answer that gives one ("within 48 hours", "timeoutMs") answers the
	// adverb, which names nothing a page must say.
	if symbolic.GivesDuration(body) {
		for i, t := range targets {
			targets[i] = symbolic.WithoutDurationAdverb(t)
		}
	}
	// So do "how big", "how large" and "how small" for an amount of data
	// ("1 MiB").
	if symbolic.GivesSize(body) {
		for i, t := range targets {
			targets[i] = symbolic.WithoutSizeAdjective(t)
		}
	}
	// A word the query's spelling correction changed is answered by the
	// word as asked as well as by its correction: "allow" corrected to
	// "alloc" is covered by an answer that says "allow".
	corr := corrections(in)
	credit(answerTerms, corr)
	swap := substitutions(corr, replaced(in), rar)
	for _, t := range targets {
		key := askedTerms(t, rar)
		if len(key) == 0 {
			continue
		}
		found := 0
		for _, k := range key {
			if answerTerms[k] {
				found++
			}
		}
		v.keyTerms += len(key)
		v.keyFound += found
		if found == 0 || float64(found)/float64(len(key)) < p.Options.MinKeyTerms {
			v.reason = fmt.Sprintf("the answer does not address %q (missing: %s)", clip(t), strings.Join(missing(key, answerTerms), ", "))
			return v
		}
	}
	// The key terms again, weighed by rarity: what the answer shows and
	// the sources it cites must cover the question's rare words, not only
	// its common ones ("meaning of life" is not answered by a page that
	// mentions life).
	cover := symbolic.TermSet(body)
	maps.Copy(cover, callTerms(body))
	maps.Copy(cover, initialisms(body))
	// A cited section is named by its page too: the words of the page's
	// title ("gorilla/mux" over the README's "Testing Handlers") say what
	// all of its sections are about. They are kept apart (pageOnly) for
	// the check of a name the knowledge base holds nowhere (see
	// strangerCoverage): that every section of a page is about its subject
	// does not make one of them answer about something else.
	for _, k := range cited {
		maps.Copy(cover, labelTerms(k))
		// A source that spells out an initialism's words covers it, as
		// its title does (initialisms).
		maps.Copy(cover, initialisms(k.TextBody))
	}
	pageOnly := map[string]bool{}
	for _, k := range cited {
		for t := range symbolic.TermSet(pageTitle(k, rc)) {
			if !cover[t] {
				pageOnly[t], cover[t] = true, true
			}
		}
	}
	// A question about one thing must be answered by one unit: its key
	// terms must occur together in what the answer says from one cited
	// source (with that source's title and path), not scattered over
	// several ("mean" from a statistics page and "life" from a Game of
	// Life page do not answer "meaning of life"). A comparison or a
	// question of several parts draws on several sources by design.
	credit(cover, corr)
	units := unitCovers(stmts, cited)
	for _, u := range units {
		credit(u, corr)
	}
	// A key word the answer says in other words ("watch" as "follow") is
	// covered by a synonym or derived form of it, from the general
	// lexicon, in what the answer says from one source: that source, and
	// the answer, cover it. The source's title and path and the rest of its
	// page do not count: a relative of some sense of the word stands
	// somewhere in most pages.
	for n, texts := range unitTexts(stmts, cited) {
		said := symbolic.TermSet(strings.Join(texts, "\n"))
		for _, t := range targets {
			for _, k := range keyTerms(t) {
				if !units[n][k] && !symbolic.LightAction(k) && saysRelative(k, said) {
					units[n][relativeMark+k], cover[relativeMark+k] = true, true
				}
			}
		}
	}
	// A number the question gives ("port 8080", "reach 8.8.8.8") is a
	// value the user fills in: a command that leaves a placeholder for it
	// ("lsof -i :{{port}}") covers it.
	if fillInRE.MatchString(body) {
		for _, t := range targets {
			for _, k := range keyTerms(t) {
				if isLiteralValue(k) {
					cover[k] = true
					for _, u := range units {
						u[k] = true
					}
				}
			}
		}
	}
	coverPageValues(targets, cover, units, cited, rc)
	single := len(targets) == 1 && !comparison(in)
	// A how-to answered with examples has its verb judged on its own, on
	// the source the answer leads with and the lexicon's relatives of the
	// verb (see below): pages name an action with any of many verbs
	// ("convert" for "turn into", "merge" for "put side by side"),
	// and what it acts on says which thing is asked. In the coverage the
	// verb counts as a modifier does.
	if single && howTo(in) && symbolic.AnswerExampleRE.MatchString(body) {
		if a := verbAction(targets[0]); a != "" && !symbolic.LightAction(a) && !splitPhrasal(targets[0], a) {
			cover[judgedMark+a] = true
			for _, u := range units {
				u[judgedMark+a] = true
			}
		}
	}
	v.coverage = 1
	for _, t := range targets {
		cov, worst := keyCoverage(t, cover, rar, swap)
		if single && len(units) > 1 && cov >= p.Options.MinKeyCoverage {
			// A choice ("curl or wget to download a directory") has a
			// source for each thing it names: a unit answers it when it
			// covers the rest of the question, whichever of them it is
			// about (weighsApart has checked that each is named).
			var names []string
			if weighs(in) {
				for _, n := range choiceNames(t) {
					names = append(names, symbolic.ContentTerms(n)...)
				}
			}
			cov, worst = -1, ""
			for _, u := range sectionCovers(units, cited) {
				if len(names) > 0 {
					u = maps.Clone(u)
					for _, n := range names {
						u[n] = true
					}
				}
				if c, w := keyCoverage(t, u, rar, swap); c > cov {
					cov, worst = c, w
				}
			}
			if cov < p.Options.MinKeyCoverage {
				v.coverage = cov
				v.reason = fmt.Sprintf("no single source the answer cites covers what %q asks (best %.0f%%, by rarity in the knowledge base); %q is not covered with the rest", clip(t), 100*cov, worst)
				return v
			}
		}
		if cov < p.Options.MinKeyCoverage {
			// A question completed with the topic of an earlier part or
			// turn ("keep watching for new ones (kernel messages in a
			// human-readable way)") asks its own words; the topic, which
			// that part's answer covered, only says what they are about:
			// some of its words suffice. Its own words are judged without
			// the adverbs that tie it to that turn (adverbFree).
			if asked, topic, ok := completion(t); ok {
				if c, w := keyCoverage(adverbFree(asked), cover, rar, swap); c >= p.Options.MinKeyCoverage && (mentions(topic, cover, rar, p.Options.MinKeyTerms) || namesTopic(asked, topic, cover, rar)) {
					cov = c
				} else if c < cov {
					worst = w
				}
			}
		}
		v.coverage = min(v.coverage, cov)
		if cov < p.Options.MinKeyCoverage {
			v.reason = fmt.Sprintf("the answer and its sources cover %.0f%% of what %q asks (by rarity in the knowledge base); %q is not covered", 100*cov, clip(t), worst)
			return v
		}
		if n, missed := missesMeasure(t, cover, rar); missed {
			v.reason = fmt.Sprintf("%q asks an amount of %q, which the answer never names", clip(t), n)
			return v
		}
		if u := stranger(t, in.Payload.Prompt, rar, swap); u != "" {
			if c := min(cov, strangerCover(t, cover, pageOnly, rar, swap)); c < strangerCoverage {
				v.coverage = min(v.coverage, c)
				v.reason = fmt.Sprintf("%q names %q, which no source of the knowledge base holds, and the answer covers only %.0f%% of the rest (by rarity in the knowledge base); %q is not covered", clip(t), u, 100*c, worst)
				return v
			}
		}
		asked, ok := followUpAsk(t)
		if !ok || !single {
			continue
		}
		// A follow-up asks something the turn before did not: an answer
		// that only repeats the example that answered it does not answer
		// the follow-up (repeatsLastLead).
		if lead, again := repeatsLastLead(in.Answer, rc); again {
			v.reason = fmt.Sprintf("the answer to the follow-up %q only repeats %q, the example that answered the turn before it", clip(asked), clip(lead))
			return v
		}
		// A follow-up completed with its topic ("Can it reload when the
		// file changes (config file viper)?") is answered on what the user
		// asked, not on the topic every source of it shares: the words
		// before the completion must be covered on their own (light
		// actions aside: "see", "list"), those of them the cited pages
		// use (heldWords), and the answer must say the follow-up's action
		// (unsaidAction), which a page that lacks the word cannot carry.
		if earlierTurns(rc) {
			task := asked
			asked = heldWords(asked, citedPages(cited, rc))
			if cov, worst := keyCoverage(asked, cover, rar, swap); cov < p.Options.MinKeyCoverage {
				v.coverage = min(v.coverage, cov)
				v.reason = fmt.Sprintf("the answer covers %.0f%% of what the follow-up %q asks (by rarity in the knowledge base); %q is not covered", 100*cov, clip(asked), worst)
				return v
			}
			if a := unsaidAction(task, saidTerms(in.Answer)); a != "" {
				v.reason = fmt.Sprintf("the answer never says what the follow-up %q asks to do: nothing in it carries %q, a synonym of it or a kind of it", clip(task), a)
				return v
			}
		}
	}
	// The source an answer leads with is the one it answers from: when
	// what the answer says from it covers none of what the question asks,
	// the answer leads with something else, however well the sources it
	// cites further down cover the question between them.
	if n, k := leadUnit(stmts, cited); k != nil && units[n] != nil && len(targets) > 0 {
		if c, _ := keyCoverage(targets[0], units[n], rar, swap); c == 0 {
			v.reason = fmt.Sprintf("the source the answer leads with, [%d] %s, covers none of what %q asks", n, k.Title, clip(targets[0]))
			return v
		}
	}
	// A question answered with the examples of several sources is answered
	// by each of them: a source that covers less than MinKeyTerms of what
	// the task asks (by rarity) is quoted for a word it shares with the
	// task in another sense ("space" of a space-separated file for the
	// space a folder takes), and the answer mixes in examples that do
	// something else. A question that asks which things there are
	// ("which error codes can show up") gathers them from several
	// sources by design.
	if single && len(units) > 1 && symbolic.AnswerExampleRE.MatchString(body) && !asksWhich(in) {
		for _, n := range slices.Sorted(maps.Keys(units)) {
			if c, _ := keyCoverage(targets[0], units[n], rar, swap); c < p.Options.MinKeyTerms {
				v.reason = fmt.Sprintf("source [%d] %s covers %.0f%% of what %q asks (by rarity in the knowledge base): its examples do something else",
					n, cited[n].Title, 100*c, clip(targets[0]))
				return v
			}
		}
	}
	// The key terms must also stand together in the source the answer leads
	// with: two neighbouring ones in one sentence, or one in its title or
	// path and the other in its text. A page that mentions "long" in one
	// example and "short" in another does not answer "give a long command
	// a short name"; an answer that leads with a page where the words are
	// only apart, and has them together only in a page it cites further
	// down, leads with the wrong page.
	if single && !several(targets[0]) {
		if n, k := leadUnit(stmts, cited); k != nil && !together(targets[0], k, unitTexts(stmts, cited)[n], rc, !asksWhy(in) && !defines(in)) {
			v.reason = fmt.Sprintf("the source the answer leads with, [%d] %s, mentions the words of %q only apart, never together in one passage",
				n, k.Title, clip(targets[0]))
			return v
		}
	}
	// A how-to answered with examples ("- Delete the latest stash:" and
	// its command) is answered by a source that does what it asks: the
	// source the answer leads with must carry the task's action, or a word
	// the lexicon relates to it, in what the answer says from it, its
	// text or its title ("bring the stash back" is not answered by "Show
	// the changes of a stash", however many nouns they share). The title
	// and path count only with the action itself or a close relative of
	// it: they name the source, and a name is not what it does ("py-spy"
	// does not find things because a spy is a kind of finder). Examples
	// name their action with a verb; prose and code say it in too many
	// ways for the lexicon to judge.
	// A task that asks to see, show or list something ("Is there a way to
	// print a file's permissions") answered with a page's examples needs
	// an example that shows.
	if single && symbolic.AnswerExampleRE.MatchString(body) {
		if action := shownAction(targets[0]); action != "" {
			if n, k := leadUnit(stmts, cited); k != nil && firstBlock(k, rc) {
				if lines := exampleLines(body, n); len(lines) > 0 && !shows(action, lines) {
					v.reason = fmt.Sprintf("the examples the answer quotes from [%d] %s do not show anything, as %q asks: each does something else",
						n, k.Title, clip(targets[0]))
					return v
				}
				// What is shown must be the thing asked: an answer that
				// never names it (or a synonym) shows another thing that
				// shares the other words ("Print the octal representation
				// of a file" for "print a file's permissions as an octal
				// number").
				if heads := objectHeads(targets[0], action); len(heads) > 0 && !saysAny(heads, body, rar) {
					v.reason = fmt.Sprintf("the examples the answer quotes from [%d] %s show something else than what %q asks to see: the answer never names %q",
						n, k.Title, clip(targets[0]), heads[0])
					return v
				}
			}
		}
	}
	// A verb of very many senses (polysemous: "turn" of "turn a document
	// into a PDF") names its action through what it acts on, which pages
	// say with a verb of their own ("convert"): it is not judged here.
	if single && howTo(in) && symbolic.AnswerExampleRE.MatchString(body) {
		if action := verbAction(targets[0]); action != "" && !symbolic.LightAction(action) && !polysemous(action) && !splitPhrasal(targets[0], action) {
			if n, k := leadUnit(stmts, cited); k != nil {
				label, have := labelTerms(k), map[string]bool{}
				said := strings.Join(unitTexts(stmts, cited)[n], "\n") + "\n" + citedText([]*kus.KU{k}, rc)
				said = urlRE.ReplaceAllString(said, " ")
				for _, set := range []map[string]bool{symbolic.TermSet(said), symbolic.IdentTerms(said)} {
					for t := range set {
						if !label[t] {
							have[t] = true
						}
					}
				}
				if c := symbolic.ActionCompound(targets[0]); c != "" && (have[c] || label[c]) {
					have[action] = true // "Shutdown" for "shut down"
				}
				does := func(action string) bool {
					for t := range have {
						if compound(action, t) {
							have[action] = true // "allowlists" for "allow"
						}
					}
					return symbolic.ActionMatch(action, have, true) > 0 || symbolic.ActionMatch(action, label, false) > 0
				}
				// The verb as asked counts too when the spelling
				// correction changed it ("allow" read as "alloc").
				if o, ok := corr[action]; !does(action) && (!ok || !does(o)) {
					v.reason = fmt.Sprintf("the source the answer leads with, [%d] %s, does not do what %q asks: nothing the answer says from it carries %q, a synonym of it or a kind of it",
						n, k.Title, clip(targets[0]), action)
					return v
				}
				// A page that answers with its examples does what they do:
				// an example that has the action only as a participle of
				// what it acts on ("Edit the command line of a stopped
				// task") does something else, unless the page's
				// description, or another word or an option of an example,
				// carries it.
				if firstBlock(k, rc) {
					if lines := exampleLines(body, n); len(lines) > 0 && !actsOn(action, corr[action], lines, firstParagraph(spanText(k, rc)), label) {
						v.reason = fmt.Sprintf("the examples the answer quotes from [%d] %s do not do what %q asks: they name %q only as the state of what they act on",
							n, k.Title, clip(targets[0]), action)
						return v
					}
				}
			}
		}
	}
	// A how-to answered with a page's examples is answered by a page that
	// acts on something the question names (its action and the owners its
	// possessives name aside, possessorFree): the object
	// of an example's verb, of its description's verb, or the page's name
	// (actedOn, titleNames), unless the page's description names a name
	// asked and most of the rest (describesAsked). A page about another tool shares the
	// question's words in other roles ("Show all open sockets on a remote
	// host" for "show the hosts on my network"): what it acts on is a
	// thing never asked about.
	if single && howTo(in) && symbolic.AnswerExampleRE.MatchString(body) {
		if n, k := leadUnit(stmts, cited); k != nil && firstBlock(k, rc) {
			desc := firstParagraph(spanText(k, rc))
			if things, ok := actedOn(exampleLines(body, n), desc); ok {
				asked := symbolic.TermSet(possessorFree(targets[0]))
				if a, _ := symbolic.Action(targets[0]); a != "" {
					delete(asked, a)
				}
				if !namesAny(things, asked, rar) && !titleNames(pageTitle(k, rc), asked, rar) && !describesAsked(desc, asked, rar, p.Options.MinKeyCoverage) {
					v.reason = fmt.Sprintf("the source the answer leads with, [%d] %s, acts on %q, which %q never names, nor does it name what the page is about",
						n, k.Title, things[0], clip(targets[0]))
					return v
				}
			}
		}
	}
	// A question confined to one folder's pages ("with gin") is answered
	// from that folder, or from pages that say its name: every source the
	// answer cites (a list that quotes viper's codecs does not say which
	// JSON packages gin can be built with).
	if single {
		for _, k := range cited {
			if why := outOfScope(targets[0], in.Evidence, k, rc); why != "" {
				v.reason = why
				return v
			}
		}
	}
	// "What is X" is answered by a unit about X: the rarest key word of the
	// target names the unit (its title or path) or stands in the first
	// sentence of what the answer says from it or of the unit itself, not
	// only somewhere further down.
	if single && defines(in) {
		if n, k := leadUnit(stmts, cited); k != nil {
			if w := subjectWord(targets[0], k, unitTexts(stmts, cited)[n], rc, rar); w != "" {
				v.reason = fmt.Sprintf("the source the answer leads with, [%d] %s, is not about %q: it mentions %q only in passing",
					n, k.Title, clip(targets[0]), w)
				return v
			}
		}
	}
	// "Why ...?" asks for a reason: an answer made only of examples (a
	// description ending in a colon and its command) shows what to do,
	// not why, unless a description gives a reason or a condition
	// ("Remove a host's keys (useful when it has a new key)"). Prose
	// counts as explaining (what it says was checked against the evidence
	// above), except a page's own description, which says what the page is
	// for.
	if asksWhy(in) && !explains(body, cited, rc) && !remarks(body, targets, cited, rar) && !contrastsCases(in.Payload.Prompt, body) {
		v.reason = fmt.Sprintf("%q asks why, and the answer only shows examples of what to do, with no reason or condition", clip(in.Payload.Prompt))
		return v
	}
	// "must mention X" rules from the user's turn.
	for _, g := range userRules(in.Guidance) {
		for _, m := range mustMention.FindAllStringSubmatch(g.Text(), -1) {
			want := strings.TrimSpace(m[1])
			if want != "" && !strings.Contains(strings.ToLower(in.Answer), strings.ToLower(want)) {
				v.reason = fmt.Sprintf("the answer does not mention %q, as the user required", want)
				return v
			}
		}
	}
	return v
}

// citedPages are the terms of the whole pages the cited units stand in,
// or nil when the corpus holds the text of none of them.
func citedPages(cited map[int]*kus.KU, rc plugin.RunContext) map[string]bool {
	var out map[string]bool
	for _, page := range pageTermSets(cited, rc) {
		if out == nil {
			out = map[string]bool{}
		}
		maps.Copy(out, page)
	}
	return out
}

// pageTermSets are the terms of each whole page the cited units stand in,
// by source id, each page read once however many of its units are cited;
// a page whose text the corpus does not hold has no entry.
func pageTermSets(cited map[int]*kus.KU, rc plugin.RunContext) map[string]map[string]bool {
	if rc.Corpus == nil {
		return nil
	}
	out := map[string]map[string]bool{}
	for _, k := range cited {
		if _, done := out[k.SourceID]; done {
			continue
		}
		if src := rc.Corpus.SourceText(k.SourceID); len(src) > 0 {
			out[k.SourceID] = symbolic.TermSet(string(src))
		}
	}
	return out
}

// heldWords is asked without the words whose terms pages never use, or
// asked itself when pages is nil (their text unknown). A follow-up's own
// word that the pages it is answered from never use ("reload" of a page
// on "watching and re-reading config files") is one no passage of them
// can cover: they say it in words of their own, and the answer is judged
// on the words they do use.
func heldWords(asked string, pages map[string]bool) string {
	if pages == nil {
		return asked
	}
	var kept []string
	for _, w := range strings.Fields(asked) {
		if slices.ContainsFunc(symbolic.ContentTerms(w), func(t string) bool { return !pages[t] }) {
			continue
		}
		kept = append(kept, w)
	}
	return strings.Join(kept, " ")
}

// completionRE matches the topic a follow-up was completed with: a
// parenthesised group closing the question.
var completionRE = regexp.MustCompile(`^(.*\S)\s*\([^()]+\)\s*[?.!]?\s*$`)

// followUpAsk is what a follow-up completed with its topic asks without
// that topic, with its light actions left out ("reload when the file
// changes" of "Can it reload when the file changes (config file
// viper)?"); ok is false when target is no completed follow-up or asks
// nothing beyond its topic and light actions ("How do I list them (docker
// container)?").
func followUpAsk(target string) (string, bool) {
	m := completionRE.FindStringSubmatch(target)
	if m == nil {
		return "", false
	}
	var words []string
	fields := withoutDoer(strings.Fields(m[1]))
	for i, w := range fields {
		if t := text.Terms(w); len(t) == 1 && symbolic.LightAction(t[0]) && (i == 0 || !nounBefore[strings.ToLower(fields[i-1])]) {
			continue
		}
		words = append(words, w)
	}
	asked := strings.Join(words, " ")
	for _, k := range symbolic.ContentTerms(asked) {
		if !filler[k] {
			return asked, true
		}
	}
	return "", false
}

// doerLeadRE is the opening of a question asking how someone other than
// the user does something: a wh-word, an auxiliary and an article or
// possessive ("How does the", "Can my").
var doerLeadRE = regexp.MustCompile(`(?i)^(?:how|when|where|why|what)?\s*(?:does|do|did|can|could|will|would|should)\s+(?:the|a|an|my|your|our|their|his|her)$`)

// withoutDoer is a question's words without the noun phrase that names
// who does what it asks ("the person on the other end" of "How does the
// person on the other end receive it"): the phrase after the opening
// (doerLeadRE), through its prepositional phrases, up to the first word
// that follows a noun and has a sense as a verb. Pages say what is done
// as commands to whoever does it, so they name no doer; what the
// follow-up asks is the action and what it acts on. Words unchanged when
// no such phrase opens the question.
func withoutDoer(words []string) []string {
	for lead := 2; lead <= 3 && lead < len(words); lead++ {
		if !doerLeadRE.MatchString(strings.Join(words[:lead], " ")) {
			continue
		}
		for i := lead + 1; i < len(words); i++ {
			prev := strings.ToLower(words[i-1])
			if nounBefore[prev] || otherWords[prev] {
				continue
			}
			if t := text.Terms(words[i]); len(t) == 1 && lexicon.HasVerbSense(t[0]) {
				return append(slices.Clone(words[:lead-1]), words[i:]...)
			}
		}
		return words
	}
	return words
}

// otherWords are the adjectives that stand where a determiner does ("the
// other end"): a word after them is the noun they qualify.
var otherWords = wordSet([]string{"other", "another", "same", "next", "last", "first"})

// nounBefore are the words after which a light action's word is a noun
// ("between checks", "the list", "each view"), a thing asked about rather
// than the verb: prepositions, articles, possessives and quantifiers.
var nounBefore = wordSet(strings.Fields("a an the my your his her its our their this these those each every any some no all " +
	"of in on into onto from with without for by at between among after before during about across over under through per"))

// completion splits a target completed with a topic into what it asks
// (followUpAsk) and the topic; ok is false when target is no completed
// question or asks nothing beyond its topic.
func completion(target string) (asked, topic string, ok bool) {
	m := completionRE.FindStringSubmatchIndex(target)
	if m == nil {
		return "", "", false
	}
	if asked, ok = followUpAsk(target); !ok {
		return "", "", false
	}
	topic = strings.Trim(strings.TrimSpace(target[m[3]:]), "()?.! \t")
	return asked, topic, true
}

// mentions reports whether cover holds at least one key term of topic and
// at least share of them.
func mentions(topic string, cover map[string]bool, rar symbolic.Rarity, share float64) bool {
	key := askedTerms(topic, rar)
	found := 0
	for _, k := range key {
		if covered(k, cover, rar) {
			found++
		}
	}
	return found > 0 && float64(found) >= share*float64(len(key))
}

// namesTopic reports whether asked names, itself, a key term of topic
// that cover holds ("pandoc" of "with pandoc, how do I list the output
// formats" completed with "pandoc: choose which PDF engine it uses"): a
// question that says what it is about needs nothing more of the topic,
// whose other words the earlier part asked.
func namesTopic(asked, topic string, cover map[string]bool, rar symbolic.Rarity) bool {
	own := map[string]bool{}
	for _, k := range keyTerms(asked) {
		own[k] = true
	}
	for _, k := range askedTerms(topic, rar) {
		if own[k] && !filler[k] && covered(k, cover, rar) {
			return true
		}
	}
	return false
}

// earlierTurns reports whether the conversation, which holds the turns
// before the current question (the VM records a turn once it is
// answered), has two user turns or more: from a session's third question
// on, a question completed with a topic is judged as a follow-up on its
// own words. A session's second question is still judged as a whole,
// completed topic included.
func earlierTurns(rc plugin.RunContext) bool {
	n := 0
	for _, t := range rc.Conversation {
		if t.Role == "user" {
			n++
		}
	}
	return n > 1
}

// meaningRE finds "what does X mean" in a question; meanRE the verb.
var (
	meaningRE = regexp.MustCompile(`(?i)(?:^|\bwhat\s+)(?:does|do|did)\s+\S.*?\s+mean\b`)
	meanRE    = regexp.MustCompile(`(?i)\bmean\b`)
)

// asksMeaning reports whether the question, or the user's turn it is part
// of, asks what something means.
func asksMeaning(in *plugin.ValidateInput, rc plugin.RunContext) bool {
	if meaningRE.MatchString(in.Payload.Prompt) {
		return true
	}
	for i := len(rc.Conversation) - 1; i >= 0; i-- {
		if t := rc.Conversation[i]; t.Role == "user" {
			return meaningRE.MatchString(t.Text)
		}
	}
	return false
}

// exampleLines are the examples of body that cite source n or nothing:
// each description and the command under it (symbolic.EachAnswerExample).
func exampleLines(body string, n int) []string {
	var out []string
	symbolic.EachAnswerExample(body, func(line, command string) {
		if cites := citesOf(line); len(cites) == 0 || slices.Contains(cites, n) {
			out = append(out, stripCites(line), command)
		}
	})
	return out
}

// actsOn reports whether a page's examples (lines: each description and
// its command), its description (desc) or its name (label) carry action,
// or asked (the word as asked, when a spelling correction changed it): a
// description word that is no participle ("stopped", "running" describe
// what is acted on), an option or subcommand of a command (not its name,
// nor what the user fills in), a lexicon relative of one of them, or
// the action or a close relative of it in the name.
func actsOn(action, asked string, lines []string, desc string, label map[string]bool) bool {
	have := symbolic.TermSet(urlRE.ReplaceAllString(desc, " "))
	for _, l := range lines {
		if strings.HasPrefix(l, "`") {
			for t := range symbolic.TermSet(fillInRE.ReplaceAllString(l, " ")) {
				if !label[t] {
					have[t] = true
				}
			}
			continue
		}
		// Brackets inside a word mark its mnemonic letter ("E[x]tract").
		l = strings.NewReplacer("[", "", "]", "").Replace(l)
		words := strings.FieldsFunc(strings.ToLower(l), func(r rune) bool { return !unicode.IsLetter(r) && r != '-' })
		for i, w := range words {
			if (strings.HasSuffix(w, "ed") || strings.HasSuffix(w, "ing")) && !takesObject(words, i) {
				continue
			}
			for _, t := range text.Terms(w) {
				have[t] = true
			}
		}
	}
	for _, a := range []string{action, asked} {
		if a == "" {
			continue
		}
		for t := range have {
			if compound(a, t) {
				return true
			}
		}
		if symbolic.ActionMatch(a, have, true) > 0 || symbolic.ActionMatch(a, label, false) > 0 {
			return true
		}
	}
	return false
}

// takesObject reports whether the participle words[i] is a verb with an
// object, which a determiner opens ("saving the output to a file"), not
// the state of the thing it stands before ("a stopped task").
func takesObject(words []string, i int) bool {
	return i+1 < len(words) && determiners[words[i+1]]
}

// determiners open a noun phrase.
var determiners = wordSet(strings.Fields("the a an all its their this that these those each every your my our"))

// saysAny reports whether body says one of ks, a spelling of it, a
// compound that opens with it, or a close synonym of it.
func saysAny(ks []string, body string, rar symbolic.Rarity) bool {
	terms := symbolic.TermSet(strings.NewReplacer("[", "", "]", "").Replace(body))
	for _, k := range ks {
		if covered(k, terms, rar) || synonymIn(k, terms) {
			return true
		}
	}
	return false
}

// synonymIn reports whether terms hold a close synonym of k in the general
// lexicon ("directory" for "folder").
func synonymIn(k string, terms map[string]bool) bool {
	for _, r := range lexicon.Related(k) {
		if r.Kind == lexicon.Synonym && r.Rank < maxSynonymRank && terms[r.Term] {
			return true
		}
	}
	return false
}

// objectHeads name the thing a task asks its action to be done to: the
// head of the action's object (its last noun before a preposition or a
// conjunction, a participle after it aside: "addresses" of "see the IP
// addresses assigned to ..."), and the head of the form an "as" after it
// gives ("timestamp" of "print the current time as a Unix timestamp"),
// which names the same thing. It is empty when the object is a clause (it
// opens with a question word) or its head is no noun ("delete one").
func objectHeads(task, action string) []string {
	rest, ok := afterWord(task, action)
	if !ok || clauseObjectRE.MatchString(rest) {
		return nil
	}
	if a, _ := symbolic.Action(task); a != action {
		return nil
	}
	head, next, end := phraseHead(strings.Fields(rest))
	if head == "" {
		return nil
	}
	heads := []string{head}
	if end == "as" {
		if h, _, _ := phraseHead(next); h != "" {
			heads = append(heads, h)
		}
	}
	return heads
}

// afterWord is what follows the first word of task whose analysed term is
// action, light actions ("list", "see") included, and whether task has one.
func afterWord(task, action string) (string, bool) {
	for _, loc := range wordRE.FindAllStringIndex(task, -1) {
		if slices.Equal(text.Terms(task[loc[0]:loc[1]]), []string{action}) {
			return task[loc[1]:], true
		}
	}
	return "", false
}

// phraseHead is the last noun (or word the general lexicon does not know,
// a name or a technical term) of the phrase words open with, up to a
// preposition or conjunction (end) or the end of the clause, with the
// words after end.
func phraseHead(words []string) (head string, next []string, end string) {
	next, end = phraseWords(words, `,.;:?!()"'`, false, func(_, term string) {
		if all, _ := lexicon.PartsOfSpeech(term); all == 0 || all&lexicon.Noun != 0 {
			head = term
		} else {
			head = ""
		}
	})
	return head, next, end
}

// phraseWords walks the phrase words open with and calls visit with each
// word that analyses to one task term and is no participle (in -ed or
// -ing): the word lowercased, its marks (trim) taken off, and its term. The phrase ends at a
// preposition or conjunction (phraseEnds: returned as end, with the words
// after it), after a word carrying a clause mark (,;:?!), and, with
// asides, before an opening bracket.
func phraseWords(words []string, trim string, asides bool, visit func(bare, term string)) (next []string, end string) {
	for i, w := range words {
		bare := strings.ToLower(strings.Trim(w, trim))
		if phraseEnds[bare] {
			return words[i+1:], bare
		}
		if asides && strings.HasPrefix(w, "(") {
			break
		}
		if terms := symbolic.TaskTerms(bare); len(terms) == 1 && !strings.HasSuffix(bare, "ed") && !strings.HasSuffix(bare, "ing") {
			visit(bare, terms[0])
		}
		if strings.ContainsAny(w, ",;:?!") {
			break
		}
	}
	return nil, ""
}

// phraseEnds are the prepositions and conjunctions that end a noun phrase.
var phraseEnds = wordSet(strings.Fields("in on into onto from to with without for by as at if when while so that which where who using via over under through across after before until than and or but then of"))

// clauseObjectRE matches an object that is a clause ("how many times each
// line appears", "which jobs are waiting", "whether my account is ...").
var clauseObjectRE = regexp.MustCompile(`(?i)^\s+(?:out\s+)?(?:how|what|which|who|whom|whose|whether|if|when|where|why)\b`)

// fillInRE matches a placeholder of a command the user fills in
// ("{{path/to/file}}"), not a choice of options ("{{[-c|--count]}}").
var fillInRE = regexp.MustCompile(`\{\{[^\[}][^}]*\}\}`)

// firstParagraph is s up to its first blank line.
func firstParagraph(s string) string {
	if i := strings.Index(s, "\n\n"); i >= 0 {
		return s[:i]
	}
	return s
}

// urlRE matches a web address, which names a page, not what it does.
var urlRE = regexp.MustCompile(`<?https?://[^\s>]*>?`)

// corrections maps each term of the query the evidence was retrieved
// for (SearchedFor) that the question does not hold to the question's
// term it replaced: the same word with a letter or two changed, or cut
// short ("exit" for "edit", "clean" for "cleanup").
func corrections(in *plugin.ValidateInput) map[string]string {
	if in.SearchedFor == "" {
		return nil
	}
	asked, searched := symbolic.TermSet(in.Payload.Prompt), symbolic.TermSet(in.SearchedFor)
	out := map[string]string{}
	for k := range searched {
		if asked[k] {
			continue
		}
		for o := range asked {
			if searched[o] || len(o) < 4 || len(k) < 4 {
				continue
			}
			if symbolic.Near(o, k) || strings.HasPrefix(o, k) || strings.HasPrefix(k, o) {
				out[k] = o
				break
			}
		}
	}
	return out
}

// replaced counts the terms of the question that the query the evidence
// was retrieved for (SearchedFor) no longer holds: the words the spelling
// correction changed.
func replaced(in *plugin.ValidateInput) int {
	if in.SearchedFor == "" {
		return 0
	}
	searched, n := symbolic.TermSet(in.SearchedFor), 0
	for t := range symbolic.TermSet(in.Payload.Prompt) {
		if !searched[t] {
			n++
		}
	}
	return n
}

// substitutions are the corrections (searched term to the question's
// term) that replaced a word rather than mended a typing mistake: the word
// as asked is an English word the general lexicon knows and no source of
// the knowledge base holds ("office" read as "offici", of "official"). The
// question asked about that word, which the knowledge base does not cover,
// not about the one retrieval searched for in its place. In a query with
// several words corrected (slips), typed in haste, a word the knowledge base relates
// to only through a broader term it holds is one more slip, as the
// spelling correction takes it ("tets", of the holiday Tet whose
// hypernym "day" the knowledge base holds, read as "test").
func substitutions(corr map[string]string, slips int, rar symbolic.Rarity) map[string]string {
	var out map[string]string
	for k, o := range corr {
		if rar.Known(o) {
			continue
		}
		c, b := retrieval.Relatives(o)
		if len(c)+len(b) == 0 || slips > 1 && looselyTied(c, b, rar) {
			continue
		}
		if out == nil {
			out = map[string]string{}
		}
		out[k] = o
	}
	return out
}

// looselyTied reports whether the knowledge base holds none of a word's
// close relatives and one of its broader ones.
func looselyTied(close, broader []string, rar symbolic.Rarity) bool {
	return !slices.ContainsFunc(close, rar.Known) && slices.ContainsFunc(broader, rar.Known)
}

// coverPageValues covers, in cover and in the cover of each cited unit, a
// number the question gives (isLiteralValue) that the whole page of that
// unit holds: a figure is a fact of one page ("400 bytes per request" of
// a benchmark table), and a page that holds it is about what the question
// quotes, though the passage the answer quotes gives the figure's reason
// rather than the figure.
func coverPageValues(targets []string, cover map[string]bool, units map[int]map[string]bool, cited map[int]*kus.KU, rc plugin.RunContext) {
	if rc.Corpus == nil {
		return
	}
	var values []string
	for _, t := range targets {
		for _, k := range keyTerms(t) {
			if isLiteralValue(k) && !cover[k] {
				values = append(values, k)
			}
		}
	}
	if len(values) == 0 {
		return
	}
	pages := pageTermSets(cited, rc)
	for n, k := range cited {
		page := pages[k.SourceID]
		for _, v := range values {
			if page[v] {
				cover[v] = true
				if u := units[n]; u != nil {
					u[v] = true
				}
			}
		}
	}
}

// isLiteralValue reports whether term is a number or numbers joined by
// dots or colons (an address: "8.8.8.8", "127.0.0.1:8080").
func isLiteralValue(term string) bool {
	return literalValueRE.MatchString(term)
}

var literalValueRE = regexp.MustCompile(`^\d+(?:[.:]\d+)*$`)

// isNumber reports whether term is made of digits only.
func isNumber(term string) bool {
	for _, r := range term {
		if r < '0' || r > '9' {
			return false
		}
	}
	return term != ""
}

// credit adds to set each correction whose word as asked set covers.
func credit(set map[string]bool, corr map[string]string) {
	for k, o := range corr {
		if covered(o, set, symbolic.Rarity{}) {
			set[k] = true
		}
	}
}

// saysRelative reports whether said holds a close relative of key term k
// (a synonym or a derived form the general lexicon gives for it).
func saysRelative(k string, said map[string]bool) bool {
	for _, r := range lexicon.Related(k) {
		if r.Kind == lexicon.Synonym && r.Rank < maxSynonymRank && len(r.Term) >= 4 && said[r.Term] {
			return true
		}
	}
	return false
}

// relativeMark marks, in a cover set, a key term covered by a relative
// (saysRelative), which counts for relativeShare of its weight: a synonym
// of one sense of a word says less than the word.
const (
	relativeMark  = "~"
	relativeShare = 0.5
)

// judgedMark marks, in a cover set, the verb of a how-to that the action
// check judges: uncovered, it counts for modifierShare of its weight.
const judgedMark = "!"

// maxSynonymRank is how many of a word's synonyms, from its most frequent
// senses first, may stand in for it.
const maxSynonymRank = 8

// labelTerms are the terms of a unit's title and source path.
func labelTerms(k *kus.KU) map[string]bool {
	out := symbolic.TermSet(k.Title + " " + pathWords(k.SourceID))
	maps.Copy(out, initialisms(k.Title))
	return out
}

// unitCovers gives, per cited source, the terms of what the answer says
// from it (unitTexts), with its title and path.
func unitCovers(stmts []statement, cited map[int]*kus.KU) map[int]map[string]bool {
	units := map[int]map[string]bool{}
	for n, texts := range unitTexts(stmts, cited) {
		units[n] = labelTerms(cited[n])
		said := strings.Join(texts, "\n")
		maps.Copy(units[n], symbolic.TermSet(said))
		maps.Copy(units[n], callTerms(said))
		maps.Copy(units[n], initialisms(said))
	}
	return units
}

// sectionCovers merges the covers of units (unitCovers) cut from one
// section: the reader splits a long section into several units under the
// section's own, and what the answer says from each of them is said from
// that one section. The merged cover stands at the lowest number of them.
func sectionCovers(units map[int]map[string]bool, cited map[int]*kus.KU) map[int]map[string]bool {
	first := map[string]int{}
	for _, n := range slices.Sorted(maps.Keys(units)) {
		if key := sectionKey(cited[n]); key != "" {
			if _, ok := first[key]; !ok {
				first[key] = n
			}
		}
	}
	out := map[int]map[string]bool{}
	for n, u := range units {
		at := n
		if key := sectionKey(cited[n]); key != "" {
			at = first[key]
		}
		if out[at] == nil {
			out[at] = map[string]bool{}
		}
		maps.Copy(out[at], u)
	}
	return out
}

// sectionKey names the section unit k was cut from: its parent and title
// (the parts of one long section share both), or "" for a unit with no
// parent.
func sectionKey(k *kus.KU) string {
	if k == nil || len(k.ParentUnitIDs) == 0 {
		return ""
	}
	return k.SourceID + "\x00" + k.ParentUnitIDs[0] + "\x00" + k.Title
}

// callRE matches the name of a function or method called in code
// ("OldestItem" of "q.OldestItem()").
var callRE = regexp.MustCompile(`[A-Za-z][A-Za-z0-9]*\(`)

// apiNameRE matches a name code takes from an API rather than gives
// itself: one in Pascal case (an exported type, field or constant:
// "ReadTimeout" of "ReadTimeout: 10 * time.Second") or one selected from
// a value or package ("cfg.maxAge").
var apiNameRE = regexp.MustCompile(`\b[A-Z][A-Za-z0-9]*|\.[a-z][A-Za-z0-9]*`)

// callTerms are the words of the functions and methods s calls and of
// the API names it uses, named in camel or Pascal case: code names a call
// after what it does ("q.OldestItem()" gets the oldest item) and a field
// or setting after what it holds ("ReadTimeout" is the read timeout). A
// name the code gives itself, a variable or parameter ("handlerName"),
// says what the example holds, not what it shows, and does not count.
func callTerms(s string) map[string]bool {
	names := append(callRE.FindAllString(s, -1), apiNameRE.FindAllString(s, -1)...)
	return symbolic.IdentTerms(strings.Join(names, " "))
}

// unitTexts gives, per cited source, what the answer says from it. An
// uncited statement belongs to the citation that closes it (the next one),
// or, after a lead-in citation ("Title [1]: ..."), to that one; one that
// belongs to none counts for every unit. The uncited rows and code lines
// after a lead-in citation are the block it opens, and belong to it even
// when a sentence with a citation of its own follows the block.
func unitTexts(stmts []statement, cited map[int]*kus.KU) map[int][]string {
	units := map[int][]string{}
	add := func(cites []int, texts ...string) {
		for _, n := range cites {
			if cited[n] != nil {
				units[n] = append(units[n], texts...)
			}
		}
	}
	var pending, shared []string
	var lead []int
	for _, s := range stmts {
		switch {
		case len(s.cites) == 0 && (s.row || s.code) && lead != nil:
			// The rows of a table and the lines of code a lead-in
			// citation opens ("... trace code [1]:" over its table) are
			// that source's, though a cited sentence follows them.
			add(lead, s.text)
		case len(s.cites) == 0:
			pending = append(pending, s.text)
		case s.lead:
			if lead != nil {
				add(lead, pending...)
			} else {
				shared = append(shared, pending...)
			}
			pending, lead = nil, s.cites
			add(s.cites, s.text)
		default:
			add(s.cites, append(pending, s.text)...)
			pending = nil
		}
	}
	if lead != nil {
		add(lead, pending...)
	} else {
		shared = append(shared, pending...)
	}
	for n := range units {
		units[n] = append(units[n], shared...)
	}
	return units
}

// keyToken is a key term of a question with the number of the key word it
// belongs to, counting only key words; the parts of a compound share the
// compound's number.
type keyToken struct {
	term string
	pos  int
}

// keyTokens are the distinct key terms of target with their positions:
// its content terms and, when task is set, the words that name an action
// ("list", "show"), without filler. A "why" question asks for a reason,
// not an action: its "use" in "why would I use nohup" names nothing.
func keyTokens(target string, task bool) []keyToken {
	terms := symbolic.ContentTerms
	if task {
		terms = symbolic.TaskTerms
	}
	content := map[string]bool{}
	for _, k := range terms(target) {
		if !filler[k] {
			content[k] = true
		}
	}
	var out []keyToken
	seen := map[string]bool{}
	last, word := -1, -1
	text.English().Each(target, func(t text.Token) {
		if content[t.Term] && !seen[t.Term] {
			seen[t.Term] = true
			if t.Pos != last {
				last, word = t.Pos, word+1
			}
			out = append(out, keyToken{t.Term, word})
		}
	})
	return out
}

// together reports whether the key words of target stand together in what
// the answer says from unit k (said) or in k itself: two neighbouring ones
// (next to each other once stop words and generic words are left out:
// "long command", "short name") in one sentence, or one in k's title or
// path (k is about it) and another anywhere in its text. A target of fewer
// than two key words passes.
func together(target string, k *kus.KU, said []string, rc plugin.RunContext, task bool) bool {
	key := keyTokens(target, task)
	// A modifier (modifiers) stands between the words it describes and
	// the rest: "log" and "chunks" are neighbours in "a tremendous log
	// into bigger chunks".
	if mods := modifiers(target); len(mods) > 0 {
		var kept []keyToken
		gone := map[int]bool{}
		for _, t := range key {
			if mods[t.term] {
				gone[t.pos] = true
				continue
			}
			kept = append(kept, t)
		}
		for i, t := range kept {
			for p := range gone {
				if p < t.pos {
					kept[i].pos--
				}
			}
		}
		key = kept
	}
	words := map[int]bool{}
	for _, t := range key {
		words[t.pos] = true
	}
	if len(words) < 2 {
		return true
	}
	// match gives the key words a term of the evidence stands for: the
	// same term, or a near spelling of a long one.
	match := func(term string) []int {
		var out []int
		for _, t := range key {
			if t.term == term || (len(t.term) >= 5 && symbolic.Near(t.term, term)) {
				out = append(out, t.pos)
			}
		}
		return out
	}
	label := map[int]bool{}
	for t := range labelTerms(k) {
		for _, w := range match(t) {
			label[w] = true
		}
	}
	if len(label) > 1 {
		return true
	}
	// One sentence of the unit holds two neighbouring key words, or a key
	// word its title and path do not hold when they hold one, or an
	// identifier the target names (identifiers).
	names := identifiers(target)
	all := strings.Join(said, "\n") + "\n" + citedText([]*kus.KU{k}, rc)
	for _, line := range strings.Split(all, "\n") {
		for _, sent := range symbolic.Sentences(line) {
			at, named := map[int]bool{}, false
			text.English().Each(sent, func(t text.Token) {
				named = named || names[t.Term]
				for _, w := range match(t.Term) {
					at[w] = true
				}
			})
			if named {
				return true
			}
			for w := range at {
				if at[w+1] || (len(label) > 0 && !label[w]) {
					return true
				}
			}
		}
	}
	return false
}

// identifierRE matches an identifier as code writes it: words joined by
// underscores ("outside_workspace"), a word with a capital inside after
// its first ("luksDump", "GetClientIP"), or a name qualified by its package
// ("test.NewLocal"). A name that opens with a capital is an identifier
// only when its first word is a verb, as a function's name is
// ("GetClientIP", "SetHeader"), or "New", a constructor's (codeName):
// "GitHub" and "JavaScript" are names of products.
var identifierRE = regexp.MustCompile(`\b[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]*[A-Za-z0-9]\b|\b[a-z]+[A-Z][A-Za-z0-9]*\b|\b[a-z][a-z0-9]*\.[A-Z][A-Za-z0-9]*\b|\b[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*\b`)

// pascalRE matches a name written with capitals at its first word and
// inside ("GetClientIP", "GitHub"), its first word in group 1.
var pascalRE = regexp.MustCompile(`^([A-Z][a-z0-9]+)[A-Z]`)

// identifiers are the terms of the identifiers target names
// (identifierRE). An identifier names one thing of one program, so a
// sentence that says it is about that thing, whatever word of kind the
// question puts beside it ("the outside_workspace warning").
func identifiers(target string) map[string]bool {
	out := map[string]bool{}
	for _, m := range identifierRE.FindAllString(target, -1) {
		// A qualified name is named by its own part, not its package's.
		if at := strings.LastIndexByte(m, '.'); at >= 0 {
			m = m[at+1:]
		} else if !codeName(m) {
			continue
		}
		if t := text.Terms(m); len(t) > 0 {
			out[t[0]] = true
		}
	}
	return out
}

// codeName reports whether a name that opens with a capital and has
// another inside reads as code: its first word is a verb or "New"
// (identifierRE). Other names (lower-case first, underscores) always do.
func codeName(m string) bool {
	p := pascalRE.FindStringSubmatch(m)
	if p == nil {
		return true
	}
	if p[1] == "New" {
		return true
	}
	t := text.Terms(p[1])
	if len(t) != 1 {
		return false
	}
	_, main := lexicon.PartsOfSpeech(t[0])
	return main&lexicon.Verb != 0
}

// several reports whether target names several things ("kb-fast and
// kb-thinkingdb", "scp or rsync"), each of which may have its own source.
func several(target string) bool {
	for _, w := range strings.Fields(strings.ToLower(target)) {
		switch strings.Trim(w, ",;:?!.") {
		case "and", "or", "vs", "versus":
			return true
		}
	}
	return false
}

// defines reports whether the task asks what something is. "What's the
// way to X?" asks how to X (wayRE), whatever act the intents give it.
func defines(in *plugin.ValidateInput) bool {
	if wayRE.MatchString(in.Payload.Prompt) || reactionRE.MatchString(in.Payload.Prompt) {
		return false
	}
	for _, it := range in.Intents {
		if it.Act != "define" {
			return false
		}
	}
	return len(in.Intents) > 0 || symbolic.ActOf(in.Payload.Prompt) == "define"
}

// wayRE matches a question that asks for the way to do something in the
// form of a what-question ("What's the way to ...", "What is the best way
// to ...", "What command do I use to ...").
var wayRE = regexp.MustCompile(`(?i)^\W*what(?:'s|’s|\s+is)\s+(?:the|a|an)\s+(?:\w+\s+)?(?:way|command|method)\s+(?:to|for)\b|^\W*what\s+(?:command|tool)\s+do\s+i\s+use\s+to\b`)

// reactionRE matches a question that asks what something does in a
// situation ("What does the VM do when a validator rejects an answer?"):
// it asks how it behaves then, not what it is, and the source that says
// so is about the situation.
var reactionRE = regexp.MustCompile(`(?i)^\W*what\s+(?:does|do|did|will|would)\s+.+?\s+do\s+(?:when|whenever|if|once|after|while|on)\s`)

// rarest is the key term of target that is rarest in the knowledge base
// ("" when it has none).
func rarest(target string, rar symbolic.Rarity) string {
	best, bestW := "", -1.0
	for _, t := range keyTokens(target, true) {
		if w := rar.Weight(t.term); w > bestW {
			best, bestW = t.term, w
		}
	}
	return best
}

// about reports whether unit k is about term w: w (or a near spelling of
// it) is in k's title or path, or in the first sentence of what the
// answer says from k (said) or of k's own text, or code in k declares a
// type or function of that name ("type Finder interface" is where a
// Finder is defined, wherever it stands in the unit).
func about(w string, k *kus.KU, said []string, rar symbolic.Rarity) bool {
	if covered(w, labelTerms(k), rar) {
		return true
	}
	for _, m := range declarationRE.FindAllStringSubmatch(k.Text()+"\n"+k.TextBody, -1) {
		if slices.Equal(text.Terms(m[1]), []string{w}) {
			return true
		}
	}
	first := func(s string) string {
		for _, line := range strings.Split(s, "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "|") {
				return line // a table's row is one statement, whatever its cells' punctuation
			}
			if sents := symbolic.Sentences(line); len(sents) > 0 && strings.TrimSpace(sents[0]) != "" {
				return sents[0]
			}
		}
		return ""
	}
	for _, s := range []string{first(strings.Join(said, "\n")), first(k.Text())} {
		if covered(w, symbolic.TermSet(s), rar) {
			return true
		}
	}
	return keysRow(w, said, rar)
}

// keysRow reports whether a table row among said opens with w: its first
// cell names what the row says of it ("| hostrouter | Domain/host based
// request routing |"), as a glossary's entry names its word, so the row is
// about w wherever it stands in the table. A cell that holds nothing but w
// as code ("| `NO_KNOWN_TERMS` |") names the row's entry too, in whichever
// column it stands: a table of codes, flags or names keeps them in a
// column of their own, and each row is the entry of its one.
func keysRow(w string, said []string, rar symbolic.Rarity) bool {
	for _, line := range strings.Split(strings.Join(said, "\n"), "\n") {
		cells := strings.Split(strings.Trim(strings.TrimSpace(line), "|"), "|")
		if !strings.HasPrefix(strings.TrimSpace(line), "|") || len(cells) < 2 {
			continue
		}
		if covered(w, symbolic.TermSet(cells[0]), rar) || slices.ContainsFunc(cells, func(c string) bool { return codeCell(w, c) }) {
			return true
		}
	}
	return false
}

// codeCellRE matches a table cell that is one code span, its text in
// group 1.
var codeCellRE = regexp.MustCompile("^\\s*`([^`]+)`\\s*$")

// codeCell reports whether cell is one code span of one word whose term
// is w (an identifier's term is its whole: "no_known_terms").
func codeCell(w, cell string) bool {
	m := codeCellRE.FindStringSubmatch(cell)
	if m == nil || len(strings.Fields(m[1])) != 1 {
		return false
	}
	t := text.Terms(m[1])
	return len(t) > 0 && t[0] == w
}

// declarationRE matches the declaration of a named type or function in
// code (Go, C-like, Python, Rust, TypeScript), the name following the
// keyword and, for a Go method, its receiver.
var declarationRE = regexp.MustCompile(`(?m)(?:^|[\s;{])(?:type|func|class|interface|struct|enum|trait|def|fn)\s+(?:\([^)]*\)\s*)?([A-Za-z_][A-Za-z0-9_]*)`)

// leadUnit is the source the answer leads with: the lowest source number
// it cites, else its first evidence unit.
func leadUnit(stmts []statement, cited map[int]*kus.KU) (int, *kus.KU) {
	lead := 0
	for _, s := range stmts {
		for _, n := range s.cites {
			if cited[n] != nil && (lead == 0 || n < lead) {
				lead = n
			}
		}
	}
	if lead == 0 {
		for n := range cited {
			if lead == 0 || n < lead {
				lead = n
			}
		}
	}
	return lead, cited[lead]
}

// comparison reports whether the task compares things.
func comparison(in *plugin.ValidateInput) bool {
	for _, it := range in.Intents {
		if it.Act == "compare" {
			return true
		}
	}
	return len(in.Intents) == 0 && symbolic.ActOf(in.Payload.Prompt) == "compare"
}

// spanText is the Markdown of k's span in its source, or "" when the
// corpus does not hold it.
func spanText(k *kus.KU, rc plugin.RunContext) string {
	if k == nil || rc.Corpus == nil {
		return ""
	}
	src := rc.Corpus.SourceText(k.SourceID)
	if k.CharEnd > k.CharStart && k.CharStart >= 0 && k.CharEnd <= len(src) {
		return string(src[k.CharStart:k.CharEnd])
	}
	return ""
}

// keyCoverage is the share of target's key terms, each weighed by its
// rarity, that cover holds (or a near spelling of), and the rarest term
// it misses; 1 when target has no key term. A word no source holds has no
// measured rarity: it weighs as the most common of the known key terms,
// so it still counts (a question about a thing the knowledge base lacks
// is not answered by a page about the rest of it) without outweighing
// the words a passage can be judged on.
//
// swap maps a term of target to the word the question asked in its place
// (substitutions): that word counts instead, with the weight of the term
// it stands in for, and only the word itself covers it.
func keyCoverage(target string, cover map[string]bool, rar symbolic.Rarity, swap map[string]string) (float64, string) {
	var terms []string
	lightest := -1.0
	swapped := map[string]float64{}
	for _, k := range keyTerms(target) {
		if filler[k] {
			continue
		}
		if o, ok := swap[k]; ok {
			swapped[o] = rar.Weight(k)
			k = o
		}
		terms = append(terms, k)
		if rar.Known(k) {
			if w := rar.Weight(k); lightest < 0 || w < lightest {
				lightest = w
			}
		}
	}
	mods, heads := modifiers(target), compoundHeads(target)
	for k := range participles(target) {
		mods = withTerm(mods, k)
	}
	if w := symbolic.WeakAction(target); w != "" {
		// A weak verb ("put" of "put two lists side by side")
		// names no action of its own: its object says what to do, which
		// pages say with a verb of their own ("merge").
		if mods == nil {
			mods = map[string]bool{}
		}
		mods[w] = true
	}
	got, total, worst, worstW := 0.0, 0.0, "", 0.0
	discounted, discountedW := "", 0.0 // the heaviest discounted term missed
	for _, k := range terms {
		w := rar.Weight(k)
		sw, isSwapped := swapped[k]
		switch {
		case isSwapped:
			w = sw
		case lightest >= 0 && !rar.Known(k):
			w = lightest
		}
		switch {
		case cover[k] || (!isSwapped && covered(k, cover, rar)):
			total += w
			got += w
		case cover[relativeMark+k]:
			total += w
			got += w * relativeShare
		case mods[k] || polysemous(k) || cover[judgedMark+k] || (heads[k] != "" && (cover[heads[k]] || covered(heads[k], cover, rar))):
			total += w * modifierShare
			if w > discountedW {
				discounted, discountedW = k, w
			}
		default:
			total += w
			if w > worstW {
				worst, worstW = k, w
			}
		}
	}
	if total == 0 {
		return 1, ""
	}
	if worst == "" {
		// Only discounted terms are missed: the heaviest of them is what
		// the answer leaves out.
		worst = discounted
	}
	return got / total, worst
}

// modifierShare is the share of its weight a modifier (modifiers), the
// head of a compound whose modifier is covered (compoundHeads), or a
// word of very many senses (polysemous), the answer does not cover counts
// against it.
const modifierShare = 0.5

// manySenses is how many senses, over its parts of speech, the general
// lexicon gives a word that names a different thing in each of many
// contexts: the few dozen most ambiguous English words ("cut", "break",
// "run", "make", "take", "turn").
const manySenses = 40

// polysemous reports whether key term k is a word of very many senses
// (manySenses). Its rarity in the knowledge base says how seldom pages use
// it, not how much it says: a page that does what it asks in one of its
// senses names that sense with a word of its own ("convert" for "turn
// tabs into spaces", "loss" for "a power cut"), so left out it costs
// half its weight, as a modifier does. Said, it counts in full. The weak
// verbs a task may open with (symbolic.WeakAction) are a hand-picked few
// of these and some others.
func polysemous(k string) bool {
	return lexicon.Senses(k) >= manySenses
}

// modifiers are the terms of target that only describe the word after
// them: a word the general lexicon knows only as an adjective (or
// adverb), directly before a key word with a noun sense or none the
// lexicon knows, with no word between ("a tremendous log", "bigger chunks";
// not "next" of "next to each line"). A page names the thing it acts on,
// seldom how big or old the user's one is, so a modifier the answer
// leaves out costs half its weight; a rare one would otherwise outweigh
// the words of the action and its object.
func modifiers(target string) map[string]bool {
	content := askedWords(target)
	words := rawWordRE.FindAllString(target, -1)
	var out map[string]bool
	for i := 0; i+1 < len(words); i++ {
		t, next := text.Terms(words[i]), text.Terms(words[i+1])
		if len(t) != 1 || len(next) == 0 || !content[t[0]] || !content[next[0]] {
			continue
		}
		all, _ := lexicon.PartsOfSpeech(t[0])
		if all == 0 || all&(lexicon.Noun|lexicon.Verb) != 0 {
			continue
		}
		if nounLike(next[0]) {
			out = withTerm(out, t[0])
		}
	}
	return out
}

// adverbFree is a follow-up's own words without those the general
// lexicon knows only as adverbs ("and how do I unmount it afterwards?",
// "already", "almost"): in a question completed with the topic of the
// turn before, such a word ties it to that turn (when the user does it,
// relative to what they did), and names nothing a page that does it
// says. A word with a sense of another part of speech ("later",
// "together") may name what is asked and is kept.
func adverbFree(asked string) string {
	return rawWordRE.ReplaceAllStringFunc(asked, func(w string) string {
		t := text.Terms(w)
		if len(t) != 1 {
			return w
		}
		if all, _ := lexicon.PartsOfSpeech(t[0]); all == lexicon.Adverb {
			return ""
		}
		return w
	})
}

// nounLike reports whether the general lexicon knows term as a noun, or
// does not know it (a name).
func nounLike(term string) bool {
	all, _ := lexicon.PartsOfSpeech(term)
	return all == 0 || all&lexicon.Noun != 0
}

// withTerm adds t to set, making the set when it is nil.
func withTerm(set map[string]bool, t string) map[string]bool {
	if set == nil {
		set = map[string]bool{}
	}
	set[t] = true
	return set
}

// participles are the terms of target that are past participles used as
// adjectives: a word in "-ed" the general lexicon knows as a verb, right
// after a determiner and before a word with a noun sense ("my downloaded
// files", "the installed packages"). Between the determiner and its noun
// it says which of the things the user means, as a modifier does
// (modifiers), and counts as one in the coverage: left out by the
// answer, half its weight. The check of words that stand together
// (together) keeps it, as the state of the thing the answer acts on ("a
// stopped container").
func participles(target string) map[string]bool {
	content := askedWords(target)
	words := rawWordRE.FindAllString(target, -1)
	var out map[string]bool
	for i := 1; i+1 < len(words); i++ {
		w := strings.ToLower(words[i])
		if !determiners[strings.ToLower(words[i-1])] || !strings.HasSuffix(w, "ed") {
			continue
		}
		t, next := text.Terms(w), text.Terms(words[i+1])
		if len(t) != 1 || len(next) == 0 || !content[t[0]] || !lexicon.HasVerbSense(t[0]) {
			continue
		}
		if nounLike(next[0]) {
			out = withTerm(out, t[0])
		}
	}
	return out
}

// compoundHeads maps the head of each noun compound of target to the noun
// that modifies it ("script" to "exampl" in "example scripts"): a word
// the general lexicon knows mainly as a noun (or as much as another part
// of speech: "retrieval quality") or a name (nameTerm), not the task's
// verb, right before one it knows mainly as a noun. The modifier says which thing is asked; the
// head names only its kind, which pages often leave to the modifier ("toolx
// examples" for the example scripts), so a head the answer leaves out
// while it covers the modifier costs half its weight.
func compoundHeads(target string) map[string]string {
	content := askedWords(target)
	noun := func(t []string, mainly bool) bool {
		if len(t) != 1 || !content[t[0]] {
			return false
		}
		_, main := lexicon.PartsOfSpeech(t[0])
		if mainly {
			return main == lexicon.Noun
		}
		return main&lexicon.Noun != 0
	}
	action := verbAction(target)
	words := rawWordRE.FindAllString(target, -1)
	var out map[string]string
	for i := 0; i+1 < len(words); i++ {
		h := text.Terms(words[i+1])
		m, ok := nameTerm(words[i], content)
		if t := text.Terms(words[i]); !ok && noun(t, false) {
			m, ok = t[0], true
		}
		if !ok || !noun(h, true) || m == h[0] || m == action {
			continue
		}
		if out == nil {
			out = map[string]string{}
		}
		out[h[0]] = m
	}
	return out
}

// nameTerm is the term by which word, a name, modifies the noun after it
// ("cli" of "my urfave/cli program", "mux" of "a gorilla/mux handler"): a
// word of several terms (a package path, a dotted or hyphenated name) or
// one the general lexicon does not know, as it knows few names of tools
// and libraries. Such a name says whose thing the noun is, as a noun
// modifier does.
func nameTerm(word string, content map[string]bool) (string, bool) {
	t := text.Terms(word)
	if len(t) == 0 {
		return "", false
	}
	last := t[len(t)-1]
	if all, _ := lexicon.PartsOfSpeech(last); (all != 0 && len(t) == 1) || !content[last] {
		return "", false
	}
	return last, true
}

// askedWords reports, for each content term of target, whether it is a
// word the question asks about (not filler).
func askedWords(target string) map[string]bool {
	out := map[string]bool{}
	for _, k := range symbolic.ContentTerms(target) {
		out[k] = !filler[k]
	}
	return out
}

// rawWordRE matches a word as written, stop words included.
var rawWordRE = regexp.MustCompile(`[\p{L}\p{N}][\p{L}\p{N}'’._/+-]*`)

// keyTerms are the content terms of target without the particles of its
// action (see particles); without a verb of prevention whose gerund names
// what is kept from happening ("stop" of "stop web from logging
// requests"): such a task asks how not to do the gerund's action, which
// pages say as an option of that action ("skip logging", "disable
// wrapping") and rarely with the hindering verb (see verbAction); without
// a verb that gives its object a state (labels) and without a noun that
// names the action again (restates).
func keyTerms(target string) []string {
	var out []string
	action, _ := symbolic.Action(target)
	hindered := action != "" && hinders(action) && verbAction(target) != action
	labelling := action != "" && labels(target, action)
	for _, k := range symbolic.ContentTerms(target) {
		if action != "" && action != k && particles[k] {
			continue // "back" of "write it back": part of the verb
		}
		if (hindered || labelling) && k == action {
			continue
		}
		if action != "" && k != action && restates(k, action) {
			continue
		}
		out = append(out, k)
	}
	return out
}

// askedTerms are the key terms of target (keyTerms) an answer must
// mention: a word the knowledge base holds nowhere ("disk" over
// documentation that never says it) is in no passage, right or wrong, so
// no answer can mention it and it is left out. When no word of target is
// known, all of them stay: a question made only of words the knowledge
// base never uses is not answered by it.
func askedTerms(target string, rar symbolic.Rarity) []string {
	all := keyTerms(target)
	var known []string
	for _, k := range all {
		if rar.Known(k) {
			known = append(known, k)
		}
	}
	if len(known) == 0 {
		return all
	}
	return known
}

// particles complete a how-to's verb after its object ("write it back",
// "put it away"): they are part of the action, which pages name with the
// verb alone ("writes the current configuration"), not a thing asked
// about. The other particles ("up", "down", "out") are stop words already.
var particles = wordSet(text.Terms("back away"))

// filler are words of a question that name nothing it asks about.
var filler = wordSet(symbolic.ContentTerms("can may might must shall will need want like please get got able possible my mine much many whose come " +
	"inside within without between into onto upon about across along after before during via per again just only really actually besides else vs versus " +
	"unless although though because whether beyond despite throughout whereas toward towards among amongst"))

// asksWhy reports whether the question asks for a reason: it opens with
// "why" (the intents say "explain" for "how does" too).
func asksWhy(in *plugin.ValidateInput) bool {
	f := strings.Fields(strings.ToLower(in.Payload.Prompt))
	return len(f) > 0 && strings.Trim(f[0], ",.;:?!") == "why"
}

// circumstanceRE finds the clause of a question that states the
// circumstance it is asked in: a subordinating word of time or condition,
// or a concessive one ("even though something went wrong"), and what
// follows.
var circumstanceRE = regexp.MustCompile(`(?i)\s+(?:when|whenever|while|if|once|after|before|unless|although|(?:even\s+)?though|even\s+if)\s+\S.*$`)

// contrastRE finds the clause of a "why" question that names the
// alternative the user expected ("instead of streaming it", "rather than
// squashed") and what follows: the question asks the reason for what
// happens, which a reason need not set against the alternative.
var contrastRE = regexp.MustCompile(`(?i)[\s,]+(?:instead\s+of|rather\s+than)\s+\S.*$`)

// whyAsked is what a "why" target asks about without the circumstance
// clause closing it ("would I use nohup" of "would I use nohup when
// starting a long job") and without the alternative it is contrasted
// with (contrastRE); target itself when it has no such clause or
// nothing would remain of it but filler.
func whyAsked(target string) string {
	cut := -1
	for _, re := range []*regexp.Regexp{circumstanceRE, contrastRE} {
		if loc := re.FindStringIndex(target); loc != nil && (cut < 0 || loc[0] < cut) {
			cut = loc[0]
		}
	}
	if cut < 0 {
		return target
	}
	asked := target[:cut]
	for _, k := range symbolic.ContentTerms(asked) {
		if !filler[k] {
			return asked
		}
	}
	return target
}

// happensRE finds the frame of a question that asks what follows from a
// condition or an act ("what happens if my config is invalid", "what
// happens to the units of a deleted file"): the answer says what follows,
// rarely that it "happens".
var happensRE = regexp.MustCompile(`(?i)\bwhat\s+(?:happens|will\s+happen|would\s+happen|happened)\s+(if|when|to|after|once)\b`)

// happensFree is target without the frame happensRE finds.
func happensFree(target string) string { return happensRE.ReplaceAllString(target, "$1") }

// domainFree is target without the noun domainRE finds.
func domainFree(target string) string { return domainRE.ReplaceAllString(target, "$1") }

// domainRE finds a field of activity named as a world ("in the
// Kubernetes tooling world", "in the go-chi ecosystem"): the noun only
// says that what comes before it is a field, in which the question is
// asked. "space" is left out: "user space" and "disk space" are things.
var domainRE = regexp.MustCompile(`(?i)\b(in\s+the\s+(?:[\w./-]+\s+){1,3})(?:world|ecosystem|universe|realm|landscape)\b`)

// classifierRE finds a classifier noun that asks for classes of what
// follows it ("what kinds of", "which sort of"): a question word or a
// quantifier (or the start of a target, which the question word opened),
// the noun and "of".
var classifierRE = regexp.MustCompile(`(?i)(^\s*|\b(?:what|which|all|many|different|other|any)\s+)(?:kinds?|sorts?|types?)\s+of\s+(\w+)`)

// avoidFree is a how-to's target without the clauses naming an action the
// user avoids ("empty a log file without deleting it", text.Avoided): they
// constrain the answer, which need not say what the user will not do. The
// words of such a clause that the answer says (its terms in said) stay
// asked: an answer that speaks of that action speaks of the same thing as
// the question.
func avoidFree(target string, said map[string]bool) string {
	sought, avoided := text.Avoided(target)
	if avoided == "" {
		return target
	}
	kept := []string{sought}
	for _, w := range strings.Fields(avoided) {
		terms := symbolic.ContentTerms(w)
		if len(terms) == 0 {
			continue
		}
		if !slices.ContainsFunc(terms, func(t string) bool { return !said[t] }) {
			kept = append(kept, w)
		}
	}
	return strings.Join(kept, " ")
}

// classifierFree is target without a classifier noun (classifierRE) whose
// "of" is followed by a generic word only: "kinds of things" asks nothing
// beyond the rest of the target, while "kinds of files" asks about the
// kinds.
func classifierFree(target string) string {
	return classifierRE.ReplaceAllStringFunc(target, func(m string) string {
		sub := classifierRE.FindStringSubmatch(m)
		if len(symbolic.ContentTerms(sub[2])) > 0 {
			return m
		}
		return sub[1] + sub[2]
	})
}

// combiningRE matches a combining form that makes a word a likeness
// ("$HOME-style", "git-like"), with the letter before it.
var combiningRE = regexp.MustCompile(`(?i)(\w)-(?:style|like)\b`)

// contactRE matches a contact clause closing a target or a part of it: a
// noun of one or two words with its article, a subject pronoun, the
// clause's verb and a place it may name ("the reason it gave", "the file
// name it has on the server"), which says no more of the noun than that
// it has one.
var contactRE = regexp.MustCompile(`(?i)\b(the\s+[a-z]+(?:\s+[a-z]+)?)\s+(?:i|we|you|it|they|he|she)\s+[a-z]+(?:\s+(?:on|in|at|from|under|inside)\s+(?:the\s+|a\s+|an\s+|my\s+|its\s+|their\s+|your\s+)?[\w./-]+)?(\s*(?:$|[(,;?]))`)

// occasionRE finds a clause of a how-to that says when the user does what
// it asks: a subordinating word of time or order and a subject pronoun
// (contracted with its verb too: "when I'm done"), up to a completed
// follow-up's parenthesised topic or the end.
var occasionRE = regexp.MustCompile(`(?i)[\s,]+(?:when|whenever|while|once|after|before|until|as|(?:the\s+next|next|every|each)\s+time)\s+(?:i|we|you|it|they|he|she)(?:['’](?:m|re|s|ve|d|ll))?\s[^()]*`)

// semiModalRE matches a verb phrase that works as a modal verb ("is
// supposed to", "ought to", "is going to"): its words say what should or
// will happen, as "should" and "will" do, and name nothing asked.
var semiModalRE = regexp.MustCompile(`(?i)\b(?:supposed|ought|going)\s+to\b`)

// semiModalFree is target without its semi-modals (semiModalRE).
func semiModalFree(target string) string {
	return strings.Join(strings.Fields(semiModalRE.ReplaceAllString(target, " ")), " ")
}

// reasonRE finds a clause of a question that gives the user's reason for
// asking ("because {{ }} clashes with vue"): "because" and what follows,
// up to a completed follow-up's parenthesised topic or the end.
var reasonRE = regexp.MustCompile(`(?i)[\s,]+because\s+[^()]*`)

// givenExampleRE finds an example the question gives of what it asks
// about ("for example a password kept under /etc", "such as the user
// id"): the phrase that introduces it and what follows, up to a comma, a
// parenthesis or a question mark.
var givenExampleRE = regexp.MustCompile(`(?i)[\s,]+(?:for\s+example|for\s+instance|such\s+as|e\.g\.)[\s,]+[^,()?]*`)

// limitRE finds a limit the question sets: a comparative, "than" (or its
// common misspelling "then" after a comparative) and the value, with its
// article ("more than a quarter", "wider than 40", "longer then 4096").
var limitRE = regexp.MustCompile(`(?i)\b(?:more|less|fewer|longer|shorter|wider|narrower|bigger|larger|smaller|higher|lower|older|newer)\s+th[ae]n\s+(?:a\s+|an\s+|the\s+)?[\w.]+`)

// purposeRE finds a clause of a question that says what the user will do
// once they have what they ask ("so I can log in without a password"):
// "so" (or "so that"), a subject pronoun (contracted with its verb too:
// "so I'm able to") and what follows, up to a completed follow-up's
// parenthesised topic or the end.
var purposeRE = regexp.MustCompile(`(?i)[\s,]+so(?:\s+that)?\s+(?:i|we|you|it|they|he|she)(?:['’](?:m|re|s|ve|d|ll))?\s[^()]*`)

// ownPlaceRE matches a place of the user's own closing a target or a
// part of it, before a completed follow-up's topic: a preposition of
// place, a first-person possessive and a noun of one or two words ("on my
// machine", "from my photos"); group 1 is the parenthesis that follows,
// if any.
var ownPlaceRE = regexp.MustCompile(`(?i)\s+(?:on|in|at|from)\s+(?:my|our)\s+[\w.'’-]+(?:\s+[\w.'’-]+)?\s*(\(|$)`)

// ownPlaceFree is target without the place of the user's own that closes
// it (ownPlaceRE) when the answer says none of that place's words (said):
// the user's machine, shell or files are where they will do what they
// ask, which a page that tells how to do it does not name. When the
// answer does say it, it stays asked: the answer speaks of that place.
// Target itself when nothing but filler would remain.
func ownPlaceFree(target string, said map[string]bool) string {
	asked := ownPlaceRE.ReplaceAllStringFunc(target, func(m string) string {
		for _, k := range symbolic.ContentTerms(m) {
			if !filler[k] && said[k] {
				return m
			}
		}
		if strings.HasSuffix(m, "(") {
			return " ("
		}
		return ""
	})
	for _, k := range symbolic.ContentTerms(asked) {
		if !filler[k] {
			return asked
		}
	}
	return target
}

// sceneFree is target without the words by which the user sets the scene
// of what they ask: the reason they ask it (reasonRE), an example of the
// thing they give (givenExampleRE, likeExamplesFree), a limit they set on
// it (limitRE) and what they mean to do with it (purposeRE). A page that
// answers names the thing and the action, seldom the user's reason,
// example or purpose, and gives a limit as a value to fill in ("-w
// {{width}}"), so none of these is a word the answer must cover. Target
// itself when nothing but filler would remain.
func sceneFree(target string) string {
	asked := reasonRE.ReplaceAllString(target, " ")
	asked = givenExampleRE.ReplaceAllString(asked, " ")
	asked = likeExamplesFree(asked)
	asked = limitRE.ReplaceAllString(asked, " ")
	asked = purposeRE.ReplaceAllString(asked, " ")
	for _, k := range symbolic.ContentTerms(asked) {
		if !filler[k] {
			return strings.Join(strings.Fields(asked), " ")
		}
	}
	return target
}

// occasionFree is a how-to target without its occasion clauses
// (occasionRE); target itself when nothing but filler would remain.
func occasionFree(target string) string {
	asked := occasionRE.ReplaceAllString(target, " ")
	for _, k := range symbolic.ContentTerms(asked) {
		if !filler[k] {
			return strings.TrimSpace(asked)
		}
	}
	return target
}

// explains reports whether an answer body says something beyond examples
// of what to do: a line of prose (not a heading, a fence or code, not an
// example's description), or an example's description that carries a
// reason or a condition.
func explains(body string, cited map[int]*kus.KU, rc plugin.RunContext) bool {
	fence := false
	for _, raw := range strings.Split(body, "\n") {
		line := strings.TrimSpace(raw)
		if strings.HasPrefix(line, "```") || strings.HasPrefix(line, "~~~") {
			fence = !fence
			continue
		}
		if fence || line == "" || strings.HasPrefix(line, "#") || codeLine(line) {
			continue
		}
		if !symbolic.AnswerExampleRE.MatchString(line) && !describes(line, cited, rc) {
			return true
		}
		if describes(line, cited, rc) && notes(line) {
			return true
		}
		if conditionPhraseRE.MatchString(line) {
			return true
		}
		for _, w := range strings.FieldsFunc(strings.ToLower(line), func(r rune) bool { return !unicode.IsLetter(r) }) {
			if reasonWords[w] {
				return true
			}
		}
	}
	return false
}

var (
	// alternationRE finds a question that sets two cases of one thing
	// against each other ("sometimes creates the folder and sometimes
	// copies just its contents").
	alternationRE = regexp.MustCompile(`(?i)\bsometimes\b.+\b(?:sometimes|other times|at times|otherwise)\b`)
	// casesContrastRE finds a description that sets what it does against
	// what it does not ("Transfer directory contents, but not the
	// directory itself", "X rather than Y").
	casesContrastRE = regexp.MustCompile(`(?i)\bbut\s+not\b|\brather\s+than\b`)
)

// contrastsCases reports whether a "why" question that sets two cases
// against each other (alternationRE) is answered by an example whose
// description contrasts one case with the other (casesContrastRE):
// asking why the outcome differs asks what makes the difference, and
// such an example shows it.
func contrastsCases(prompt, body string) bool {
	if !alternationRE.MatchString(prompt) {
		return false
	}
	for _, line := range symbolic.AnswerExampleRE.FindAllString(body, -1) {
		if casesContrastRE.MatchString(line) {
			return true
		}
	}
	return false
}

// conditionPhraseRE finds a phrase that ties what a description says to
// a case ("has reversed meaning in this case", "in which case it is
// kept"): the description states a condition, as "when" or "if" does.
var conditionPhraseRE = regexp.MustCompile(`(?i)\bin\s+(?:this|that|which|such|each)\s+cases?\b`)

// asideRE finds a parenthetical aside in an example's description.
var asideRE = regexp.MustCompile(`\(([^()]+)\)`)

// remarks reports whether an example's description in body comments on
// what it shows in the words of the question: a parenthetical aside
// ("Remove empty directories (this is considered the safe method)") that
// holds a key term of a target (or a near spelling of one) which the rest
// of the answer does not, nor a cited source's title, judges the example
// as a "why" question asks ("Why is rm -d considered safer than rm
// -r?"); an aside that repeats what the examples name ("(a directory)")
// does not.
func remarks(body string, targets []string, cited map[int]*kus.KU, rar symbolic.Rarity) bool {
	title := map[string]bool{}
	for _, k := range cited {
		for _, t := range symbolic.ContentTerms(k.Title) {
			title[t] = true
		}
	}
	rest := symbolic.TermSet(asideRE.ReplaceAllString(body, " "))
	for _, line := range symbolic.AnswerExampleRE.FindAllString(body, -1) {
		for _, m := range asideRE.FindAllStringSubmatch(line, -1) {
			said := symbolic.TermSet(m[1])
			for _, t := range targets {
				for _, k := range keyTerms(t) {
					if !title[k] && !filler[k] && covered(k, said, rar) && !covered(k, rest, rar) {
						return true
					}
				}
			}
		}
	}
	return false
}

// describes reports whether a line of prose only restates what a cited
// page is (the description its summary unit holds: "Apply the changes
// introduced by existing commits", optionally after "Title [1]: "), which
// says what the page is for, not why.
func describes(line string, cited map[int]*kus.KU, rc plugin.RunContext) bool {
	line = withoutLabel(line)
	norm := func(s string) string { return strings.Join(strings.Fields(strings.ToLower(s)), " ") }
	said := norm(strings.TrimSpace(stripCites(line)))
	if said == "" {
		return false
	}
	for _, k := range cited {
		if (k.Level == kus.LevelSummary || firstBlock(k, rc)) && strings.Contains(norm(k.Text()), said) {
			return true
		}
	}
	return false
}

// withoutLabel is line without the "Title [1]:" an answer opens a
// source's statements with.
func withoutLabel(line string) string {
	if loc := citeGroupRE.FindStringSubmatchIndex(line); loc != nil && strings.HasPrefix(strings.TrimSpace(line[loc[3]:]), ":") {
		return strings.TrimSpace(line[loc[3]:])[1:]
	}
	return line
}

// codeLine reports whether line is code alone: once its code spans and
// citations are taken out, only punctuation and the words that join
// commands ("or", "and") are left. A sentence that opens with a name as
// code ("`dwebp` decompresses WebP files") is prose.
func codeLine(line string) bool {
	l := stripCites(line)
	if !strings.Contains(l, "`") {
		return false
	}
	rest := codeSpanRE.ReplaceAllString(l, " ")
	for _, w := range strings.FieldsFunc(strings.ToLower(rest), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if w != "or" && w != "and" {
			return false
		}
	}
	return true
}

// codeSpanRE matches an inline code span.
var codeSpanRE = regexp.MustCompile("`[^`\n]*`")

// notes reports whether line, a page's own description quoted by the
// answer (describes), goes on past the sentence that says what the page
// is for: the sentences after it are the page's notes ("Animated WebP
// files are not supported.", "Note: neofetch is no longer maintained."),
// which give the limits and conditions a why-question asks about. A
// pointer to more information is no note.
func notes(line string) bool {
	sents := symbolic.Sentences(stripCites(withoutLabel(line)))
	if len(sents) < 2 {
		return false
	}
	for _, s := range sents[1:] {
		low := strings.ToLower(strings.TrimSpace(s))
		if low != "" && !strings.HasPrefix(low, "more information") {
			return true
		}
	}
	return false
}

// firstBlock reports whether k is the block right under its page's title
// (a tldr page's "> ..." description, a README's opening paragraph): all
// its source holds before it is one heading line.
func firstBlock(k *kus.KU, rc plugin.RunContext) bool {
	if rc.Corpus == nil || k.CharStart <= 0 {
		return false
	}
	src := rc.Corpus.SourceText(k.SourceID)
	if k.CharStart > len(src) {
		return false
	}
	before := strings.TrimRight(string(src[:k.CharStart]), "> \t\r\n") // a block quote's marker
	before = strings.TrimSpace(before)
	return strings.HasPrefix(before, "# ") && !strings.Contains(before, "\n")
}

// reasonWords are the words (lower case, as written) by which a sentence
// gives a reason, a purpose or a condition ("you must switch to another
// branch before doing this", "requires root"), or a caveat ("Note: this
// overwrites all data", "Warning: ..."). "Only" alone restricts
// what is shown ("List only directories"); "only if" counts by its "if".
var reasonWords = wordSet(strings.Fields("because since so when whenever if unless otherwise useful avoid avoids instead order reason reasons cause causes prevent prevents " +
	"must before until require requires required need needs needed cannot " +
	"note warning caution beware"))

// covered reports whether term k is in have, or a near spelling of it is
// (a typing mistake: "fils" for "files"), or a compound that opens with it
// ("allowlist" for "allow").
func covered(k string, have map[string]bool, rar symbolic.Rarity) bool {
	if have[k] {
		return true
	}
	if clippedIn(k, have) {
		return true
	}
	if len(k) < 5 {
		return false // short words are one edit away from many others
	}
	for h := range have {
		if symbolic.Near(k, h) || compound(k, h) {
			return true
		}
	}
	return false
}

// clippedIn reports whether k is a clipped form of a word have holds
// ("repo" of "repositories", "config" of "configuration"): k, of four
// letters or more, is no word the general lexicon knows, and a term of
// have that it knows begins with k.
func clippedIn(k string, have map[string]bool) bool {
	if len(k) < 4 || len(lexicon.Related(k)) > 0 {
		return false
	}
	for h := range have {
		if have[h] && len(h) > len(k) && strings.HasPrefix(h, k) && len(lexicon.Related(h)) > 0 {
			return true
		}
	}
	return false
}

// compound reports whether h is a compound word that opens with term k
// ("allowlist" for "allow"), k being long enough to tell.
func compound(k, h string) bool {
	return len(k) >= 5 && len(h) > len(k) && len(h) <= len(k)+maxCompoundTail && strings.HasPrefix(h, k)
}

// maxCompoundTail is how many letters a word may have after a key term it
// starts with and still name it as the head of a compound ("allowlist"
// for "allow", "timeout" for "time" is too short a term to tell).
const maxCompoundTail = 5

// verbAction is the action of a how-to task (symbolic.Action) when the
// general lexicon knows it as a verb, else "": a task that opens with a
// word it knows only as another part of speech ("ad", mistyped for "add")
// names no action a page can be checked against.
//
// A task that keeps something from doing (a verb of prevention, see
// hinders: "stop it from wrapping lines", "keep git from asking") is done by the option that governs the doing: its
// action is the gerund's verb, which a page names ("Wrap encoded output at
// a width, 0 disables wrapping") where it rarely names the hindering verb.
// A gerund of a verb too light to be a content term ("stop a process from
// using the CPU") leaves the task no action of its own to judge: pages
// say the hindrance in words of their own ("limit", "cap").
func verbAction(task string) string {
	action, _ := symbolic.Action(task)
	if !lexicon.HasVerbSense(action) {
		return ""
	}
	if !hinders(action) {
		return action
	}
	for _, loc := range wordRE.FindAllStringIndex(task, -1) {
		if !slices.Equal(symbolic.ContentTerms(task[loc[0]:loc[1]]), []string{action}) {
			continue
		}
		if m := hinderRE.FindStringSubmatch(task[loc[1]:]); m != nil {
			g := symbolic.ContentTerms(m[1])
			if len(g) == 0 {
				return ""
			}
			if len(g) == 1 {
				if lexicon.HasVerbSense(g[0]) {
					return g[0]
				}
			}
		}
		break
	}
	return action
}

// restates reports whether key term k names the action of its task
// again as a noun: the general lexicon knows k mainly as a noun and gives
// the action as one of its synonyms ("view" of "show the files in a tree
// view"; not the verb "match" of "check that the files match"). Such a
// word asks nothing the action does not, and a page that does the action
// need not say it.
func restates(k, action string) bool {
	if _, main := lexicon.PartsOfSpeech(k); main&lexicon.Noun == 0 {
		return false
	}
	for _, r := range lexicon.Related(k) {
		if r.Kind == lexicon.Synonym && r.Rank < maxSynonymRank && r.Term == action {
			return true
		}
	}
	return false
}

// labels reports whether the verb action of task gives its object the
// state a participle after "as" names ("mark a route as deprecated",
// "flag the jobs as finished"): the state is what the task asks for,
// which pages name ("Deprecation"), the verb only says it is given.
func labels(task, action string) bool {
	rest, ok := afterVerb(task, action)
	return ok && asStateRE.MatchString(rest)
}

// asStateRE matches what follows a verb that gives its object a state:
// an object of one to four words, "as" and a past participle.
var asStateRE = regexp.MustCompile(`(?i)^\s+(?:[^\s(),;]+\s+){1,4}?as\s+[a-z]+ed\b`)

// splitPhrasal reports whether the verb action of task takes a particle
// after its object ("hook the notes up to Xed", "turn the bell off"):
// a phrasal verb means what the verb alone need not ("hook up" is
// "connect"), and the lexicon's relatives of the verb say nothing of
// what the task asks, so a page cannot be checked against them. "back"
// ("write it back") keeps the verb's meaning (see particles).
func splitPhrasal(task, action string) bool {
	rest, ok := afterVerb(task, action)
	return ok && splitParticleRE.MatchString(rest)
}

// afterVerb is what follows the first word of task whose term is action,
// and whether task has one.
func afterVerb(task, action string) (string, bool) {
	for _, loc := range wordRE.FindAllStringIndex(task, -1) {
		if slices.Equal(symbolic.ContentTerms(task[loc[0]:loc[1]]), []string{action}) {
			return task[loc[1]:], true
		}
	}
	return "", false
}

// splitParticleRE matches what follows a verb that takes a particle after
// its object: an object of one to three words, the particle, and the end
// of the clause or a preposition.
var splitParticleRE = regexp.MustCompile(`(?i)^\s+(?:[^\s(),;]+\s+){1,3}?(?:up|down|off|out)(?:\s*(?:[?.!,;(]|$)|\s+(?:to|from|with|in|into|for|on|at|so|and|when|before|after)\b)`)

// preventTerm is the analysed term of "prevent".
var preventTerm = text.Terms("prevent")[0]

// hinders reports whether action is a verb of prevention: "prevent" or a
// word the general lexicon relates to it ("stop", "keep").
func hinders(action string) bool {
	if action == preventTerm {
		return true
	}
	for _, r := range lexicon.Related(action) {
		if r.Term == preventTerm {
			return true
		}
	}
	return false
}

// wordRE matches a word of a task.
var wordRE = regexp.MustCompile(`[A-Za-z]+`)

// hinderRE matches what follows a hindering verb: its object of up to
// three words and "from" with a gerund ("it from wrapping", "the shell
// from exiting").
var hinderRE = regexp.MustCompile(`(?i)^\s+(?:[^\s()]+\s+){1,3}?from\s+([a-z]+ing)\b`)

// asksWhich reports whether the question asks which things there are (the
// act "identify": "which error codes can show up", "list the ...").
func asksWhich(in *plugin.ValidateInput) bool {
	for _, it := range in.Intents {
		if it.Act == "identify" {
			return true
		}
	}
	return len(in.Intents) == 0 && symbolic.ActOf(in.Payload.Prompt) == "identify"
}

// howTo reports whether the task asks how to do something.
func howTo(in *plugin.ValidateInput) bool {
	if len(in.Intents) > 0 {
		for _, it := range in.Intents {
			if it.Act != "implement" {
				return false
			}
		}
		return true
	}
	return symbolic.ActOf(in.Payload.Prompt) == "implement"
}

// citedText is what the cited KUs ks say: their fields and, where the
// knowledge base still holds the source as ingested, the Markdown of each
// KU's span (a summary or section KU cites the text under it, which
// answer composition quotes as written).
func citedText(ks []*kus.KU, rc plugin.RunContext) string {
	text := joinKUs(ks)
	if rc.Corpus == nil {
		return text
	}
	var b strings.Builder
	b.WriteString(text)
	for _, k := range ks {
		if span := spanText(k, rc); span != "" {
			b.WriteString(span)
			b.WriteString("\n")
		}
	}
	return b.String()
}

// quoted reports whether a line of code occurs, white space collapsed, in
// the text of one of ks or in the Markdown of its source.
func quoted(line string, ks []*kus.KU, rc plugin.RunContext) bool {
	want := strings.Join(strings.Fields(line), " ")
	for _, k := range ks {
		if strings.Contains(strings.Join(strings.Fields(joinKUs([]*kus.KU{k})), " "), want) {
			return true
		}
		if rc.Corpus == nil {
			continue
		}
		src := rc.Corpus.SourceText(k.SourceID)
		if k.CharEnd > k.CharStart && k.CharStart >= 0 && k.CharEnd <= len(src) {
			src = src[k.CharStart:k.CharEnd]
		}
		if strings.Contains(strings.Join(strings.Fields(string(src)), " "), want) {
			return true
		}
	}
	return false
}

// userRules are the validation rules the user stated in the conversation.
// Validation guidance retrieved from the knowledge base describes rules
// (this plugin's own documentation says what "cite sources" does); only the
// user's turns impose them.
func userRules(guidance []plugin.ScoredKU) []*kus.KU {
	var out []*kus.KU
	for _, g := range guidance {
		if g.KU != nil && (g.KU.SourceType == kus.SourceChatTurn || g.Strategy == "turn") {
			out = append(out, g.KU)
		}
	}
	return out
}

// connectives are answer-assembly words that claim nothing.
var connectives = wordSet(symbolic.ContentTerms("therefore thus hence so also source sources statement according evidence following"))

// claimTerms are the content terms of a statement without connectives.
func claimTerms(s string) []string {
	var out []string
	for _, t := range symbolic.ContentTerms(s) {
		if !connectives[t] {
			out = append(out, t)
		}
	}
	return out
}

// sourceRef is one line of an answer's Sources list.
type sourceRef struct {
	title, sourceID string
	line            int // 0 when the list gives none
}

// splitSources separates an answer's body from its trailing "Sources:"
// list, returning the list by number.
func splitSources(answer string) (string, map[int]sourceRef) {
	lines := strings.Split(answer, "\n")
	refs := map[int]sourceRef{}
	for i := len(lines) - 1; i >= 0; i-- {
		h := strings.ToLower(strings.Trim(strings.TrimSpace(lines[i]), "#*: "))
		if h != "sources" && h != "references" {
			continue
		}
		for _, l := range lines[i+1:] {
			m := sourceLineRE.FindStringSubmatch(strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(l), "-* ")))
			if m == nil {
				continue
			}
			n, _ := strconv.Atoi(m[1])
			line, _ := strconv.Atoi(m[4])
			refs[n] = sourceRef{title: m[2], sourceID: m[3], line: line}
		}
		if len(refs) > 0 {
			return strings.Join(lines[:i], "\n"), refs
		}
	}
	return answer, refs
}

// findKU finds the evidence KU a Sources line names: same source, title
// and line, else same source and title, else same title, else same source.
func findKU(ev []plugin.ScoredKU, ref sourceRef) *kus.KU {
	var bySourceTitle, byTitle, bySource *kus.KU
	for _, e := range ev {
		k := e.KU
		if k == nil {
			continue
		}
		sameTitle := strings.EqualFold(strings.TrimSpace(k.Title), strings.TrimSpace(ref.title))
		sameSource := k.SourceID == ref.sourceID
		switch {
		case sameTitle && sameSource && (ref.line == 0 || max(1, k.Range.StartLine) == ref.line):
			return k
		case sameTitle && sameSource && bySourceTitle == nil:
			bySourceTitle = k
		case sameTitle && byTitle == nil:
			byTitle = k
		case sameSource && bySource == nil:
			bySource = k
		}
	}
	if bySourceTitle != nil {
		return bySourceTitle
	}
	if byTitle != nil {
		return byTitle
	}
	return bySource
}

// statements reads an answer body into checkable statements: each table
// row, list item or heading-free line, split further into segments that
// end in a citation group; a trailing uncited segment is a statement too.
func statements(body string) []statement {
	var out []statement
	lines := strings.Split(body, "\n")
	var fences text.Fences
	for i, raw := range lines {
		switch fences.Read(raw) {
		case text.Inside:
			if t := strings.TrimSpace(raw); t != "" && t != "..." {
				out = append(out, statement{text: t, line: i + 1, code: true})
			}
			continue
		case text.Opening, text.Closing:
			continue
		}
		line := strings.TrimSpace(strings.ReplaceAll(raw, "**", ""))
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if strings.HasPrefix(line, "|") {
			if isSeparatorRow(line) || (i+1 < len(lines) && isSeparatorRow(lines[i+1])) {
				continue // the separator, or the header row above it
			}
			out = append(out, statement{text: stripCites(line), cites: citesOf(line), line: i + 1, row: true})
			continue
		}
		line = strings.TrimLeft(line, "-*+> ")
		line = orderedMarkerRE.ReplaceAllString(line, "")
		rest := line
		for rest != "" {
			loc := citeGroupRE.FindStringSubmatchIndex(rest)
			if loc != nil {
				loc = loc[2:4]
			}
			if loc == nil {
				for _, s := range symbolic.Sentences(rest) {
					out = append(out, statement{text: s, line: i + 1})
				}
				break
			}
			seg, group := rest[:loc[0]], rest[loc[0]:loc[1]]
			after := strings.TrimSpace(rest[loc[1]:])
			if strings.TrimSpace(seg) != "" {
				out = append(out, statement{text: seg, cites: citesOf(group), line: i + 1, lead: strings.HasPrefix(after, ":")})
			}
			rest = strings.TrimSpace(strings.TrimLeft(after, ".,;:"))
		}
	}
	return out
}

// orderedMarkerRE is the marker of an ordered list item ("1. ", "2) "):
// markup, where a number opening a sentence ("429 replies are retried")
// is what the sentence says.
var orderedMarkerRE = regexp.MustCompile(`^\d+[.)](?:\s+|$)`)

func isSeparatorRow(line string) bool {
	line = strings.TrimSpace(line)
	if !strings.HasPrefix(line, "|") {
		return false
	}
	for _, c := range strings.Split(strings.Trim(line, "|"), "|") {
		if strings.Trim(strings.TrimSpace(c), "-:") != "" {
			return false
		}
	}
	return true
}

func citesOf(s string) []int {
	var out []int
	var groups strings.Builder
	for _, m := range citeGroupRE.FindAllStringSubmatch(s, -1) {
		groups.WriteString(m[1])
	}
	for _, m := range citeNumRE.FindAllStringSubmatch(groups.String(), -1) {
		n, _ := strconv.Atoi(m[1])
		out = append(out, n)
	}
	return out
}

func stripCites(s string) string { return strings.TrimSpace(citeNumRE.ReplaceAllString(s, " ")) }

// joinKUs is the text a statement may draw on: each KU's title, statement
// fields, body and symbolic fact.
func joinKUs(ks []*kus.KU) string {
	var b strings.Builder
	for _, k := range ks {
		for _, s := range []string{k.Title, k.Topic, k.Claim, k.Procedure, k.Condition, k.TextBody,
			k.SymbolicSubject, k.SymbolicRelation, k.SymbolicObject} {
			if s != "" {
				b.WriteString(s)
				b.WriteString("\n")
			}
		}
	}
	return b.String()
}

func evidenceKUs(ev []plugin.ScoredKU) []*kus.KU {
	var out []*kus.KU
	for _, e := range ev {
		if e.KU != nil {
			out = append(out, e.KU)
		}
	}
	return out
}

func intentTargets(in *plugin.ValidateInput) []string {
	var out []string
	for _, it := range in.Intents {
		if strings.TrimSpace(it.Target) != "" {
			out = append(out, it.Target)
		}
	}
	if len(out) == 0 && strings.TrimSpace(in.Payload.Prompt) != "" {
		out = append(out, in.Payload.Prompt)
	}
	return out
}

func missing(terms []string, have map[string]bool) []string {
	var out []string
	for _, t := range terms {
		if !have[t] {
			out = append(out, t)
		}
	}
	return out
}

func citeLabel(cites []int) string {
	if len(cites) == 0 {
		return "the evidence"
	}
	parts := make([]string, len(cites))
	for i, n := range cites {
		parts[i] = fmt.Sprintf("[%d]", n)
	}
	return "its citation " + strings.Join(parts, "")
}

func clip(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 80 {
		return string(r[:77]) + "..."
	}
	return s
}

// strangerCoverage is the key coverage (see keyCoverage) a question must
// reach when it names something the knowledge base holds nowhere: such a
// name (a product, a service) is what the question is about, and a source
// that shares only the question's other words answers something else.
// The name, which no answer can carry, counts as uncovered at the weight
// of the lightest known key term (keyCoverage), so only a question with
// many other key terms, nearly all carried by the answer, can reach it.
const strangerCoverage = 0.9

// strangerCover is the key coverage of target (keyCoverage) by cover
// without the terms only the titles of the cited pages gave it (pageOnly).
func strangerCover(target string, cover, pageOnly map[string]bool, rar symbolic.Rarity, swap map[string]string) float64 {
	own := maps.Clone(cover)
	for t := range pageOnly {
		delete(own, t)
	}
	c, _ := keyCoverage(target, own, rar, swap)
	return c
}

// unknownName is a key term of target that the question writes as a name
// (capitalized inside a sentence: "from Obsidian Sync") and the knowledge
// base holds nowhere, or "". A word the spelling correction replaced is
// read as its correction; a lower-case unknown word is as likely a
// paraphrase of what the pages say in their own words.
func unknownName(target, prompt string, rar symbolic.Rarity, swap map[string]string) string {
	names := map[string]bool{}
	for _, sentence := range sentenceRE.Split(prompt, -1) {
		words := strings.Fields(sentence)
		for i, w := range words {
			w = strings.Trim(w, "\"'`()[]{},;:?!.")
			if i == 0 || w == "" || !unicode.IsUpper([]rune(w)[0]) {
				continue
			}
			for _, k := range symbolic.ContentTerms(w) {
				names[k] = true
			}
		}
	}
	for _, k := range keyTerms(target) {
		if !names[k] || filler[k] || isNumber(k) || rar.Known(k) {
			continue
		}
		if _, ok := swap[k]; ok {
			continue
		}
		return k
	}
	return ""
}

// sentenceRE splits a question into sentences, whose first word is
// capitalized whatever it is.
var sentenceRE = regexp.MustCompile(`[.?!]\s+`)

// wordSet is the set of words.
func wordSet(words []string) map[string]bool {
	set := make(map[string]bool, len(words))
	for _, w := range words {
		set[w] = true
	}
	return set
}

// stranger is what target asks about that the knowledge base holds
// nowhere, or "": a name (unknownName), or the first of two or more
// English words (unknownWords). One such word may be a paraphrase of what
// the pages say in their own words; two name a subject of their own
// ("encrypt ... with a password"), which a passage sharing only the
// question's other words does not answer.
func stranger(target, prompt string, rar symbolic.Rarity, swap map[string]string) string {
	if u := unknownName(target, prompt, rar, swap); u != "" {
		return u
	}
	if ws := unknownWords(target, rar, swap); len(ws) >= 2 {
		return ws[0]
	}
	return ""
}

// unknownWords are the key terms of target that are English words the
// general lexicon knows and the knowledge base holds nowhere, of five
// letters or more: the stem of a typing slip is often a short word the
// lexicon knows ("ra" of "raed").
func unknownWords(target string, rar symbolic.Rarity, swap map[string]string) []string {
	var out []string
	for _, k := range keyTerms(target) {
		if _, ok := swap[k]; ok || len(k) < 5 || filler[k] || isNumber(k) || rar.Known(k) {
			continue
		}
		if all, _ := lexicon.PartsOfSpeech(k); all != 0 {
			out = append(out, k)
		}
	}
	return out
}
