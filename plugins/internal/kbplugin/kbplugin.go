package kbplugin

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugin/text"
	"github.com/mrpvm/mrpvm/plugins/internal/symbolic"
	"github.com/mrpvm/mrpvm/retrieval/bm25"
	"github.com/mrpvm/mrpvm/retrieval/hdc"
	"github.com/mrpvm/mrpvm/retrieval/lexicon"
	"github.com/mrpvm/mrpvm/retrieval/thinkingdb"
)

// Profile says which strategies a plugin fuses and its result budget.
type Profile struct {
	ID         string
	MaxResults int     // KUs returned at most (RetrieveInput.MaxResults overrides)
	MinScore   float64 // normalised fused score a KU needs (the best scores 1)
	HDC        bool    // rerank with hypervectors and MMR
	ThinkingDB bool    // fuse ThinkingDB proofs
	MaxDepth   int     // ThinkingDB neighbourhood depth (0: default)
}

// IndexVersion changes whenever the stored index layout changes.
const IndexVersion = "kb-7" // kb-7: the names each source refers to, and how many sources refer to each name

// Engine implements the kb-plugin contract for one profile.
type Engine struct {
	prof  Profile
	store plugin.Store
	bm    *bm25.Index
	hd    *hdc.Index
	td    *thinkingdb.Index
	an    *text.Analyzer

	mu       sync.Mutex
	sessions map[string][]*kus.KU // session id -> its KUs (current turn and committed)
	order    []string             // session ids, oldest first
}

// Bounds on the in-memory session KUs.
const (
	maxSessions        = 64
	maxUnitsPerSession = 500
)

// New builds an engine over a plugin's private store; with a nil store
// (a catalog listed without a knowledge base) retrieve answers unsupported.
func New(prof Profile, store plugin.Store) *Engine {
	e := &Engine{prof: prof, store: store, an: text.English(), sessions: map[string][]*kus.KU{}}
	if ss, ok := store.(plugin.SharedStater); ok {
		// One in-memory BM25 index (and postings cache) per open knowledge
		// base, whichever kb-plugins read it.
		e.bm = ss.SharedState(SharedBM25, func() any { return bm25.New(bm25.DefaultParams()) }).(*bm25.Index)
	} else {
		e.bm = bm25.New(bm25.DefaultParams())
	}
	if prof.HDC {
		e.hd = hdc.New(hdc.DefaultParams())
	}
	if prof.ThinkingDB {
		p := thinkingdb.DefaultParams()
		if prof.MaxDepth > 0 {
			p.Depth = prof.MaxDepth
		}
		e.td = thinkingdb.New(p)
	}
	return e
}

// OnSourceText indexes (or un-indexes) one source inside its transaction.
func (e *Engine) OnSourceText(_ context.Context, st *plugin.SourceText) (*plugin.SourceTextResult, error) {
	if st.KV == nil {
		return &plugin.SourceTextResult{Status: plugin.StatusSkipped}, nil
	}
	var units []*kus.KU
	if !st.Removed && st.Doc != nil {
		units = st.Doc.Units
	}
	var text []byte
	if !st.Removed {
		text = st.Text
	}
	if err := e.index(st.KV, st.SourceID, units, text, st.OldUnitIDs); err != nil {
		return &plugin.SourceTextResult{Status: plugin.StatusError, Error: errorOf(err)}, nil
	}
	return &plugin.SourceTextResult{Status: plugin.StatusAccepted, Artifacts: []map[string]any{{"units": len(units)}}}, nil
}

// SharedBM25 names the namespace holding the BM25 index the built-in
// kb-plugins share.
//
// Every kb-plugin gets a private namespace (docs/contracts.md), and each
// built-in keeps its own derived data there (kb-balanced its HDC vectors,
// kb-thinkingdb its facts). Their BM25 indexes, though, would be
// byte-for-byte the same: the same analyzer and parameters over the same
// committed KUs. Three copies would triple the BM25 share of the file, of
// the ingest transactions' work and of the page cache a search touches. So the engine offers the built-ins one shared namespace in
// the same transaction (engine boltKV.Shared, not part of the plugin SDK:
// third-party plugins still see only their own namespace). Every built-in
// writes each committed source there; a write whose analysed record equals
// the stored one is a no-op, so the second and third plugin in a transaction
// cost one comparison. Rebuilding one plugin's private index (a new plugin,
// a format change, a corrupt index) first clears the shared index and then
// writes every source again, so a damaged shared index is repaired by the
// same path that repairs a private one.
const SharedBM25 = "kb-bm25"

// keyShared marks a private namespace whose plugin has (re)built the shared
// BM25 index since the namespace was created.
var keyShared = []byte("k.shared")

// sharedMarker is keyShared's value.
var sharedMarker = []byte{1}

// checkShared reports a damaged marker as a corrupt index, so the core
// rebuilds the plugin's namespace (and with it the shared index). A missing
// marker is a namespace not written yet.
func checkShared(kv, bkv plugin.KV) error {
	if bkv == kv {
		return nil
	}
	if v := kv.Get(keyShared); v != nil && !bytes.Equal(v, sharedMarker) {
		return fmt.Errorf("%w: shared index marker %x", bm25.ErrCorrupt, v)
	}
	return nil
}

// bm25KV returns the namespace of the BM25 index for kv's transaction: the
// shared one when the engine offers it (its marker in kv checked,
// checkShared), else kv itself.
func bm25KV(kv plugin.KV) (plugin.KV, error) {
	s, ok := kv.(plugin.SharedNamespacer)
	if !ok {
		return kv, nil
	}
	skv, err := s.Shared(SharedBM25)
	if err != nil {
		return nil, fmt.Errorf("bm25: shared namespace: %w", err)
	}
	if err := checkShared(kv, skv); err != nil {
		return nil, err
	}
	return skv, nil
}

// index writes one source's units (nil: the source is removed) and the
// names its text refers to (bm25.References) into the indexes.
func (e *Engine) index(kv plugin.KV, sourceID string, units []*kus.KU, text []byte, old []string) error {
	bkv, err := bm25KV(kv)
	if err != nil {
		return err
	}
	if bkv != kv && kv.Get(keyShared) == nil {
		// This plugin's namespace is new (first ingest, added plugin,
		// rebuild after corruption or a format change): it rewrites every
		// source, so the shared index starts over with it.
		if err := bm25.Clear(bkv); err != nil {
			return err
		}
		if err := kv.Put(keyShared, sharedMarker); err != nil {
			return err
		}
	}
	if err := syncSource(e.bm, bkv, sourceID, units, old); err != nil {
		return fmt.Errorf("bm25: %w", err)
	}
	var refs []string
	if units != nil {
		refs = bm25.References(bm25.SourceName(sourceID), text)
	}
	if err := bm25.SetReferences(bkv, sourceID, refs); err != nil {
		return fmt.Errorf("bm25: references of %s: %w", sourceID, err)
	}
	if e.hd != nil {
		if err := syncSource(e.hd, kv, sourceID, units, old); err != nil {
			return fmt.Errorf("hdc: %w", err)
		}
	}
	if e.td != nil {
		if err := syncSource(e.td, kv, sourceID, units, old); err != nil {
			return fmt.Errorf("thinkingdb: %w", err)
		}
	}
	return nil
}

// sourceIndex is what the engine's indexes (bm25, hdc, thinkingdb) share:
// a source's units are indexed in place of its old ones, or removed.
type sourceIndex interface {
	IndexSource(kv plugin.KV, sourceID string, units []*kus.KU, oldUnitIDs []string) error
	RemoveSource(kv plugin.KV, sourceID string, oldUnitIDs []string) error
}

var (
	_ sourceIndex = (*bm25.Index)(nil)
	_ sourceIndex = (*hdc.Index)(nil)
	_ sourceIndex = (*thinkingdb.Index)(nil)
)

// syncSource indexes units as source sourceID in ix, or removes the source
// when units is nil.
func syncSource(ix sourceIndex, kv plugin.KV, sourceID string, units []*kus.KU, old []string) error {
	if units == nil {
		return ix.RemoveSource(kv, sourceID, old)
	}
	return ix.IndexSource(kv, sourceID, units, old)
}

// errorOf maps index errors to plugin result errors; a damaged knowledge
// base file stays kb_corrupt, unreadable index records become
// index_corrupt so the core rebuilds the namespace.
func errorOf(err error) *plugin.Error {
	if errors.Is(err, plugin.ErrKBCorrupt) {
		return &plugin.Error{Code: plugin.CodeKBCorrupt, Message: err.Error()}
	}
	if errors.Is(err, bm25.ErrCorrupt) || errors.Is(err, hdc.ErrCorrupt) || errors.Is(err, thinkingdb.ErrCorrupt) {
		return &plugin.Error{Code: plugin.CodeIndexCorrupt, Message: err.Error()}
	}
	return &plugin.Error{Code: plugin.CodePluginFailed, Message: err.Error()}
}

// OnSessionEvent keeps session KUs for their session; every session event is
// accepted.
func (e *Engine) OnSessionEvent(_ context.Context, ev *plugin.SessionEvent) (*plugin.SessionEventResult, error) {
	switch ev.EventType {
	case plugin.EventSessionKUsAdded:
		if ev.SessionID == "" {
			return &plugin.SessionEventResult{Status: plugin.StatusSkipped}, nil
		}
		e.mu.Lock()
		units := e.sessions[ev.SessionID]
		if units == nil {
			e.order = append(e.order, ev.SessionID)
		}
		for _, u := range ev.Units {
			if u != nil && !slices.ContainsFunc(units, func(x *kus.KU) bool { return x.ID == u.ID }) {
				units = append(units, u)
			}
		}
		if n := len(units); n > maxUnitsPerSession {
			units = units[n-maxUnitsPerSession:]
		}
		e.sessions[ev.SessionID] = units
		for len(e.order) > maxSessions {
			delete(e.sessions, e.order[0])
			e.order = e.order[1:]
		}
		e.mu.Unlock()
	case plugin.EventSessionCreated, plugin.EventKBLoaded, plugin.EventKBSaved, plugin.EventKBForked:
		// Nothing to derive: the persistent index follows the knowledge base.
	default:
		return &plugin.SessionEventResult{Status: plugin.StatusSkipped}, nil
	}
	return &plugin.SessionEventResult{Status: plugin.StatusAccepted}, nil
}

// scored is a candidate during retrieval.
type scored struct {
	id      string
	source  string
	score   float64
	why     string
	ku      *kus.KU
	session bool // a session KU, not in the persistent index
}

// Retrieve answers the kb-plugin retrieve call (docs/contracts.md, Retrieval).
func (e *Engine) Retrieve(ctx context.Context, in *plugin.RetrieveInput) (*plugin.RetrieveResult, error) {
	query, act := queryOf(in)
	res := &plugin.RetrieveResult{Status: plugin.StatusInsufficient, ResolvedIntents: []plugin.ResolvedIntent{},
		RetrievalTrace: plugin.RetrievalTrace{Purpose: purposeOf(in), KULevelsUsed: []string{}}}
	if strings.TrimSpace(query) == "" {
		return res, nil
	}
	if e.store == nil {
		res.Status = plugin.StatusUnsupported
		res.Error = &plugin.Error{Code: "no_knowledge_base", Message: e.prof.ID + " was built without a knowledge base store"}
		return res, nil
	}
	k := e.prof.MaxResults
	if in.MaxResults > 0 {
		k = in.MaxResults
	}
	kCand := max(4*k, 40)

	var rk ranking
	err := e.store.View(func(kv plugin.KV) error {
		var err error
		rk, err = e.rank(kv, query, act, kCand, kCand, false)
		return err
	})
	if err != nil {
		res.Status = plugin.StatusError
		res.Error = errorOf(err)
		return res, nil
	}
	cands, terms, considered := rk.cands, rk.terms, rk.considered
	res.RetrievalTrace.SearchedFor = rk.searched
	if rk.reasoning != nil {
		// The KUs the best proofs rest on are evidence in their own
		// right: a solver must be able to cite the chain.
		cited := map[string]string{}
		for pi := range rk.reasoning.Proofs {
			if pi >= 12 {
				break
			}
			p := &rk.reasoning.Proofs[pi]
			for _, id := range p.KUs() {
				if cited[id] == "" {
					cited[id] = p.String()
				}
			}
		}
		top := 0.0
		for _, c := range cands {
			top = max(top, c.score)
		}
		for i := range cands {
			if w, ok := cited[cands[i].id]; ok {
				cands[i].score = max(cands[i].score, top*1.05)
				if cands[i].why == "" {
					cands[i].why = w
				}
			}
		}
	}
	cands = append(cands, e.sessionCandidates(in.SessionID, terms, cands)...)
	e.weighLevels(cands, act, in.KUs)
	searched := query
	if rk.searched != "" {
		searched = rk.searched
	}
	e.boostNamedTitles(cands, terms, searched)
	e.coverSources(cands, terms, rk.idf)
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].score > cands[j].score })

	// Normalise so the best scores 1 and minScore is a relative cutoff.
	top := 0.0
	if len(cands) > 0 {
		top = cands[0].score
	}
	nm := e.namerOf(terms, searched)
	var evidence, guidance []plugin.ScoredKU
	chosen := map[string]bool{}
	levels := map[string]bool{}
	for _, c := range cands {
		if len(evidence) >= k && len(guidance) >= k {
			break
		}
		norm := 0.0
		if top > 0 {
			norm = c.score / top
		}
		if norm < e.prof.MinScore && len(evidence) > 0 {
			break
		}
		u := c.ku
		if u == nil && in.KUs != nil {
			var err error
			if u, err = in.KUs.KU(c.id); errors.Is(err, plugin.ErrKBCorrupt) {
				res.Status = plugin.StatusError
				res.Error = errorOf(err)
				return res, nil
			}
		}
		if u == nil || chosen[u.ID] || overlaps(u, chosen, in.KUs) {
			continue
		}
		item := plugin.ScoredKU{KU: u, Score: norm, Level: levelOf(u), Strategy: e.strategy(c), Why: c.why}
		if isGuidance(u) {
			if len(guidance) < k {
				guidance = append(guidance, item)
				chosen[u.ID] = true
			}
			// Guidance the question is about also answers it: "what is
			// gs-llm-fast good for?" is answered from the units that
			// guide the planner's choice of gs-llm-fast. A question is
			// about a unit when it names the unit's topic, subject or
			// page, or when the unit is its best match. The session's
			// own instructions stay guidance: they shape the answer and
			// are not a source for it.
			if c.session || !nm.about(u, in.KUs) && c.score < top {
				continue
			}
		}
		if len(evidence) >= k {
			continue
		}
		evidence = append(evidence, item)
		chosen[u.ID] = true
		levels[item.Level] = true
	}
	if len(evidence) > 0 && in.KUs != nil {
		switch act {
		case "identify":
			evidence = withListedSubsections(evidence, k, in.KUs)
		case "implement":
			evidence = withNamedSection(evidence, k, terms, rk.idf, e.an, in.KUs)
		}
	}
	sufficient := len(evidence) > 0 && e.coverage(terms, evidence) >= 0.5
	intentID, intentText := "", query
	if len(in.Intents) > 0 {
		intentID, intentText = in.Intents[0].ID, in.Intents[0].Act+": "+in.Intents[0].Target
	}
	res.ResolvedIntents = append(res.ResolvedIntents, plugin.ResolvedIntent{IntentID: intentID, Intent: intentText,
		Evidence: evidence, Guidance: guidance, Sufficient: sufficient})
	res.Sufficient = sufficient
	if sufficient {
		res.Status = plugin.StatusSuccess
	}
	for _, l := range []string{kus.LevelSummary, kus.LevelSection, kus.LevelLeaf} {
		if levels[l] {
			res.RetrievalTrace.KULevelsUsed = append(res.RetrievalTrace.KULevelsUsed, l)
		}
	}
	res.RetrievalTrace.TotalKUsConsidered = considered
	res.RetrievalTrace.SelectedKUCount = len(evidence) + len(guidance)
	return res, nil
}

// ranking is the candidates of one query, best first for BM25 and HDC,
// in fusion order for ThinkingDB.
type ranking struct {
	// searched is the query as searched when spelling corrections changed
	// it, else "".
	searched   string
	cands      []scored
	terms      []string
	idf        []float64 // of terms
	considered int
	reasoning  *thinkingdb.Reasoning // kb-thinkingdb only
}

// weakMatch is the confidence (bm25.Result.Confidence) below which a
// retrieval's first search is taken to have matched weakly.
const weakMatch = 0.6

// rank runs the profile's strategies over the persistent index: BM25
// candidates (depth units), then the HDC rerank or the ThinkingDB fusion,
// keeping k. With perSource a source appears once, as its best unit.
func (e *Engine) rank(kv plugin.KV, query, act string, depth, k int, perSource bool) (ranking, error) {
	var rk ranking
	bq := bm25.Query{Text: query, K: max(depth, k), Act: act}
	if e.hd == nil && e.td == nil {
		bq.K, bq.OnePerSource = k, perSource
	}
	bkv, err := bm25KV(kv)
	if err != nil {
		return rk, err
	}
	// Words the knowledge base does not know are searched as the closest
	// spelling it does know.
	if fixed, fixes, err := e.bm.Correct(bkv, query); err != nil {
		return rk, err
	} else if len(fixes) > 0 {
		query, bq.Text, rk.searched = fixed, fixed, fixed
	}
	// kb-balanced also searches the question's words as the knowledge
	// base's own words for the same things (synonyms and derived forms
	// from a general English lexicon, kept only where the index holds
	// them), each weighing less than the word it stands for.
	var lexExtra, terms []string
	var lexWeights, qtf []float64
	if e.hd != nil {
		terms, qtf = e.bm.QueryTerms(query)
		if lexExtra, lexWeights, err = e.bm.Expand(bkv, terms, qtf, related); err != nil {
			return rk, err
		}
		bq.Extra, bq.ExtraWeights = lexExtra, lexWeights
	}
	r, err := e.bm.SearchQuery(bkv, bq)
	if err != nil {
		return rk, fmt.Errorf("bm25: %w", err)
	}
	rk.terms, rk.idf, rk.considered = r.Terms, r.IDF, r.Considered
	// kb-balanced also searches, for a page ranking or when the question's
	// own words matched weakly (the best unit scores below
	// weakMatch of what the terms could give), the terms the best pages'
	// titles, descriptions and examples share (pseudo-relevance
	// feedback), to reach pages that say the same thing in other words.
	// A strong first match keeps the question's own words: there the added
	// terms drew in neighbouring passages. The best pages are those of the
	// question's own words (feedbackPages).
	weak := r.Confidence(e.bm.Params().K1) < weakMatch
	if e.hd != nil && (perSource || weak) && len(r.Hits) > 0 {
		fw := bm25.FeedbackWeight
		if weak && !perSource {
			fw = bm25.WeakFeedbackWeight
		}
		pages, err := e.feedbackPages(bkv, bq, r, terms, qtf)
		if err != nil {
			return rk, fmt.Errorf("bm25: %w", err)
		}
		extra, ws, err := e.bm.Feedback(bkv, pages, r.Terms, fw)
		if err != nil {
			return rk, fmt.Errorf("bm25: %w", err)
		}
		if len(extra) > 0 {
			bq.Extra = append(slices.Clip(lexExtra), extra...)
			bq.ExtraWeights = append(slices.Clip(lexWeights), ws...)
			if r, err = e.bm.SearchQuery(bkv, bq); err != nil {
				return rk, fmt.Errorf("bm25: %w", err)
			}
		}
	}
	switch {
	case e.hd != nil:
		if len(r.Hits) == 0 {
			return rk, nil
		}
		ranked, err := e.hd.Rerank(kv, hdc.Query{Text: query, Terms: r.Terms, IDF: r.IDF, K: k, OnePerSource: perSource}, r.Hits)
		if err != nil {
			return rk, fmt.Errorf("hdc: %w", err)
		}
		rk.cands = make([]scored, len(ranked))
		for i, x := range ranked {
			rk.cands[i] = scored{id: x.ID, source: x.SourceID, score: x.Score}
		}
	case e.td != nil:
		reasoning, err := e.td.Reason(kv, thinkingdb.Query{Text: query, Terms: r.Terms, IDF: r.IDF})
		if err != nil {
			return rk, fmt.Errorf("thinkingdb: %w", err)
		}
		rk.reasoning = reasoning
		fused := e.td.Fuse(r.Hits, reasoning, k, perSource)
		rk.cands = make([]scored, len(fused))
		for i, x := range fused {
			s := scored{id: x.ID, source: x.SourceID, score: x.Score}
			for _, pi := range x.Proofs {
				if s.why != "" {
					s.why += "\n"
				}
				s.why += reasoning.Proofs[pi].String()
			}
			rk.cands[i] = s
		}
		rk.considered += reasoning.Considered
	default:
		rk.cands = make([]scored, len(r.Hits))
		for i, h := range r.Hits {
			rk.cands[i] = scored{id: h.ID, source: h.SourceID, score: h.Score}
		}
	}
	if err := weighReferences(bkv, rk.cands); err != nil {
		return rk, fmt.Errorf("bm25: %w", err)
	}
	return rk, nil
}

// feedbackPages returns the hits whose pages pseudo-relevance feedback
// reads: those the question's own words (terms, weighed by qtf) find, in
// any spelling the index holds. q is the query as searched with its
// lexicon relatives and searched its result, returned as it is when the
// relatives were only other spellings. A relative may match in a sense the question does not mean ("break" as
// "pause" matches games, whose examples also move "pieces"); pages that
// only such a relative lifts among the best would hand that sense on to
// the feedback terms, which would then lift those pages above the ones
// that match the question's own words.
func (e *Engine) feedbackPages(bkv plugin.KV, q bm25.Query, searched *bm25.Result, terms []string, qtf []float64) ([]bm25.Hit, error) {
	spellings, weights, err := e.bm.Expand(bkv, terms, qtf, nil)
	if err != nil {
		return nil, err
	}
	if len(spellings) == len(q.Extra) {
		return searched.Hits, nil // no relative in meaning was added
	}
	q.Extra, q.ExtraWeights = spellings, weights
	r, err := e.bm.SearchQuery(bkv, q)
	if err != nil {
		return nil, err
	}
	return r.Hits, nil
}

// The reference prior: a source that n other sources refer to by name
// (bm25.References) scores 1 + referenceWeight*n/(n+referenceHalf) times
// its retrieval score. The gain saturates, so a name every page uses (echo,
// git) gains little more than one a handful of pages use: the prior breaks
// near-ties in favour of the page writers point readers to, and does not
// lift a page the question hardly matches.
const (
	referenceWeight = 0.2
	referenceHalf   = 3.0
)

// weighReferences applies the reference prior to the candidates and sorts
// them again, best first (stable, so equal scores keep their order).
func weighReferences(bkv plugin.KV, cands []scored) error {
	if len(cands) == 0 {
		return nil
	}
	prior := map[string]float64{}
	for i := range cands {
		src := cands[i].source
		m, ok := prior[src]
		if !ok {
			n, err := bm25.Referrers(bkv, bm25.SourceName(src))
			if err != nil {
				return err
			}
			m = 1 + referenceWeight*float64(n)/(float64(n)+referenceHalf)
			prior[src] = m
		}
		cands[i].score *= m
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].score > cands[j].score })
	return nil
}

func (e *Engine) strategy(c scored) string {
	switch {
	case c.session:
		return "session"
	case e.td != nil && c.why != "":
		return "thinkingdb"
	case e.hd != nil:
		return "bm25+hdc"
	}
	return "bm25"
}

// queryOf builds the query text from the intents (targets, context,
// criterion), else the prompt, and returns the first intent's act.
func queryOf(in *plugin.RetrieveInput) (string, string) {
	var parts []string
	act := ""
	for _, it := range in.Intents {
		if act == "" {
			act = it.Act
		}
		for _, s := range []string{it.Target, it.Context, it.Criterion} {
			if s = strings.TrimSpace(s); s != "" {
				parts = append(parts, s)
			}
		}
	}
	if len(parts) == 0 {
		parts = append(parts, in.Payload.Prompt)
	}
	q := strings.Join(parts, " ")
	if len(q) > 4096 {
		q = q[:4096]
	}
	return q, act
}

func purposeOf(in *plugin.RetrieveInput) string {
	if in.Purpose == "" {
		return plugin.PurposeTaskEvidence
	}
	return in.Purpose
}

// isGuidance reports whether a KU guides a phase rather than informs the
// answer: it is scoped to phases other than kb-plugin only.
func isGuidance(u *kus.KU) bool {
	return len(u.PhaseScopes) > 0 && !slices.Contains(u.PhaseScopes, "kb-plugin")
}

func levelOf(u *kus.KU) string {
	if u.Level == "" {
		return kus.LevelLeaf
	}
	return u.Level
}

// about reports whether the question is about what u describes: it names
// u's topic or symbolic subject, or the title of a section or page that
// encloses u (the plugin a plugin.kus.md unit belongs to). A nil namer
// names nothing.
func (nm *namer) about(u *kus.KU, r plugin.KUReader) bool {
	if nm == nil {
		return false
	}
	if nm.names(u.Topic) || nm.names(u.SymbolicSubject) {
		return true
	}
	p := u
	for depth := 0; depth < 3 && len(p.ParentUnitIDs) > 0 && r != nil; depth++ {
		next, err := r.KU(p.ParentUnitIDs[0])
		if err != nil || next == nil {
			return false
		}
		if nm.names(next.Title) {
			return true
		}
		p = next
	}
	return false
}

// declared reports whether u is a leaf that states its own Claim or
// Procedure with no page text of its own (a Context Unit): the sections
// and summary that enclose it do not hold that statement, so choosing
// them does not cover it.
func declared(u *kus.KU) bool {
	return levelOf(u) == kus.LevelLeaf && u.TextBody == "" && (u.Claim != "" || u.Procedure != "")
}

// overlaps reports whether a chosen KU already covers u: its parent or
// grandparent (a section or summary holding the same text) or its child.
// A declared unit is covered by neither, nor does it cover its parent.
func overlaps(u *kus.KU, chosen map[string]bool, r plugin.KUReader) bool {
	for _, c := range u.ChildUnitIDs {
		if chosen[c] && (r == nil || !declaredID(c, r)) {
			return true
		}
	}
	if declared(u) {
		return false
	}
	p := u
	for depth := 0; depth < 3 && len(p.ParentUnitIDs) > 0; depth++ {
		pid := p.ParentUnitIDs[0]
		if chosen[pid] {
			return true
		}
		if r == nil {
			break
		}
		next, err := r.KU(pid)
		if err != nil || next == nil {
			break
		}
		p = next
	}
	return false
}

// declaredID reports whether the unit with the given id is declared.
func declaredID(id string, r plugin.KUReader) bool {
	u, err := r.KU(id)
	return err == nil && u != nil && declared(u)
}

// coverage is the share of query terms found in the evidence text.
func (e *Engine) coverage(terms []string, ev []plugin.ScoredKU) float64 {
	if len(terms) == 0 {
		return 0
	}
	have := map[string]bool{}
	for i, s := range ev {
		if i >= 3 {
			break
		}
		for _, t := range e.an.Append(nil, s.KU.Title+" "+s.KU.Topic+" "+s.KU.Text()+" "+s.KU.TextBody) {
			have[t] = true
		}
	}
	return symbolic.Overlap(terms, have)
}

// sessionCandidates scores the session's KUs by query-term overlap, on the
// scale of the best index candidate.
func (e *Engine) sessionCandidates(sessionID string, terms []string, index []scored) []scored {
	if sessionID == "" || len(terms) == 0 {
		return nil
	}
	e.mu.Lock()
	units := slices.Clone(e.sessions[sessionID])
	e.mu.Unlock()
	if len(units) == 0 {
		return nil
	}
	top := 1.0
	for _, c := range index {
		top = max(top, c.score)
	}
	want := map[string]bool{}
	for _, t := range terms {
		want[t] = true
	}
	var out []scored
	for _, u := range units {
		hit := map[string]bool{}
		for _, t := range e.an.Append(nil, u.Title+" "+u.Topic+" "+u.Text()) {
			if want[t] {
				hit[t] = true
			}
		}
		if len(hit) == 0 && !isGuidance(u) {
			continue
		}
		score := top * float64(len(hit)) / float64(len(terms))
		if isGuidance(u) {
			score = max(score, top*0.5) // the user's own instructions for this turn always travel
		}
		out = append(out, scored{id: u.ID, score: score, ku: u, session: true})
	}
	return out
}

// levelWeight scales aggregate KUs by how well their level suits the act:
// overviews (describe, evaluate) take summaries and sections as they are;
// specific tasks prefer the leaves that state the facts.
func levelWeight(level, act string) float64 {
	switch act {
	case "describe", "evaluate", "":
		return 1
	}
	switch level {
	case kus.LevelSummary:
		return 0.6
	case kus.LevelSection:
		return 0.85
	}
	return 1
}

// weighLevels loads each candidate's KU (kept for the selection) and
// applies levelWeight.
func (e *Engine) weighLevels(cands []scored, act string, r plugin.KUReader) {
	if r == nil {
		return
	}
	for i := range cands {
		if cands[i].ku == nil {
			if u, err := r.KU(cands[i].id); err == nil && u != nil {
				cands[i].ku = u
			}
		}
		if cands[i].ku != nil {
			cands[i].score *= levelWeight(levelOf(cands[i].ku), act)
		}
	}
}

// titleBoost multiplies the score of a KU whose short title is named in
// full by the query ("with jq", "my crontab"): users name the tool or the
// entity they ask about, and an exact name beats a page that merely shares
// a part of it (jq over python-m-json.tool, sed over git-sed). A name is
// named as it is written: the question must hold each word of the title
// verbatim (letter case and number aside), not merely a word of the same
// stem ("two sorted files" does not name sort, nor "splitting" split).
const titleBoost = 1.6

// writes reports whether the question's words hold title word w as
// written, in the singular or the plural ("logging levels" names "Level
// logging"; "sorted" does not name "sort").
func writes(words map[string]bool, w string) bool {
	return words[w] || words[w+"s"] || words[w+"es"] || (strings.HasSuffix(w, "s") && words[strings.TrimSuffix(w, "s")])
}

// nameTrim is the punctuation around a word that is not part of a name.
const nameTrim = "?!,;:.()[]{}\"'`“”‘’<>"

func (e *Engine) boostNamedTitles(cands []scored, terms []string, query string) {
	nm := e.namerOf(terms, query)
	if nm == nil {
		return
	}
	named := map[string]bool{} // the one-word titles the question names
	boosted := make([]bool, len(cands))
	for i := range cands {
		if u := cands[i].ku; u != nil && nm.names(u.Title) {
			cands[i].score *= titleBoost
			boosted[i] = true
			if !strings.ContainsAny(u.Title, " \t") {
				named[strings.ToLower(u.Title)] = true
			}
		}
	}
	for i := range cands {
		if u := cands[i].ku; u != nil && !boosted[i] && e.extendsName(u.Title, named) {
			cands[i].score *= extendedBoost
		}
	}
}

// extendedBoost multiplies the score of a KU whose title extends a name
// the question names ("sshfs" or "ssh-copy-id" when the question names
// ssh, "git commit" when it names git): a subcommand or a tool built on
// the named one is about it too, and often the one that does what the
// question asks ("mount a folder over SSH"), while the named tool's page
// matches only the name. It stays below titleBoost, so that on an equal
// match the page named in full goes first.
const extendedBoost = 1.4

// extendsName reports whether title, in lower case, starts with one of
// the named one-word titles and goes on after it: after a separator
// ("git commit", "ssh-copy-id", "mkfs.ext4"), or right away when the name
// is no English word ("sshfs" of ssh). An English word runs on into
// other words and names ("findfs" is not a kind of find, nor "topgrade" of
// top).
func (e *Engine) extendsName(title string, named map[string]bool) bool {
	t := strings.ToLower(title)
	for w := range named {
		if len(t) <= len(w) || !strings.HasPrefix(t, w) {
			continue
		}
		if strings.ContainsRune(nameSeparators, rune(t[len(w)])) || !e.englishWord(w) {
			return true
		}
	}
	return false
}

// nameSeparators are the characters that join the parts of a compound
// name.
const nameSeparators = " \t-._:"

// englishWord reports whether the general English lexicon knows w.
func (e *Engine) englishWord(w string) bool {
	terms := e.an.Append(nil, w)
	return len(terms) == 1 && lexicon.Senses(terms[0]) > 0
}

// namer tells whether a question names a title in full (see titleBoost).
type namer struct {
	an    *text.Analyzer
	terms map[string]bool // the question's analysed terms
	words map[string]bool // its words as written, and the parts of compounds
}

// namerOf returns the namer of a question with the given analysed terms,
// or nil when it has none.
func (e *Engine) namerOf(terms []string, query string) *namer {
	if len(terms) == 0 {
		return nil
	}
	nm := &namer{an: e.an, terms: make(map[string]bool, len(terms)), words: map[string]bool{}}
	for _, t := range terms {
		nm.terms[t] = true
	}
	for _, w := range strings.Fields(strings.ToLower(query)) {
		w = strings.Trim(w, nameTrim)
		nm.words[w] = true
		// and the parts of a compound ("tar.gz" names tar, "git-stash" git)
		for _, p := range strings.FieldsFunc(w, func(r rune) bool { return strings.ContainsRune("./-_+=:@", r) }) {
			nm.words[p] = true
		}
	}
	return nm
}

// names reports whether the question names title: a short title (at most
// three whole terms) each of whose terms the question holds and each of
// whose words it writes as written.
func (nm *namer) names(title string) bool {
	if i := strings.LastIndex(title, ": "); i > 0 && nm.names(strings.Trim(title[i+2:], "` ")) {
		// A heading that names the command or thing it documents after
		// what it is about ("Searching and measuring retrieval: mrpvm
		// search") is named by that name.
		return true
	}
	if title == "" || len(title) > 40 {
		return false
	}
	var whole []string
	nm.an.Each(title, func(tok text.Token) {
		if !tok.Part {
			whole = append(whole, tok.Term)
		}
	})
	if len(whole) == 0 || len(whole) > 3 {
		return false
	}
	for _, t := range whole {
		if !nm.terms[t] {
			return false
		}
	}
	words := strings.Fields(strings.ToLower(title))
	for _, w := range words {
		w = strings.Trim(w, nameTrim)
		// A one-word title is a name (a command, a page), and a name
		// ending in s is a word of its own, not a plural: "the current
		// time" does not name times, nor "a typo" typos.
		if len(words) == 1 && strings.HasSuffix(w, "s") && !nm.words[w] {
			return false
		}
		if !writes(nm.words, w) && len(nm.an.Append(nil, w)) > 0 {
			return false
		}
	}
	return true
}

// coverBonus is how much a unit gains for each share of the question's
// (idf-weighted) terms that its source's other candidate units cover and
// it does not.
const coverBonus = 0.3

// coverSources gives a page-level view: when several candidate units of
// one source match different terms of the question, the source as a whole
// covers more of it than any one unit, and each of its units gains
// coverBonus times the idf-weighted share of the terms the source covers
// beyond the unit's own. A source with a single candidate unit (a one-leaf
// page) gains nothing, so nothing is counted twice.
func (e *Engine) coverSources(cands []scored, terms []string, idf []float64) {
	if len(terms) < 2 || len(idf) != len(terms) {
		return
	}
	var total float64
	for _, v := range idf {
		total += v
	}
	if total <= 0 {
		return
	}
	n := map[string]int{}
	for _, c := range cands {
		if c.ku != nil && !c.session {
			n[c.source]++
		}
	}
	q := make(map[string]int, len(terms))
	for i, t := range terms {
		q[t] = i
	}
	own := make([]uint64, len(cands))
	src := map[string]uint64{}
	for i, c := range cands {
		if c.ku == nil || c.session || n[c.source] < 2 {
			continue
		}
		var m uint64
		for _, f := range bm25.FieldTexts(c.ku) {
			e.an.Each(f, func(tok text.Token) {
				if j, ok := q[tok.Term]; ok && j < 64 {
					m |= 1 << j
				}
			})
		}
		own[i] = m
		src[c.source] |= m
	}
	cover := func(m uint64) float64 {
		var s float64
		for j := 0; j < len(idf) && j < 64; j++ {
			if m&(1<<j) != 0 {
				s += idf[j]
			}
		}
		return s / total
	}
	for i, c := range cands {
		if own[i] == 0 {
			continue
		}
		if extra := src[c.source] &^ own[i]; extra != 0 {
			cands[i].score *= 1 + coverBonus*cover(extra)
		}
	}
}

// withListedSubsections adds to the evidence of a list question the
// subsection (or part) that follows the opening paragraph of a section
// when that paragraph is the best evidence and the part tables or lists
// something. A section that opens by saying what it offers ("chi comes
// equipped with a middleware package, providing a suite of standard
// middlewares.") and then tables the members under a subheading ("Core
// middlewares") states the list there; the table's rows repeat little of
// the question's wording, so the search alone ranks the opening paragraph
// far above them. The evidence stays within k units: the part takes the
// place of the weakest.
func withListedSubsections(evidence []plugin.ScoredKU, k int, r plugin.KUReader) []plugin.ScoredKU {
	best := evidence[0]
	u := best.KU
	if k < 2 || levelOf(u) != kus.LevelLeaf || len(u.ParentUnitIDs) == 0 {
		return evidence
	}
	section, err := r.KU(u.ParentUnitIDs[0])
	if err != nil || section == nil || len(section.ChildUnitIDs) < 2 || section.ChildUnitIDs[0] != u.ID {
		return evidence
	}
	next, err := r.KU(section.ChildUnitIDs[1])
	if err != nil || next == nil || !holdsList(next.TextBody) {
		return evidence
	}
	kept := evidence[:min(len(evidence), k-1)]
	chosen := map[string]bool{}
	for _, e := range kept {
		chosen[e.KU.ID] = true
	}
	if slices.ContainsFunc(evidence, func(e plugin.ScoredKU) bool { return e.KU.ID == next.ID }) || overlaps(next, chosen, r) {
		return evidence
	}
	return append(kept, plugin.ScoredKU{KU: next, Score: best.Score * listedShare, Level: levelOf(next), Strategy: best.Strategy, Why: "listed under " + u.Title})
}

// listedShare is the score of a gathered subsection relative to the
// opening paragraph it was gathered for: it ranks just below it.
const listedShare = 0.9

// minListLines is the fewest table rows or list items a unit's text must
// hold to count as a list.
const minListLines = 3

// holdsList reports whether a unit's text holds a table or a bulleted
// list: at least minListLines rows or items (listLines, numbered items
// aside).
func holdsList(body string) bool {
	return listLines(body, false) >= minListLines
}
