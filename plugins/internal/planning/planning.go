package planning

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/mrpvm/mrpvm/plugin"
)

// PluginStats are one plugin's learned statistics.
type PluginStats struct {
	Attempts        int     `json:"attempts"`
	Successes       int     `json:"successes"`
	Failures        int     `json:"failures"`
	Insufficient    int     `json:"insufficient"`
	SuccessEWMA     float64 `json:"successEWMA"`
	SufficiencyEWMA float64 `json:"sufficiencyEWMA"`
	LatencyMsEWMA   float64 `json:"latencyMsEWMA"`
	LLMCallsEWMA    float64 `json:"llmCallsEWMA"`
}

// PlannerStats are a planner's own statistics.
type PlannerStats struct {
	Requests       int     `json:"requests"`
	SuccessEWMA    float64 `json:"successEWMA"`
	NoContextEWMA  float64 `json:"noContextEWMA"`
	LatencyMsEWMA  float64 `json:"latencyMsEWMA"`
	LastFinalState string  `json:"lastFinalStatus,omitempty"`
}

func newPluginStats() *PluginStats {
	return &PluginStats{SuccessEWMA: 0.7, SufficiencyEWMA: 0.7, LatencyMsEWMA: 250}
}

// Utility is a plugin's utility from its statistics: success, plus a
// little sufficiency, less latency (up to 0.5) and LLM calls (up to 0.3).
func (s *PluginStats) Utility() float64 {
	return s.SuccessEWMA + 0.15*s.SufficiencyEWMA - latencyPenalty(s.LatencyMsEWMA) - clamp(0.05*s.LLMCallsEWMA, 0, 0.3)
}

// latencyStepMs is the resolution at which learned latency counts against a
// plugin. Differences below it are ones a user does not notice and that
// change with how busy the machine is; counting them would let machine load
// reorder plugins, so the same question on the same knowledge base could get
// a different answer from one run to the next.
const latencyStepMs = 100

// latencyPenalty is the utility a plugin loses for its learned latency:
// whole steps of latencyStepMs, 0.02 per 100 ms, at most 0.5.
func latencyPenalty(ms float64) float64 {
	return clamp(math.Floor(ms/latencyStepMs)*latencyStepMs/5000, 0, 0.5)
}

func clamp(v, lo, hi float64) float64 { return math.Max(lo, math.Min(hi, v)) }

// Learner keeps the statistics of one planner, in memory and in its store
// (key "stat/<plugin id>" and "planner").
type Learner struct {
	alpha   float64
	store   plugin.Store
	mu      sync.Mutex
	plugins map[string]*PluginStats
	planner PlannerStats
	loaded  bool
}

// NewLearner builds a learner over a planner's store (nil: memory only).
func NewLearner(alpha float64, store plugin.Store) *Learner {
	return &Learner{alpha: alpha, store: store, plugins: map[string]*PluginStats{},
		planner: PlannerStats{SuccessEWMA: 0.7, NoContextEWMA: 0.1, LatencyMsEWMA: 400}}
}

func (l *Learner) load() {
	if l.loaded {
		return
	}
	l.loaded = true
	if l.store == nil {
		return
	}
	_ = l.store.View(func(kv plugin.KV) error {
		_ = kv.Scan([]byte("stat/"), nil, func(k, v []byte) error {
			s := newPluginStats()
			if json.Unmarshal(v, s) == nil {
				l.plugins[string(k[len("stat/"):])] = s
			}
			return nil
		})
		if v := kv.Get([]byte("planner")); v != nil {
			_ = json.Unmarshal(v, &l.planner)
		}
		return nil
	})
}

// Stats returns a copy of one plugin's statistics and whether any exist.
func (l *Learner) Stats(id string) (PluginStats, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.load()
	s, ok := l.plugins[id]
	if !ok {
		return *newPluginStats(), false
	}
	return *s, true
}

// Planner returns a copy of the planner's own statistics.
func (l *Learner) Planner() PlannerStats {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.load()
	return l.planner
}

func (l *Learner) ewma(old, x float64) float64 { return old + l.alpha*(x-old) }

// Record folds one request's outcome into the statistics and persists them.
// skipped-budget stages teach nothing and are ignored.
func (l *Learner) Record(_ context.Context, o *plugin.Outcome) error {
	l.mu.Lock()
	l.load()
	touched := map[string]bool{}
	var total int64
	for _, st := range o.Stages {
		total += st.DurationMs
		if st.Status == plugin.StatusSkippedBudget || st.PluginID == "" {
			continue
		}
		s := l.plugins[st.PluginID]
		if s == nil {
			s = newPluginStats()
			l.plugins[st.PluginID] = s
		}
		s.Attempts++
		ok := 0.0
		switch st.Status {
		case plugin.StatusSuccess, plugin.StatusAccepted:
			s.Successes++
			ok = 1
		case plugin.StatusInsufficient, plugin.StatusNoContext:
			s.Insufficient++
			ok = 0.5
		default:
			s.Failures++
		}
		s.SuccessEWMA = l.ewma(s.SuccessEWMA, ok)
		if st.Sufficient != nil {
			v := 0.0
			if *st.Sufficient {
				v = 1
			}
			s.SufficiencyEWMA = l.ewma(s.SufficiencyEWMA, v)
		}
		s.LatencyMsEWMA = l.ewma(s.LatencyMsEWMA, float64(st.DurationMs))
		s.LLMCallsEWMA = l.ewma(s.LLMCallsEWMA, float64(st.LLMCalls))
		touched[st.PluginID] = true
	}
	p := &l.planner
	p.Requests++
	p.SuccessEWMA = l.ewma(p.SuccessEWMA, b2f(o.FinalStatus == "success" && o.FinalAnswerStatus == "answered"))
	p.NoContextEWMA = l.ewma(p.NoContextEWMA, b2f(o.FinalAnswerStatus == "no-context"))
	p.LatencyMsEWMA = l.ewma(p.LatencyMsEWMA, float64(total))
	p.LastFinalState = o.FinalStatus
	snapshot := map[string][]byte{}
	for id := range touched {
		b, _ := json.Marshal(l.plugins[id])
		snapshot["stat/"+id] = b
	}
	pb, _ := json.Marshal(p)
	snapshot["planner"] = pb
	l.mu.Unlock()
	if l.store == nil {
		return nil
	}
	err := l.store.Update(func(kv plugin.KV) error {
		for k, v := range snapshot {
			if err := kv.Put([]byte(k), v); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("planner statistics: %w", err)
	}
	return nil
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// Signals are what a planner reads from the task.
type Signals struct {
	Acts      []string
	Words     map[string]bool // lower-cased words of the prompt and intents
	Deep      bool            // multi-hop or recovery: causal cues, several intents, a previous failed attempt
	Fast      bool            // the user asked for speed
	Intents   int
	HasLLM    bool
	Remaining int // LLM calls left in the request
}

var deepCues = []string{"why", "because", "chain", "cause", "relationship", "relevant", "depends", "lead to", "leads to", "how does", "trace", "multi-hop", "benefit", "implication"}

// Read extracts the task signals from a plan input and run context.
func Read(in *plugin.PlanInput, rc plugin.RunContext) Signals {
	s := Signals{Words: map[string]bool{}, Intents: len(in.Intents), HasLLM: rc.LLM != nil, Remaining: rc.Budgets.RemainingLLMCalls}
	var all strings.Builder
	all.WriteString(in.Payload.Prompt)
	for _, it := range in.Intents {
		s.Acts = append(s.Acts, it.Act)
		all.WriteString(" " + it.Target + " " + it.Context)
	}
	low := strings.ToLower(all.String())
	for _, w := range strings.FieldsFunc(low, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') }) {
		s.Words[w] = true
	}
	for _, c := range deepCues {
		if strings.Contains(low, c) {
			s.Deep = true
		}
	}
	s.Deep = s.Deep || len(in.Intents) > 1 || len(in.PreviousAttempts) > 0
	for _, g := range in.Guidance {
		for _, k := range g {
			if k.KU == nil {
				continue
			}
			t := strings.ToLower(k.KU.Text())
			s.Fast = s.Fast || strings.Contains(t, "quick") || strings.Contains(t, "fast")
			s.Deep = s.Deep || strings.Contains(t, "deep") || strings.Contains(t, "thorough") || strings.Contains(t, "thinkingdb") || strings.Contains(t, "multi-hop")
		}
	}
	return s
}

// Scored is a candidate with its score and the reason.
type Scored struct {
	ID     string
	Score  float64
	Reason string
}

// Score rates one candidate: learned utility (0.6 without history) plus
// descriptor hints matched to the task, with cost weighed by heaviness
// (-1: cheap first, +1: heavy first).
func Score(d plugin.Descriptor, l *Learner, sig Signals, heaviness float64) Scored {
	st, seen := l.Stats(d.ID)
	u := 0.6
	if seen {
		u = st.Utility()
	}
	h := d.PlannerHints
	if h == nil {
		h = &plugin.PlannerHints{}
	}
	score := u
	var why []string
	why = append(why, fmt.Sprintf("utility %.2f", u))
	for _, a := range sig.Acts {
		if slices.Contains(h.SupportedActs, a) {
			score += 0.15 * math.Max(h.ConfidenceWhenMatched, 0.5)
			why = append(why, "supports "+a)
			break
		}
	}
	tagHits := 0
	for _, t := range h.TopicTags {
		if sig.Words[strings.ToLower(t)] {
			tagHits++
		}
	}
	for _, w := range strings.Fields(strings.ToLower(d.Description)) {
		w = strings.Trim(w, ".,;:()")
		if len(w) > 4 && sig.Words[w] {
			tagHits++
		}
	}
	score += 0.03 * math.Min(float64(tagHits), 5)
	// Depth: a deep task favours deep plugins and the reverse.
	switch h.PreferredDepth {
	case "deep":
		if sig.Deep {
			score += 0.2
		} else {
			score -= 0.05
		}
	case "shallow":
		if sig.Deep {
			score -= 0.05
		} else {
			score += 0.05
		}
	}
	// Cost: heaviness -1 prefers cheap plugins, +1 prefers heavy ones.
	cost := clamp(h.RelativeCost, 0, 1) + clamp(float64(h.ExpectedLatencyMs)/5000, 0, 0.5) + clamp(0.05*float64(h.ExpectedLLMCalls), 0, 0.3)
	if sig.Fast {
		heaviness -= 0.5
	}
	score += heaviness * 0.3 * cost
	if d.UsesLLM && !sig.HasLLM {
		score -= 1
		why = append(why, "no model configured")
	}
	if d.MaxLLMCalls > sig.Remaining {
		score -= 1
		why = append(why, "over the LLM budget")
	}
	return Scored{ID: d.ID, Score: score, Reason: strings.Join(why, ", ")}
}

// Order ranks a family's candidates; a pin returns the pinned plugin alone
// and a session preference goes first, keeping the others as fallbacks.
func Order(cands []plugin.Descriptor, l *Learner, sig Signals, heaviness float64, pin, pref string) ([]string, []string) {
	if pin != "" {
		return []string{pin}, []string{"pinned " + pin}
	}
	scored := make([]Scored, 0, len(cands))
	var skipped, unfit []string
	for _, d := range cands {
		// With no model configured an LLM plugin can only answer
		// unsupported: route around it instead of trying it last.
		if d.UsesLLM && !sig.HasLLM && d.ID != pref {
			skipped = append(skipped, d.ID)
			continue
		}
		scored = append(scored, Score(d, l, sig, heaviness))
	}
	// Plugins whose descriptor and hints clearly do not fit the task are
	// dropped, as long as one that fits remains.
	var fitting []Scored
	for _, s := range scored {
		if s.ID != pref && !Fits(descriptorOf(cands, s.ID), sig) {
			unfit = append(unfit, s.ID)
			continue
		}
		fitting = append(fitting, s)
	}
	if len(fitting) > 0 {
		scored = fitting
	} else {
		unfit = nil
	}
	sort.SliceStable(scored, func(i, j int) bool { return scored[i].Score > scored[j].Score })
	var ids, notes []string
	if pref != "" && slices.ContainsFunc(cands, func(d plugin.Descriptor) bool { return d.ID == pref }) {
		ids = append(ids, pref)
		notes = append(notes, "session prefers "+pref)
	}
	for _, s := range scored {
		if !slices.Contains(ids, s.ID) {
			ids = append(ids, s.ID)
		}
	}
	if len(scored) > 0 {
		notes = append(notes, fmt.Sprintf("%s first (%.2f: %s)", scored[0].ID, scored[0].Score, scored[0].Reason))
	}
	if len(skipped) > 0 {
		notes = append(notes, "no model configured, left out: "+strings.Join(skipped, ", "))
	}
	if len(unfit) > 0 {
		notes = append(notes, "dropped as irrelevant to this task: "+strings.Join(unfit, ", "))
	}
	return ids, notes
}

// Fits reports whether a plugin plausibly serves the task. A plugin is
// clearly irrelevant when its hints declare acts and none is the task's,
// it declares topic tags, all specific (no "general"), none in the task,
// no significant word of its description occurs in the task, and it is
// not a deep plugin asked for a deep task.
func Fits(d plugin.Descriptor, sig Signals) bool {
	h := d.PlannerHints
	if h == nil || len(h.SupportedActs) == 0 || len(h.TopicTags) == 0 || len(sig.Acts) == 0 {
		return true
	}
	for _, a := range sig.Acts {
		if slices.Contains(h.SupportedActs, a) {
			return true
		}
	}
	for _, t := range h.TopicTags {
		if t = strings.ToLower(t); t == "general" || sig.Words[t] {
			return true
		}
	}
	for _, w := range strings.Fields(strings.ToLower(d.Description)) {
		if w = strings.Trim(w, ".,;:()"); len(w) > 4 && sig.Words[w] {
			return true
		}
	}
	return h.PreferredDepth == "deep" && sig.Deep
}

func descriptorOf(cands []plugin.Descriptor, id string) plugin.Descriptor {
	for _, d := range cands {
		if d.ID == id {
			return d
		}
	}
	return plugin.Descriptor{}
}
