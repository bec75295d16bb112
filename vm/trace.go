package vm

import (
	"encoding/json"
	"fmt"

	"github.com/mrpvm/mrpvm/llm"
	"github.com/mrpvm/mrpvm/plugin"
)

// Loop error codes recorded in the trace: stable codes a client may match.
const (
	CodeStageExhausted      = "PLUGIN_STAGE_EXHAUSTED"
	CodeInsufficient        = "PLAN_INSUFFICIENT_EVIDENCE"
	CodeValidationRejected  = "VALIDATION_REJECTED"
	CodeFrameDepthExceeded  = "FRAME_DEPTH_EXCEEDED"
	CodeUnknownPlugin       = "UNKNOWN_PLUGIN"
	CodePluginPanic         = "PLUGIN_PANIC"
	CodePluginTimeout       = "PLUGIN_TIMEOUT"
	CodeBadStatus           = "PLUGIN_BAD_STATUS"
	CodeBudgetExhausted     = "LLM_BUDGET_EXHAUSTED"
	CodeEmptyQuestion       = "EMPTY_QUESTION"
	CodeQuestionTruncated   = "QUESTION_TRUNCATED"
	CodeRequestTimeout      = "REQUEST_TIMEOUT"
	CodeSeedInvalid         = "SEED_CNL_INVALID"
	CodeNoPlanner           = "NO_PLANNER"
	CodeUnvalidated         = "UNVALIDATED"
	CodeSessionNotFound     = "SESSION_NOT_FOUND"
	CodeDecompositionFailed = "DECOMPOSITION_FAILED"
	CodeFollowUpNoContext   = "FOLLOW_UP_WITHOUT_CONTEXT"
	CodeNoContentTerms      = "NO_CONTENT_TERMS"
	CodeSessionSourceGone   = "SESSION_SOURCE_REMOVED"
	CodeNoKnownTerms        = "NO_KNOWN_TERMS"
)

// Trace is the record of one request: the planner outcome handed to
// RecordOutcome (docs/contracts.md; the embedded Outcome, serialised flat) plus the tree of execution frames.
type Trace struct {
	plugin.Outcome
	Question string `json:"question"`
	// SearchedFor is the question as the loop worked on it when that
	// differs from what was asked: a follow-up resolved against the
	// session's earlier turns, or the kb-plugin's spelling correction.
	SearchedFor string        `json:"searchedFor,omitempty"`
	Frames      *FrameTrace   `json:"frames,omitempty"`
	Errors      []StageError  `json:"errors,omitempty"`
	Notes       []string      `json:"notes,omitempty"`
	Stages      []StageDetail `json:"-"`
}

// StageDetail keeps what the schema's stage entries leave out.
type StageDetail struct {
	FrameID string
	Error   *plugin.Error
}

// StageError is a failed or noteworthy stage call, by index into Stages.
type StageError struct {
	Stage   int    `json:"stage"` // index into stages; -1 for request-level errors
	FrameID string `json:"frameId,omitempty"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

// FrameTrace is one execution frame in the trace tree.
type FrameTrace struct {
	ID       string        `json:"id"`
	Depth    int           `json:"depth"`
	Purpose  string        `json:"purpose,omitempty"`
	Planner  string        `json:"plannerPluginId"`
	Intents  []string      `json:"intents"`
	Stages   []int         `json:"stages"` // indexes into the trace's stages
	Branches []string      `json:"branches,omitempty"`
	Failures []string      `json:"failureMemory,omitempty"`
	Status   string        `json:"status"`
	Children []*FrameTrace `json:"children,omitempty"`
}

// MarshalJSON writes the Outcome fields flat next to the extras, with
// null for the optional fields an outcome leaves empty (model, model role,
// answer status, frame purpose).
func (t *Trace) MarshalJSON() ([]byte, error) {
	stages := make([]map[string]any, len(t.Outcome.Stages))
	for i, s := range t.Outcome.Stages {
		stages[i] = map[string]any{
			"plannerPluginId": s.PlannerPluginID, "stage": s.Stage, "pluginId": s.PluginID,
			"status": s.Status, "durationMs": s.DurationMs, "llmCalls": s.LLMCalls,
			"sufficient": s.Sufficient, "model": nullable(s.Model), "modelRole": nullable(s.ModelRole),
		}
	}
	out := map[string]any{
		"requestId":         t.RequestID,
		"sessionId":         t.SessionID,
		"plannerPluginId":   t.PlannerPluginID,
		"plannerAttempts":   nonNil(t.PlannerAttempts),
		"stages":            stages,
		"finalStatus":       t.FinalStatus,
		"finalAnswerStatus": nullable(t.FinalAnswerStatus),
		"frameDepth":        t.FrameDepth,
		"framePurpose":      nullable(t.FramePurpose),
		"question":          t.Question,
	}
	if t.Frames != nil {
		out["frames"] = t.Frames
	}
	if len(t.Errors) > 0 {
		out["errors"] = t.Errors
	}
	if len(t.Notes) > 0 {
		out["notes"] = t.Notes
	}
	if t.SearchedFor != "" {
		out["searchedFor"] = t.SearchedFor
	}
	return json.Marshal(out)
}

// UnmarshalJSON reads what MarshalJSON wrote.
func (t *Trace) UnmarshalJSON(b []byte) error {
	var aux struct {
		plugin.Outcome
		Question string       `json:"question"`
		Frames   *FrameTrace  `json:"frames"`
		Errors   []StageError `json:"errors"`
		Notes    []string     `json:"notes"`
		Searched string       `json:"searchedFor"`
	}
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	t.Outcome, t.Question, t.Frames, t.Errors, t.Notes = aux.Outcome, aux.Question, aux.Frames, aux.Errors, aux.Notes
	t.SearchedFor = aux.Searched
	return nil
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// addStage records one stage call and returns its index.
func (t *Trace) addStage(frame *FrameTrace, so plugin.StageOutcome, perr *plugin.Error) int {
	t.Outcome.Stages = append(t.Outcome.Stages, so)
	i := len(t.Outcome.Stages) - 1
	t.Stages = append(t.Stages, StageDetail{FrameID: frameID(frame), Error: perr})
	if frame != nil {
		frame.Stages = append(frame.Stages, i)
	}
	if perr != nil {
		t.Errors = append(t.Errors, StageError{Stage: i, FrameID: frameID(frame), Code: perr.Code, Message: perr.Message})
	}
	return i
}

func (t *Trace) fail(frame *FrameTrace, code, format string, args ...any) {
	t.Errors = append(t.Errors, StageError{Stage: -1, FrameID: frameID(frame), Code: code, Message: fmt.Sprintf(format, args...)})
}

func (t *Trace) note(format string, args ...any) {
	t.Notes = append(t.Notes, fmt.Sprintf(format, args...))
}

func frameID(f *FrameTrace) string {
	if f == nil {
		return ""
	}
	return f.ID
}

// keepTrace remembers a trace in memory and in the store (last maxTraces).
const maxTraces = 200

func (m *Machine) keepTrace(t *Trace) {
	m.redactTrace(t)
	m.mu.Lock()
	m.traces[t.RequestID] = t
	m.order = append(m.order, t.RequestID)
	for len(m.order) > maxTraces {
		delete(m.traces, m.order[0])
		m.order = m.order[1:]
	}
	m.mu.Unlock()
	if m.core == nil {
		return
	}
	b, err := json.Marshal(t)
	if err != nil {
		return
	}
	at := fmt.Sprintf("%020d", m.now().UnixNano())
	err = m.core.Update(func(kv plugin.KV) error {
		if err := kv.Put([]byte("trace/"+t.RequestID), b); err != nil {
			return err
		}
		if err := kv.Put([]byte("traceidx/"+at+"/"+t.RequestID), nil); err != nil {
			return err
		}
		// Drop the oldest beyond maxTraces.
		var idx [][]byte
		_ = kv.Scan([]byte("traceidx/"), nil, func(k, _ []byte) error {
			idx = append(idx, append([]byte(nil), k...))
			return nil
		})
		for len(idx) > maxTraces {
			k := idx[0]
			idx = idx[1:]
			id := k[len("traceidx/")+21:]
			_ = kv.Delete(k)
			_ = kv.Delete(append([]byte("trace/"), id...))
		}
		return nil
	})
	if err != nil {
		m.log.Warn("trace not persisted", "request", t.RequestID, "err", err)
	}
}

// redactTrace removes secrets from every message a trace records (plugin
// and engine errors, notes, frame branches and failures) before the trace
// is kept, stored or returned: URLs lose their user info and query values,
// and the API keys and base-URL secrets of the model endpoints are masked.
// Errors quote whatever plugins and model servers said, so this is the one
// place that can promise a stored trace holds no secret.
func (m *Machine) redactTrace(t *Trace) {
	var secrets []string
	if s, ok := m.llm.(interface{ Secrets() []string }); ok {
		secrets = s.Secrets()
	}
	red := func(p *string) { *p = llm.RedactText(*p, secrets...) }
	red(&t.Question)
	for i := range t.Errors {
		red(&t.Errors[i].Message)
	}
	for i := range t.Notes {
		red(&t.Notes[i])
	}
	for _, d := range t.Stages {
		if d.Error != nil {
			red(&d.Error.Message)
		}
	}
	var frame func(f *FrameTrace)
	frame = func(f *FrameTrace) {
		if f == nil {
			return
		}
		red(&f.Purpose)
		for i := range f.Branches {
			red(&f.Branches[i])
		}
		for i := range f.Failures {
			red(&f.Failures[i])
		}
		for _, c := range f.Children {
			frame(c)
		}
	}
	frame(t.Frames)
}

// Trace returns the trace of a request, from memory or the store; "" or
// "last" gives the most recent one.
func (m *Machine) Trace(requestID string) (*Trace, error) {
	m.mu.Lock()
	if requestID == "" || requestID == "last" {
		if n := len(m.order); n > 0 {
			requestID = m.order[n-1]
		}
	}
	t := m.traces[requestID]
	m.mu.Unlock()
	if t != nil {
		return t, nil
	}
	if m.core == nil {
		return nil, fmt.Errorf("trace %s: not found", requestID)
	}
	var raw []byte
	err := m.core.View(func(kv plugin.KV) error {
		if requestID == "" || requestID == "last" {
			var last []byte
			_ = kv.Scan([]byte("traceidx/"), nil, func(k, _ []byte) error {
				last = append(last[:0], k...)
				return nil
			})
			if last == nil {
				return nil
			}
			requestID = string(last[len("traceidx/")+21:])
		}
		if v := kv.Get([]byte("trace/" + requestID)); v != nil {
			raw = append([]byte(nil), v...)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("trace %s: %w", requestID, err)
	}
	if raw == nil {
		return nil, fmt.Errorf("trace %s: not found (only the last %d requests are kept)", requestID, maxTraces)
	}
	t = &Trace{}
	if err := json.Unmarshal(raw, t); err != nil {
		return nil, fmt.Errorf("trace %s: %w", requestID, err)
	}
	return t, nil
}
