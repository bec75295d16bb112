package llm

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/mrpvm/mrpvm/plugin"
)

// Stats is the LLM use of one plugin (Meter.Report) or of one stage call
// (StageMeter.Stats): what the trace shows as llmCalls, model and
// modelRole.
type Stats struct {
	PluginID string `json:"pluginId"`
	// Calls counts the calls charged to the budget: every call that
	// reached the model server or the cache, whether it succeeded or not.
	Calls int `json:"llmCalls"`
	// CacheHits counts the charged calls answered from the cache.
	CacheHits int `json:"cacheHits,omitempty"`
	// Failed counts the charged calls that returned an error.
	Failed int `json:"failed,omitempty"`
	// Refused counts the calls refused for lack of budget (not charged).
	Refused int `json:"refused,omitempty"`
	// Model is the model of the latest charged call (as the server named
	// it, else as configured); Role is its model role.
	Model string `json:"model,omitempty"`
	Role  string `json:"modelRole,omitempty"`
	// Models and Roles list every model and role used, in first-use order.
	Models []string `json:"models,omitempty"`
	Roles  []string `json:"roles,omitempty"`
	// Usage sums the token counts the server reported.
	Usage Usage `json:"usage"`
	// LastError is the code of the latest failure, refusals included.
	LastError string `json:"lastError,omitempty"`
}

func (s *Stats) record(req plugin.LLMRequest, r *ChatResponse, err error) {
	s.Calls++
	if req.Role != "" {
		s.Role = req.Role
		if !slices.Contains(s.Roles, req.Role) {
			s.Roles = append(s.Roles, req.Role)
		}
	}
	model := ""
	if r != nil {
		model = r.Model
		if r.Cached {
			s.CacheHits++
		}
		s.Usage.PromptTokens += r.Usage.PromptTokens
		s.Usage.CompletionTokens += r.Usage.CompletionTokens
		s.Usage.TotalTokens += r.Usage.TotalTokens
	}
	if err != nil {
		s.Failed++
		s.LastError = CodeOf(err)
		if s.LastError == "" {
			s.LastError = plugin.ErrorOf(err).Code
		}
		var e *Error
		if errors.As(err, &e) {
			model = e.Model
		}
	}
	if model != "" {
		s.Model = model
		if !slices.Contains(s.Models, model) {
			s.Models = append(s.Models, model)
		}
	}
}

func (s Stats) clone() Stats {
	s.Models = slices.Clone(s.Models)
	s.Roles = slices.Clone(s.Roles)
	return s
}

// Meter is the plugin.LLM of one request: it charges every call against the
// request's LLM budget (plugin.Budgets.MaxLLMCalls / RemainingLLMCalls) and
// refuses with CodeBudget, without calling the model, once it is spent. A
// call is charged when it reaches the model server or the cache, success or
// not (a cache hit is charged too, so a run behaves the same with and
// without --llm-cache); calls that never left the process (no endpoint
// configured, context already done) are refunded. It is safe for
// concurrent use. The inner plugin.LLM may be nil (no endpoint configured):
// every call then fails with CodeNotConfigured.
type Meter struct {
	inner plugin.LLM
	max   int

	mu    sync.Mutex
	used  int
	stats map[string]*Stats
	order []string
}

var _ plugin.LLM = (*Meter)(nil)

// NewMeter returns a meter over inner (usually a *Bridge) with a budget of
// maxCalls per request: 0 allows no call, a negative value no limit.
func NewMeter(inner plugin.LLM, maxCalls int) *Meter {
	return &Meter{inner: inner, max: maxCalls, stats: map[string]*Stats{}}
}

// Max returns the budget (negative: unlimited).
func (m *Meter) Max() int { return m.max }

// Used returns the calls charged so far (in-flight calls included).
func (m *Meter) Used() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.used
}

// Remaining returns what is left of the budget, never below 0; -1 when
// the budget is unlimited. It is plugin.Budgets.RemainingLLMCalls.
func (m *Meter) Remaining() int {
	if m.max < 0 {
		return -1
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return max(m.max-m.used, 0)
}

// Budgets returns b with MaxLLMCalls and RemainingLLMCalls set from the
// meter, for the run context of the next plugin call.
func (m *Meter) Budgets(b plugin.Budgets) plugin.Budgets {
	b.MaxLLMCalls, b.RemainingLLMCalls = m.max, m.Remaining()
	return b
}

// Complete implements plugin.LLM, charging the call to req.PluginID.
func (m *Meter) Complete(ctx context.Context, req plugin.LLMRequest) (*plugin.LLMResponse, error) {
	return m.complete(ctx, req, nil)
}

// Stage returns the plugin.LLM to hand one plugin for one stage call. It
// stamps every request with pluginID (a plugin cannot borrow another's
// override or budget line), enforces the plugin's declared maxLLMCalls for
// this stage (0: no per-stage cap) on top of the request budget, and keeps
// the stage's Stats for the trace.
func (m *Meter) Stage(pluginID string, maxCalls int) *StageMeter {
	return &StageMeter{m: m, pluginID: pluginID, max: maxCalls, stats: Stats{PluginID: pluginID}}
}

// Plugin returns the use of one plugin over the whole request.
func (m *Meter) Plugin(id string) Stats {
	m.mu.Lock()
	defer m.mu.Unlock()
	if s, ok := m.stats[id]; ok {
		return s.clone()
	}
	return Stats{PluginID: id}
}

// Report returns the use of every plugin that called (or tried to call)
// the model, in first-call order.
func (m *Meter) Report() []Stats {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]Stats, 0, len(m.order))
	for _, id := range m.order {
		out = append(out, m.stats[id].clone())
	}
	return out
}

func (m *Meter) pluginStats(id string) *Stats {
	s, ok := m.stats[id]
	if !ok {
		s = &Stats{PluginID: id}
		m.stats[id] = s
		m.order = append(m.order, id)
	}
	return s
}

// complete charges, calls and records. st is the stage's stats, or nil.
func (m *Meter) complete(ctx context.Context, req plugin.LLMRequest, st *StageMeter) (*plugin.LLMResponse, error) {
	if m.inner == nil {
		return nil, &Error{Code: CodeNotConfigured, Message: describeWho(req.PluginID, req.Role) + ": " + Hint}
	}
	m.mu.Lock()
	var refuse *Error
	switch {
	case m.max >= 0 && m.used >= m.max:
		refuse = &Error{Code: CodeBudget, Message: fmt.Sprintf("%s: the request's LLM budget of %d calls is spent", describeWho(req.PluginID, req.Role), m.max)}
	case st != nil && st.max > 0 && st.charged >= st.max:
		refuse = &Error{Code: CodeBudget, Message: fmt.Sprintf("%s: the plugin declared maxLLMCalls %d and has made them in this stage", describeWho(req.PluginID, req.Role), st.max)}
	}
	if refuse != nil {
		ps := m.pluginStats(req.PluginID)
		ps.Refused++
		ps.LastError = CodeBudget
		if st != nil {
			st.stats.Refused++
			st.stats.LastError = CodeBudget
		}
		m.mu.Unlock()
		return nil, refuse
	}
	m.used++
	if st != nil {
		st.charged++
	}
	m.mu.Unlock()

	var (
		r   *ChatResponse
		err error
	)
	if ch, ok := m.inner.(Chatter); ok {
		r, err = ch.Chat(ctx, req)
	} else {
		var sr *plugin.LLMResponse
		sr, err = m.inner.Complete(ctx, req)
		if sr != nil {
			r = &ChatResponse{Text: sr.Text, Model: sr.Model, Usage: Usage{PromptTokens: sr.PromptTokens,
				CompletionTokens: sr.CompletionTokens, TotalTokens: sr.PromptTokens + sr.CompletionTokens}}
		}
	}
	if err == nil && r == nil {
		err = &Error{Code: CodeBadReply, Message: "the LLM returned neither a reply nor an error"}
	}

	m.mu.Lock()
	defer m.mu.Unlock()
	var e *Error
	if err != nil && errors.As(err, &e) && e.Attempts == 0 && e.Code != CodeBadReply {
		// Never left the process: refund.
		m.used--
		if st != nil {
			st.charged--
		}
		ps := m.pluginStats(req.PluginID)
		ps.LastError = e.Code
		if st != nil {
			st.stats.LastError = e.Code
		}
		return nil, err
	}
	m.pluginStats(req.PluginID).record(req, r, err)
	if st != nil {
		st.stats.record(req, r, err)
	}
	if err != nil {
		return nil, err
	}
	return r.SDK(), nil
}

// StageMeter is the plugin.LLM of one plugin in one stage call; see
// Meter.Stage.
type StageMeter struct {
	m        *Meter
	pluginID string
	max      int
	charged  int   // guarded by m.mu
	stats    Stats // guarded by m.mu
}

var _ plugin.LLM = (*StageMeter)(nil)

// Complete implements plugin.LLM.
func (s *StageMeter) Complete(ctx context.Context, req plugin.LLMRequest) (*plugin.LLMResponse, error) {
	req.PluginID = s.pluginID
	return s.m.complete(ctx, req, s)
}

// Stats returns the stage's LLM use: llmCalls, model and modelRole for the
// trace.
func (s *StageMeter) Stats() Stats {
	s.m.mu.Lock()
	defer s.m.mu.Unlock()
	return s.stats.clone()
}
