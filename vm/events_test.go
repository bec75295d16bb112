package vm

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/config"
	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
)

// eventKB is a kb-plugin written for the tests: it records every session
// event and source-text hook call it receives, with the run context, and
// can be told to hang on session events (ignoring its context).
type eventKB struct {
	testKB
	mu      sync.Mutex
	events  []plugin.SessionEvent
	rcs     []plugin.RunContext
	sources []string
	hang    chan struct{} // non-nil: OnSessionEvent blocks until closed
}

func (p *eventKB) OnSessionEvent(ctx context.Context, rc plugin.RunContext, ev *plugin.SessionEvent) (*plugin.SessionEventResult, error) {
	p.mu.Lock()
	p.events = append(p.events, *ev)
	p.rcs = append(p.rcs, rc)
	hang := p.hang
	p.mu.Unlock()
	if hang != nil {
		<-hang
	}
	return &plugin.SessionEventResult{Status: plugin.StatusAccepted}, nil
}

func (p *eventKB) OnSourceText(ctx context.Context, rc plugin.RunContext, st *plugin.SourceText) (*plugin.SourceTextResult, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.sources = append(p.sources, st.SourceID)
	return &plugin.SourceTextResult{Status: plugin.StatusAccepted}, nil
}

func (p *eventKB) take() []plugin.SessionEvent {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := p.events
	p.events = nil
	return out
}

func eventTypes(evs []plugin.SessionEvent) []string {
	var out []string
	for _, e := range evs {
		s := e.EventType
		if e.Scope != "" {
			s += "/" + e.Scope
		}
		out = append(out, s)
	}
	return out
}

// turnSD is a seed detector written for the tests: one intent and the
// given current-turn KUs (SOP Lang), whatever the question.
type turnSD struct {
	plugin.Base
	plugin.UnimplementedSD
	turn string
}

func (p *turnSD) DetectSeeds(ctx context.Context, rc plugin.RunContext, in *plugin.SeedInput) (*plugin.SeedResult, error) {
	intent := fmt.Sprintf("@i1 intent explain %q\n@i2 set $i1 output answer\n", in.Payload.Prompt)
	return &plugin.SeedResult{Status: plugin.StatusSuccess, IntentCNL: intent, CurrentTurnContextCNL: p.turn}, nil
}

// turnKU is the SOP Lang of one current-turn KU on the answer format with
// role and claim, scoped to the phase scope when it is not "".
func turnKU(role, claim, scope string) string {
	sop := "@k1 ku atomic \"t::1\"\n@k2 set $k1 sourceId t\n@k3 set $k1 chunkId t::c\n" +
		"@k4 set $k1 role " + role + "\n@k5 set $k1 topic \"answer format\"\n@k6 set $k1 claim " + strconv.Quote(claim) + "\n"
	if scope != "" {
		sop += "@k7 set $k1 phaseScopes " + scope + "\n"
	}
	return sop
}

var oneTurnKU = turnKU("Explanation", "Answer in one short sentence.", "")

// TestSessionHookTimeoutFromConfig: onSessionEvent is bounded by
// engine.json's hookTimeoutMs, a hook that overruns is abandoned and
// recorded in the trace, and the third timeout in a row disables it for
// the rest of the request; the answer is not held up.
func TestSessionHookTimeoutFromConfig(t *testing.T) {
	kb := &eventKB{testKB: testKB{Base: descriptor(t, "kb-ev", plugin.TypeKB, ""), units: []*kus.KU{leaf("doc.md::0::0", "Alpha uses beta.")}},
		hang: make(chan struct{})}
	defer close(kb.hang)
	sd := &turnSD{Base: descriptor(t, "sd-t", plugin.TypeSD, ""), turn: oneTurnKU}
	gs := &testGS{Base: descriptor(t, "gs-t", plugin.TypeGS, ""), solve: answer("Alpha uses beta.")}
	m, _ := setup(t, func(e *config.Engine) { e.HookTimeoutMs = 50 }, sd, kb, gs)

	start := time.Now()
	resp, err := m.Ask(context.Background(), Request{Question: "What does alpha use?"})
	require.NoError(t, err)
	assert.Less(t, time.Since(start), 20*time.Second, "hung hooks must not hold the request")
	assert.Equal(t, StatusAnswered, resp.Status)
	codes := errorCodes(resp)
	timeouts := 0
	for _, c := range codes {
		if c == CodeHookTimeout {
			timeouts++
		}
	}
	assert.Equal(t, 3, timeouts, "session-created and two session-kus-added events: %v", codes)
	assert.Contains(t, codes, CodeHookDisabled)
	for _, e := range resp.Trace.Errors {
		if e.Code == CodeHookTimeout {
			assert.Contains(t, e.Message, "50ms")
		}
	}

	// A fresh request starts with the hook enabled again; once disabled it
	// gets no further event in that request.
	kb.take()
	_, err = m.Ask(context.Background(), Request{Question: "What does alpha use?", SessionID: resp.SessionID})
	require.NoError(t, err)
	assert.Len(t, kb.take(), 2, "the reopened session's events reach the hook again")
}

// TestRunContextCarriesTheDeadline: plugins see the request's deadline in
// Budgets.Deadline, and session hooks see their own.
func TestRunContextCarriesTheDeadline(t *testing.T) {
	var seen time.Time
	gs := &testGS{Base: descriptor(t, "gs-t", plugin.TypeGS, ""), solve: func(ctx context.Context, in *plugin.SolveInput) (*plugin.SolveResult, error) {
		return &plugin.SolveResult{Status: plugin.StatusSuccess, ResponseMarkdown: "x"}, nil
	}}
	dl := &deadlineGS{testGS: gs, seen: &seen}
	kb := &eventKB{testKB: testKB{Base: descriptor(t, "kb-ev", plugin.TypeKB, ""), units: []*kus.KU{leaf("doc.md::0::0", "Alpha uses beta.")}}}
	m, _ := setup(t, func(e *config.Engine) { e.RequestTimeoutMs = 60000 }, kb, dl)
	before := time.Now()
	_, err := m.Ask(context.Background(), Request{Question: "q"})
	require.NoError(t, err)
	require.False(t, seen.IsZero(), "Budgets.Deadline is set")
	assert.True(t, seen.After(before) && seen.Before(before.Add(61*time.Second)), "deadline %v", seen)
	kb.mu.Lock()
	defer kb.mu.Unlock()
	require.NotEmpty(t, kb.rcs)
	assert.False(t, kb.rcs[0].Budgets.Deadline.IsZero(), "session hooks see their deadline")
}

type deadlineGS struct {
	*testGS
	seen *time.Time
}

func (p *deadlineGS) Solve(ctx context.Context, rc plugin.RunContext, in *plugin.SolveInput) (*plugin.SolveResult, error) {
	*p.seen = rc.Budgets.Deadline
	return p.testGS.Solve(ctx, rc, in)
}
