package vm

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mrpvm/mrpvm/config"
	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/kus/sop"
	"github.com/mrpvm/mrpvm/llm"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugin/text"
	"github.com/mrpvm/mrpvm/store"
)

// MaxQuestionBytes bounds the question text the loop works on; longer
// questions are cut (at a rune boundary) and the trace says so.
const MaxQuestionBytes = 16 << 10

// Response statuses.
const (
	StatusAnswered  = "answered"
	StatusNoContext = "no-context"
	StatusFailure   = "failure"
	StatusInvalid   = "invalid"
)

// ErrEmptyQuestion is returned for a question with no text.
var ErrEmptyQuestion = errors.New("the question is empty")

// Request is one question to the VM.
type Request struct {
	Question  string
	SessionID string // "" starts a new session
	// CreateSession lets a named SessionID that does not exist yet start
	// a session of that name; without it an unknown id is
	// ErrSessionNotFound.
	CreateSession bool
	Pins          map[string]string // loop stage (or sd, plan, kb, gs, val) -> plugin id
	// Preferences set the session's preferred plugin per stage (same keys
	// as Pins): a strong prior the planner puts first, kept for the
	// session's later questions. An empty id clears the stage's preference.
	Preferences map[string]string
	Timeout     time.Duration // 0: engine.json requestTimeoutMs
}

// Evidence is one KU an answer rests on.
type Evidence struct {
	KUID     string    `json:"kuId"`
	Title    string    `json:"title"`
	SourceID string    `json:"sourceId"`
	URI      string    `json:"uri"`
	Range    kus.Range `json:"range"`
	Score    float64   `json:"score"`
	Text     string    `json:"text,omitempty"`
	Why      string    `json:"why,omitempty"` // a retriever's reason, such as a proof chain
}

// Response is the VM's answer to a Request.
type Response struct {
	RequestID      string     `json:"requestId"`
	SessionID      string     `json:"sessionId"`
	Status         string     `json:"status"` // answered, no-context, failure, invalid
	AnswerMarkdown string     `json:"answerMarkdown"`
	Evidence       []Evidence `json:"evidence"`
	// Intents are the tasks seed detection found in the question.
	Intents []plugin.Intent `json:"intents"`
	// Context is every KU the final answer's solver was given.
	Context []Evidence `json:"context"`
	Trace   *Trace     `json:"trace"`
	// SearchedFor is the question as it was searched when that differs
	// from what was asked (a follow-up completed from the session).
	SearchedFor string `json:"searchedFor,omitempty"`
	// Hint says how to configure a model when LLM plugins stepped aside.
	Hint string `json:"hint,omitempty"`
	// Unanswered are the parts of a multi-part question that an
	// "answered" response leaves without an accepted answer (each
	// rejected by validation or with nothing in the knowledge base): the
	// answer says so under each such part and cites nothing for it. Empty
	// when the whole question is answered.
	Unanswered []string `json:"unanswered,omitempty"`
}

// stageAliases maps short stage names to loop stages.
var stageAliases = map[string]string{
	"sd": plugin.LoopSeedDetector, "seed": plugin.LoopSeedDetector, plugin.LoopSeedDetector: plugin.LoopSeedDetector,
	"plan": plugin.LoopPlanner, "planner": plugin.LoopPlanner, "mrp-plan": plugin.LoopPlanner,
	"kb": plugin.LoopKB, "gs": plugin.LoopGoalSolver, "solver": plugin.LoopGoalSolver, plugin.LoopGoalSolver: plugin.LoopGoalSolver,
	"val": plugin.LoopValidation, "validator": plugin.LoopValidation, plugin.LoopValidation: plugin.LoopValidation,
}

// NormalizePins maps stage aliases to loop stages and checks that each
// pinned plugin is loaded and of the stage's family.
func (m *Machine) NormalizePins(pins map[string]string) (map[string]string, error) {
	out := map[string]string{}
	for k, id := range pins {
		stage, ok := stageAliases[strings.ToLower(strings.TrimSpace(k))]
		if !ok {
			return nil, fmt.Errorf("pin %s=%s: unknown stage %q (use sd, plan, kb, gs or val)", k, id, k)
		}
		t := plugin.TypeOfLoopStage(stage)
		if m.cat.Registry.Get(t, id) == nil {
			if p, ok := m.cat.Registry.Lookup(id); ok {
				return nil, fmt.Errorf("pin %s=%s: %s is a %s, not a %s", k, id, id, p.Descriptor().Type, t)
			}
			return nil, fmt.Errorf("pin %s=%s: no loaded plugin %q (see `mrpvm plugins`)", k, id, id)
		}
		out[stage] = id
	}
	return out, nil
}

// normalizePreferences checks session preferences like pins; a stage
// given an empty id is returned in clear.
func (m *Machine) normalizePreferences(prefs map[string]string) (map[string]string, []string, error) {
	set := map[string]string{}
	var clear []string
	for k, id := range prefs {
		if strings.TrimSpace(id) == "" {
			stage, ok := stageAliases[strings.ToLower(strings.TrimSpace(k))]
			if !ok {
				return nil, nil, fmt.Errorf("preference %s: unknown stage %q (use sd, plan, kb, gs or val)", k, k)
			}
			clear = append(clear, stage)
			continue
		}
		set[k] = id
	}
	norm, err := m.NormalizePins(set)
	if err != nil {
		return nil, nil, fmt.Errorf("preference: %w", err)
	}
	return norm, clear, nil
}

// run is the state of one request.
type run struct {
	m         *Machine
	req       Request
	question  string
	trace     *Trace
	session   *Session
	turnID    string
	remaining int
	pins      map[string]string
	planner   string
	intents   []plugin.Intent
	turnKUs   []*kus.KU
	strategy  []plugin.ScoredKU            // retrieved guidance for the planner
	guidance  map[string][]plugin.ScoredKU // retrieved guidance by phase scope
	deadline  time.Time                    // the request's deadline; zero without one
	maxDepth  int
	perStage  int
	deepest   int
	purpose   string
	reasons   []string   // validation rejections, fed to the next attempt
	meter     *llm.Meter // the request's LLM budget; nil without a model
	llmHint   bool       // an LLM plugin stepped aside for want of a model
	// sibling, while a part of a multi-part question is asked again, is
	// the source a later part was answered from and siblingKUs the units
	// it cited: the part's evidence is that source's units that hold the
	// part's own words (retryFromLaterParts).
	sibling    string
	siblingKUs []string
	// broken holds the plugins whose call failed in a way a second call in
	// the same request would repeat (see brokenCodes), with that error.
	broken map[string]*plugin.Error
	// asked is the question as the user wrote it; question is what the
	// loop searches for (a follow-up completed from the session).
	asked   string
	carried *TurnContext
	own     []string // a follow-up's own content terms, the carried topic's aside
	// undone is set for a follow-up read as the earlier question
	// reversed (invert): its own words are those of that question, not
	// "undo".
	undone bool
	// continued is the turn a question searched alone points back at
	// with a pronoun ("What line would I put in it ..."): the turn's
	// topic continues that turn's.
	continued *TurnContext
	folders   map[string][]string // anchorFolders by anchors, for the request's life
	libs      map[string]bool     // libraryNames, for the request's life
	// stats is the knowledge base's file stats (sourceStats), read once
	// for the request's life; statsRead is set once they were read.
	stats     []store.FileStat
	statsRead bool
	// truncated is set for a question cut to MaxQuestionBytes: most
	// likely a paste gone wrong, so its turn gives the session neither
	// units nor a topic for later follow-ups (see loop and finish).
	truncated bool
	// searched is set once the loop searched the question: it was not
	// settled by screen, and unknownWords clears it again when no word
	// of it is in the knowledge base.
	searched bool
	corp     *corpus
	corrupt  error // a plugin found the knowledge base file damaged
}

// corpus is the request's view of the knowledge base statistics (nil
// without a knowledge base).
func (r *run) corpus() plugin.Corpus {
	if r.corp == nil {
		return nil
	}
	return r.corp
}

// screen settles questions the loop cannot usefully search for: one with
// no content word, and a follow-up with nothing before it in the session
// to refer to (unless, besides its action, it names a source of the
// knowledge base: "How do I make it required in cobra?"). Any other follow-up is completed with the topic of the
// session's last answered turn, recorded as the trace's searchedFor.
func (r *run) screen() (frameResult, bool) {
	r.asked = r.question
	if len(text.Terms(r.question)) == 0 {
		r.trace.fail(nil, CodeNoContentTerms, "the question has no word to search for, only common words")
		return frameResult{status: StatusNoContext, answer: "The question has only common words (such as \"what\", \"is\", \"the\"), nothing to search the knowledge base for. Name what you are asking about."}, true
	}
	q, prev, is := r.resolveFollowUp(r.question)
	if !is {
		if pointedPronoun(r.question) != "" {
			// Searched alone, for it names enough itself, but its pronoun
			// still stands for what the conversation is about: the turn
			// continues that conversation's topic (turnContext).
			r.continued = r.lastTopicTurn()
		}
		return frameResult{}, false
	}
	if prev == nil {
		if !r.namesSource(contentTerms(howActionRE.ReplaceAllString(r.question, " "))) {
			_, w := followUp(r.question)
			r.trace.fail(nil, CodeFollowUpNoContext, "the question refers back (%q) but the session has no earlier answered question", w)
			return frameResult{status: StatusNoContext, answer: fmt.Sprintf("This question refers to something said earlier (%q), but this session has no earlier answered question to take it from. Ask it in full, naming what you mean.", w)}, true
		}
		return frameResult{}, false
	}
	r.question, r.carried = q, prev
	topic := termSet(prev.Topic)
	own := r.asked
	if r.undone {
		own = q
	}
	for _, t := range contentTerms(own) {
		if !topic[t] && !slices.Contains(r.own, t) {
			r.own = append(r.own, t)
		}
	}
	r.trace.SearchedFor = q
	r.trace.note("follow-up completed from turn %s: %q", prev.TurnID, q)
	return frameResult{}, false
}

// Ask runs the loop for one question. It returns an error only for a
// request it cannot run (empty question, bad pins, bad session id: with a
// response) or a damaged knowledge base file (errors.Is store.ErrCorrupt:
// without one); every other plugin failure is reported in the response's
// status and trace.
func (m *Machine) Ask(ctx context.Context, req Request) (*Response, error) {
	requestID := newID("r-")
	trace := &Trace{Outcome: plugin.Outcome{RequestID: requestID, SessionID: req.SessionID}}
	resp := &Response{RequestID: requestID, SessionID: req.SessionID, Status: StatusInvalid, Evidence: []Evidence{},
		Intents: []plugin.Intent{}, Context: []Evidence{}, Trace: trace}

	q := strings.TrimSpace(strings.ToValidUTF8(req.Question, "\uFFFD"))
	truncated := false
	if q == "" {
		trace.FinalStatus = "failure"
		trace.fail(nil, CodeEmptyQuestion, "the question is empty")
		m.keepTrace(trace)
		return resp, ErrEmptyQuestion
	}
	if len(q) > MaxQuestionBytes {
		cut := MaxQuestionBytes
		for cut > 0 && !utf8.RuneStart(q[cut]) {
			cut--
		}
		q = q[:cut]
		truncated = true
		trace.fail(nil, CodeQuestionTruncated, "the question is %d bytes; only the first %d are used", len(req.Question), cut)
	}
	trace.Question = firstLine(q, 300)
	pins, err := m.NormalizePins(req.Pins)
	if err != nil {
		trace.FinalStatus = "failure"
		trace.fail(nil, CodeUnknownPlugin, "%v", err)
		return resp, err
	}

	prefs, clear, err := m.normalizePreferences(req.Preferences)
	if err != nil {
		trace.FinalStatus = "failure"
		trace.fail(nil, CodeUnknownPlugin, "%v", err)
		return resp, err
	}

	timeout := req.Timeout
	if timeout <= 0 {
		timeout = config.Duration(m.eng.RequestTimeoutMs)
	}
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}

	hooks := newHookLimiter()
	ctx = withHookLimiter(ctx, hooks)
	sess, _, err := m.openSession(ctx, req.SessionID, req.CreateSession)
	if err != nil {
		trace.FinalStatus = "failure"
		trace.fail(nil, CodeSessionNotFound, "%v", err)
		return resp, err
	}
	trace.SessionID, resp.SessionID = sess.ID, sess.ID
	if len(prefs) > 0 || len(clear) > 0 {
		if sess.Preferences == nil {
			sess.Preferences = map[string]string{}
		}
		for stage, id := range prefs {
			sess.Preferences[stage] = id
		}
		for _, stage := range clear {
			delete(sess.Preferences, stage)
		}
		trace.note("session preferences: %v", sess.Preferences)
	}

	r := &run{m: m, req: req, question: q, trace: trace, session: sess, turnID: newID("t-"),
		remaining: m.eng.MaxLLMAttemptsPerRequest, pins: pins, maxDepth: m.eng.MaxFrameDepth,
		perStage: m.eng.MaxPluginsPerStage, corp: m.newCorpus(ctx), truncated: truncated}
	if r.perStage <= 0 {
		r.perStage = 4
	}
	r.deadline, _ = ctx.Deadline()
	if m.llm != nil {
		r.meter = llm.NewMeter(m.llm, m.eng.MaxLLMAttemptsPerRequest)
	}
	if res, ok := r.screen(); ok {
		r.finish(ctx, res, resp)
		m.keepTrace(trace)
		return resp, nil
	}
	r.searched = true
	res := r.loop(ctx)
	if r.corrupt != nil {
		// Nothing read from a damaged file can be trusted: no answer, and
		// the session keeps no turn.
		trace.FinalStatus = "failure"
		trace.fail(nil, plugin.CodeKBCorrupt, "%v", r.corrupt)
		m.keepTrace(trace)
		return nil, r.corrupt
	}
	r.finish(ctx, res, resp)
	trace.Errors = append(trace.Errors, hooks.drain()...)
	m.keepTrace(trace)
	return resp, nil
}

// frameResult is what a frame (or a request) produced.
type frameResult struct {
	status   string // StatusAnswered, StatusNoContext, "rejected", StatusFailure
	answer   string
	evidence []plugin.ScoredKU
	cited    []string
	solver   string
	reason   string
	// unanswered are the parts of a multi-part task that got no
	// accepted answer while others did (status StatusAnswered).
	unanswered []string
}

func (f frameResult) better(g frameResult) bool { return rank(f.status) > rank(g.status) }

func rank(s string) int {
	switch s {
	case StatusAnswered:
		return 3
	case "rejected":
		return 2
	case StatusNoContext:
		return 1
	}
	return 0
}

// loop runs seed detection once, then plans and executes with each planner
// of the fallback order until one produces a validated answer.
func (r *run) loop(ctx context.Context) frameResult {
	r.detectSeeds(ctx, r.seedRouting(ctx))
	r.intents = r.foldSituations(r.intents)
	if r.truncated || len(r.unknownIn(r.question)) > 0 {
		// Units stated in a cut paste, or in words the knowledge base does
		// not know at all, would only mislead the session's later turns.
		r.turnKUs = nil
	}
	if len(r.turnKUs) > 0 {
		r.m.sessionEvent(ctx, &plugin.SessionEvent{EventType: plugin.EventSessionKUsAdded, SessionID: r.session.ID,
			KBID: r.session.KBID, KBName: r.session.KBName, Units: r.turnKUs, Scope: "current-turn", Reason: "seed detection"})
	}

	r.retrieveStrategy(ctx)
	planners := r.m.cat.PlannerOrder()
	if id, ok := r.pins[plugin.LoopPlanner]; ok {
		planners = []string{id}
	}
	best := frameResult{status: StatusFailure}
	if len(planners) == 0 {
		r.trace.fail(nil, CodeNoPlanner, "no planner is loaded; the catalog's default order is used")
		planners = []string{""}
	}
	for _, pid := range planners {
		if ctx.Err() != nil {
			r.trace.fail(nil, CodeRequestTimeout, "the request ran out of time before planner %s", pid)
			break
		}
		r.planner = pid
		r.trace.PlannerAttempts = append(r.trace.PlannerAttempts, pid)
		r.trace.PlannerPluginID = pid
		plan := r.plan(ctx, pid)
		root := &FrameTrace{ID: newID("f-"), Planner: pid, Purpose: plan.FramePurpose, Intents: intentTargets(r.intents)}
		if r.trace.Frames == nil {
			r.trace.Frames = root
		} else {
			r.trace.Frames.Branches = append(r.trace.Frames.Branches, "planner "+pid+": frame "+root.ID)
			r.trace.Frames.Children = append(r.trace.Frames.Children, root)
		}
		if plan.FramePurpose != "" && r.purpose == "" {
			r.purpose = plan.FramePurpose
		}
		res := r.runFrame(ctx, root, plan, r.intents, r.question, 0)
		root.Status = res.status
		if res.better(best) || best.status == StatusFailure {
			best = res
		}
		if res.status == StatusAnswered {
			break
		}
		if res.status == "rejected" {
			r.reasons = append(r.reasons, res.reason)
			r.trace.fail(root, CodeValidationRejected, "planner %s: %s", pid, res.reason)
		}
	}
	return best
}

// finish fills the response, records the outcome with every planner tried
// and commits the turn to the session.
func (r *run) finish(ctx context.Context, res frameResult, resp *Response) {
	t := r.trace
	t.FrameDepth = r.deepest
	t.FramePurpose = r.purpose
	if words := r.followUpUnknown(); len(words) > 0 && res.status == StatusAnswered {
		r.searched = false
		t.fail(nil, CodeNoKnownTerms, "no word this follow-up adds to the conversation's topic is in the knowledge base or close to a word of it: %s", strings.Join(words, ", "))
		res = frameResult{status: StatusNoContext, answer: fmt.Sprintf("No word this question adds to what the conversation is about (%s) occurs in the knowledge base, and none is close enough to one of its words to be read as a typing mistake: the knowledge base does not say.", strings.Join(words, ", "))}
	}
	// Only a searched question can be said to have no word close to one
	// of the knowledge base: the search is where the kb-plugins read
	// misspelt words as the words they were meant to be. A question
	// settled before it (a first turn that refers back) keeps its reason.
	if (res.status == StatusNoContext || res.status == StatusFailure) && r.searched {
		if words := r.unknownWords(); len(words) > 0 {
			r.searched = false
			t.fail(nil, CodeNoKnownTerms, "no word of the question is in the knowledge base or close to a word of it: %s", strings.Join(words, ", "))
			res.status = StatusNoContext
			res.answer = fmt.Sprintf("No word of the question (%s) occurs in the knowledge base, and none is close enough to one of its words to be read as a typing mistake. Check the spelling, or ask with the words the documents use.", strings.Join(words, ", "))
		}
	}
	switch res.status {
	case StatusAnswered:
		t.FinalStatus, t.FinalAnswerStatus = "success", "answered"
		resp.Status = StatusAnswered
		resp.AnswerMarkdown = res.answer
		resp.Unanswered = res.unanswered
		if len(res.unanswered) > 0 {
			t.note("answered in part: %d part(s) have no accepted answer: %s", len(res.unanswered), strings.Join(res.unanswered, "; "))
		}
	case StatusNoContext:
		t.FinalStatus, t.FinalAnswerStatus = "success", "no-context"
		resp.Status = StatusNoContext
		resp.AnswerMarkdown = noContextAnswer(res.answer)
	case "rejected":
		// Every candidate failed validation: say so rather than risk a
		// confident wrong answer, and point at the closest pages.
		t.FinalStatus, t.FinalAnswerStatus = "success", "no-context"
		resp.Status = StatusNoContext
		resp.AnswerMarkdown = rejectedAnswer(res)
	default:
		t.FinalStatus = "failure"
		resp.Status = StatusFailure
		resp.AnswerMarkdown = "No plugin could answer this question; see the trace for each stage's status."
	}
	resp.Evidence = r.evidenceOf(res)
	if r.llmHint {
		resp.Hint = llm.Hint
	}
	resp.Intents = r.intents
	for _, e := range res.evidence {
		if e.KU != nil {
			resp.Context = append(resp.Context, r.evidenceItem(e))
		}
	}

	// Planner learning: every planner tried hears the outcome of its stages.
	for _, pid := range dedupe(t.PlannerAttempts) {
		p, ok := r.m.cat.Registry.Planner(pid)
		if !ok {
			continue
		}
		o := t.Outcome
		o.PlannerPluginID = pid
		o.Stages = nil
		for _, s := range t.Outcome.Stages {
			if s.PlannerPluginID == pid || s.Stage == plugin.LoopSeedDetector {
				o.Stages = append(o.Stages, s)
			}
		}
		func() {
			defer func() {
				if rec := recover(); rec != nil {
					r.m.log.Warn("recordOutcome panicked", "planner", pid, "panic", rec)
				}
			}()
			cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			defer cancel()
			if err := p.RecordOutcome(cctx, r.rc(nil), &o); err != nil {
				r.m.log.Warn("recordOutcome failed", "planner", pid, "err", err)
			}
		}()
	}

	// The session keeps the turn and commits its KUs.
	now := r.m.now()
	s := r.session
	resp.SearchedFor = t.SearchedFor
	s.Turns = append(s.Turns, plugin.Turn{ID: r.turnID, Role: "user", Text: firstLine(r.asked, 4096), At: now},
		plugin.Turn{ID: r.turnID + "-a", Role: "assistant", Text: firstLine(resp.AnswerMarkdown, 8192), At: now})
	if len(r.turnKUs) > 0 {
		s.Units = append(s.Units, r.turnKUs...)
	}
	carried := r.carried
	if carried == nil {
		carried = r.continued
	}
	if tc := r.turnContext(resp, r.question, carried); tc != nil && !r.truncated {
		s.Context = append(s.Context, *tc)
	}
	if err := r.m.saveSession(s); err != nil {
		r.m.log.Warn("session not saved", "session", s.ID, "err", err)
	}
	if len(r.turnKUs) > 0 {
		r.m.sessionEvent(context.WithoutCancel(ctx), &plugin.SessionEvent{EventType: plugin.EventSessionKUsAdded, SessionID: s.ID,
			KBID: s.KBID, KBName: s.KBName, Units: r.turnKUs, Scope: "committed-session", Reason: "turn completed"})
	}
}

// rejectedAnswer is the no-context answer given when every candidate
// answer was rejected: the last reason and the closest sources. The
// sources the rejected candidate cited come first, in its order: the goal
// solver chose them as the passages that answer, and validation found
// them short of the question, not off it; the rest of the evidence
// follows in retrieval order.
func rejectedAnswer(res frameResult) string {
	var b strings.Builder
	b.WriteString("The knowledge base has no passage that answers this question with confidence")
	if res.reason != "" {
		fmt.Fprintf(&b, " (the best candidate was rejected: %s)", res.reason)
	}
	b.WriteString(".\n")
	if look := lookAt(res.evidence, res.cited); look != "" {
		b.WriteString("\n" + look)
	}
	return b.String()
}

// lookAt lists up to three sources a reader may look at for a question
// the knowledge base answered with no accepted answer: the sources of the
// cited units first, in citing order, then the rest of the evidence in
// retrieval order, one line per source. "" when there is no evidence.
func lookAt(evidence []plugin.ScoredKU, cited []string) string {
	var b strings.Builder
	byID := map[string]*kus.KU{}
	var order []*kus.KU
	for _, e := range evidence {
		if e.KU != nil {
			byID[e.KU.ID] = e.KU
		}
	}
	for _, id := range cited {
		if k := byID[id]; k != nil {
			order = append(order, k)
		}
	}
	for _, e := range evidence {
		if e.KU != nil {
			order = append(order, e.KU)
		}
	}
	seen := map[string]bool{}
	n := 0
	for _, k := range order {
		if seen[k.SourceID] || n == 3 {
			continue
		}
		if n == 0 {
			b.WriteString("You may look at:\n")
		}
		seen[k.SourceID] = true
		n++
		title := k.Title
		if title == "" {
			title = k.SourceName
		}
		fmt.Fprintf(&b, "- %s — %s:%d\n", title, k.SourceID, max(1, k.Range.StartLine))
	}
	return b.String()
}

func noContextAnswer(solverText string) string {
	if strings.TrimSpace(solverText) != "" {
		return solverText
	}
	return "The knowledge base has nothing that answers this question."
}

// rc builds the read-only runtime context handed to a plugin.
func (r *run) rc(frame *FrameTrace) plugin.RunContext {
	depth := 0
	if frame != nil {
		depth = frame.Depth
	}
	conv := r.session.Turns
	if n := len(conv); n > 20 {
		conv = conv[n-20:]
	}
	deadline := r.deadline
	return plugin.RunContext{
		RequestID:    r.trace.RequestID,
		Session:      plugin.Session{ID: r.session.ID, KBID: r.session.KBID, KBName: r.session.KBName, Preferences: r.session.Preferences, Pins: r.pins},
		Conversation: slices.Clone(conv),
		Parser:       sopParser{},
		Decomposer:   decomposer{},
		Helpers:      r.m.cat.Helpers(),
		ModelSettings: func() plugin.ModelSettings {
			return r.m.cat.Config.ModelSettings()
		}(),
		Logger: r.m.log,
		Budgets: plugin.Budgets{MaxLLMCalls: r.m.eng.MaxLLMAttemptsPerRequest, RemainingLLMCalls: r.remaining,
			Deadline: deadline, FrameDepth: depth, MaxFrameDepth: r.maxDepth, MaxPluginsPerStage: r.perStage},
		LLM:    nil, // set per stage by call
		Corpus: r.corpus(),
	}
}

// sopParser checks SOP Lang text for plugins.
type sopParser struct{}

func (sopParser) Check(_ context.Context, cnl string) []kus.Diagnostic {
	_, err := sop.Interpret(cnl)
	var out []kus.Diagnostic
	for _, e := range sop.AsErrors(err) {
		out = append(out, kus.Diagnostic{Line: e.Line, Col: e.Col, Severity: kus.SeverityError, Code: string(e.Code), Message: e.Msg})
	}
	return out
}

// decomposer splits an intent document into one document per intent.
type decomposer struct{}

func (decomposer) Decompose(_ context.Context, intentCNL string) ([]string, error) {
	res, err := sop.Interpret(intentCNL)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, in := range res.Intents {
		w := sop.NewWriter()
		w.Intent(in)
		out = append(out, w.String())
	}
	return out, nil
}

// evidenceOf lists the KUs behind an answer: those the solver cited, else
// the evidence it was given.
func (r *run) evidenceOf(res frameResult) []Evidence {
	out := []Evidence{}
	seen := map[string]bool{}
	add := func(s plugin.ScoredKU) {
		if s.KU == nil || seen[s.KU.ID] {
			return
		}
		seen[s.KU.ID] = true
		out = append(out, r.evidenceItem(s))
	}
	if len(res.cited) > 0 {
		byID := map[string]plugin.ScoredKU{}
		for _, e := range res.evidence {
			if e.KU != nil {
				byID[e.KU.ID] = e
			}
		}
		for _, id := range res.cited {
			if e, ok := byID[id]; ok {
				add(e)
			} else if k, err := r.m.kb.Store().KU(id); err == nil && k != nil {
				add(plugin.ScoredKU{KU: k})
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	if res.status != StatusAnswered {
		return out
	}
	for _, e := range res.evidence {
		add(e)
	}
	return out
}

// evidenceItem describes one scored KU for the response.
func (r *run) evidenceItem(s plugin.ScoredKU) Evidence {
	return Evidence{KUID: s.KU.ID, Title: s.KU.Title, SourceID: s.KU.SourceID, URI: r.uriOf(s.KU.SourceID),
		Range: s.KU.Range, Score: s.Score, Text: firstLine(s.KU.Text(), 4000), Why: s.Why}
}

// uriOf turns a source id into a URI an editor can open.
func (r *run) uriOf(sourceID string) string {
	if strings.Contains(sourceID, "::") || r.m.kb == nil {
		return "mrpvm:" + sourceID
	}
	abs := filepath.Join(r.m.kb.Workspace(), filepath.FromSlash(sourceID))
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}

func intentTargets(in []plugin.Intent) []string {
	out := make([]string, len(in))
	for i, x := range in {
		out[i] = x.Act + ": " + x.Target
	}
	return out
}

func dedupe(ids []string) []string {
	var out []string
	for _, id := range ids {
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

// firstLine returns s cut to max bytes at a rune boundary.
func firstLine(s string, max int) string {
	if len(s) <= max {
		return s
	}
	for max > 0 && !utf8.RuneStart(s[max]) {
		max--
	}
	return s[:max] + "…"
}
