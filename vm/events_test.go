package vm

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/config"
	"github.com/mrpvm/mrpvm/ingest"
	"github.com/mrpvm/mrpvm/internal/testtree"
	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins"
	"github.com/mrpvm/mrpvm/store"
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

// openKBFile opens a knowledge base file over ws with the catalog's
// kb-plugins as ingest hooks and ingests the workspace.
func openKBFile(t *testing.T, ws, db string, cat *plugins.Catalog) *ingest.KB {
	t.Helper()
	kb, err := ingest.Open(ingest.Options{Workspace: ws, DBPath: db, Hooks: Hooks(cat)})
	require.NoError(t, err)
	rep, err := kb.Ingest(context.Background(), ingest.RunOptions{})
	require.NoError(t, err)
	require.False(t, rep.Failed(), "%+v", rep.Errors)
	return kb
}

// TestSessionLifecycleEvents: every session event type reaches every
// enabled kb-plugin with the full envelope, over real knowledge base
// files: a new session, the turn KUs staged and committed, the knowledge
// base saved, loaded (served as a private copy) and forked, and the session
// reopened by a new machine over the same file, which delivers its
// committed units again.
func TestSessionLifecycleEvents(t *testing.T) {
	ws := t.TempDir()
	testtree.WriteFiles(t, ws, map[string]string{"doc.md": "# Alpha\n\nAlpha uses beta.\n", ".git/HEAD": "ref: refs/heads/topic\n"})
	rec := []*eventKB{
		{testKB: testKB{Base: descriptor(t, "kb-a", plugin.TypeKB, ""), units: []*kus.KU{leaf("doc.md::0::0", "Alpha uses beta.")}}},
		{testKB: testKB{Base: descriptor(t, "kb-b", plugin.TypeKB, ""), units: []*kus.KU{leaf("doc.md::0::0", "Alpha uses beta.")}}},
	}
	sd := &turnSD{Base: descriptor(t, "sd-t", plugin.TypeSD, ""), turn: oneTurnKU}
	gs := &testGS{Base: descriptor(t, "gs-t", plugin.TypeGS, ""), solve: answer("Alpha uses beta.")}
	cat := testCatalog(t, nil, sd, rec[0], rec[1], gs)
	dir := t.TempDir()
	db := filepath.Join(dir, "kb.db")
	ctx := context.Background()

	// A new session and one answered turn.
	kb := openKBFile(t, ws, db, cat)
	m := New(kb, cat, Options{})
	resp, err := m.Ask(ctx, Request{Question: "What does alpha use?"})
	require.NoError(t, err)
	require.Equal(t, StatusAnswered, resp.Status)
	sid := resp.SessionID

	// Saved, then loaded as a private copy, then forked.
	saved := filepath.Join(dir, "snap.db")
	require.NoError(t, kb.Store().Snapshot(saved))
	assert.Empty(t, m.NotifyKB(ctx, KBChange{EventType: plugin.EventKBSaved, SnapshotName: "snap", SnapshotPath: saved, Reason: "saved"}))
	require.NoError(t, kb.Close())

	copyPath := filepath.Join(dir, "copy.db")
	require.NoError(t, store.CopySnapshot(saved, copyPath))
	loaded := openKBFile(t, ws, copyPath, cat)
	ml := New(loaded, cat, Options{})
	assert.Empty(t, ml.NotifyKB(ctx, KBChange{EventType: plugin.EventKBLoaded, SnapshotName: "snap", SnapshotPath: saved,
		RequestedKBID: saved, PreviousKBID: db, PreviousKBName: ws, Reason: "loaded"}))
	forked := filepath.Join(dir, "fork.db")
	require.NoError(t, loaded.Store().Snapshot(forked))
	require.NoError(t, loaded.Close())
	fk := openKBFile(t, ws, forked, cat)
	mf := New(fk, cat, Options{})
	assert.Empty(t, mf.NotifyKB(ctx, KBChange{EventType: plugin.EventKBForked, SnapshotName: "fork", SnapshotPath: forked,
		PreviousKBID: copyPath, PreviousKBName: ws, Reason: "forked"}))
	require.NoError(t, fk.Close())

	// Reopened by a new machine over the first file.
	kb = openKBFile(t, ws, db, cat)
	defer kb.Close()
	m2 := New(kb, cat, Options{})
	resp, err = m2.Ask(ctx, Request{Question: "And what else?", SessionID: sid})
	require.NoError(t, err)
	require.Equal(t, StatusAnswered, resp.Status)

	turnText := "Answer in one short sentence."
	cases := []struct {
		name, eventType, scope, reason string
		kbID                           string
		units                          int // committed or staged units the event carries
		previous, requested            string
		snapshot                       string // the snapshot's name; "" : none
	}{
		{name: "session created", eventType: plugin.EventSessionCreated, reason: "session created", kbID: db},
		{name: "turn staged", eventType: plugin.EventSessionKUsAdded, scope: "current-turn", reason: "seed detection", kbID: db, units: 1},
		{name: "turn committed", eventType: plugin.EventSessionKUsAdded, scope: "committed-session", reason: "turn completed", kbID: db, units: 1},
		{name: "kb saved", eventType: plugin.EventKBSaved, reason: "saved", kbID: db, units: 1, snapshot: "snap"},
		{name: "kb loaded", eventType: plugin.EventKBLoaded, reason: "loaded", kbID: copyPath, units: 1, previous: db, requested: saved, snapshot: "snap"},
		{name: "kb forked", eventType: plugin.EventKBForked, reason: "forked", kbID: forked, units: 1, previous: copyPath, snapshot: "fork"},
		{name: "session reopened", eventType: plugin.EventSessionKUsAdded, scope: "committed-session", reason: "session resumed", kbID: db, units: 1},
	}
	for _, p := range rec {
		evs := p.take()
		for _, tc := range cases {
			t.Run(p.Descriptor().ID+"/"+tc.name, func(t *testing.T) {
				var ev *plugin.SessionEvent
				for i := range evs {
					e := &evs[i]
					if e.EventType == tc.eventType && e.Scope == tc.scope && e.Reason == tc.reason && e.KBID == tc.kbID {
						ev = e
						break
					}
				}
				require.NotNil(t, ev, "no %s event in %v", tc.name, eventTypes(evs))
				assert.Equal(t, sid, ev.SessionID)
				assert.Equal(t, ws, ev.KBName)
				assert.Equal(t, tc.previous, ev.PreviousKBID)
				if tc.previous != "" {
					assert.Equal(t, ws, ev.PreviousKBName)
				}
				assert.Equal(t, tc.requested, ev.RequestedKBID)
				assert.Equal(t, 1, ev.WorkspaceStats["sources"], "workspace stats: %v", ev.WorkspaceStats)
				assert.Positive(t, ev.WorkspaceStats["kus"])
				var repo map[string]string
				require.NoError(t, json.Unmarshal(ev.RepositoryMeta, &repo))
				assert.Equal(t, map[string]string{"root": ws, "vcs": "git", "branch": "topic"}, repo)
				require.NotNil(t, ev.Units, "units is a list, never null")
				require.Len(t, ev.Units, tc.units)
				if tc.units > 0 {
					assert.Equal(t, turnText, ev.Units[0].Claim)
				}
				if tc.snapshot == "" {
					assert.Empty(t, ev.Snapshot)
				} else {
					var snap map[string]string
					require.NoError(t, json.Unmarshal(ev.Snapshot, &snap))
					assert.Equal(t, tc.snapshot, snap["name"])
					assert.NotEmpty(t, snap["path"])
				}
			})
		}
		// Each event exactly once: the reopened session's units are
		// delivered once by the new machine, and not again by the machines
		// that already announced them.
		assert.Len(t, evs, len(cases)+2, "%v", eventTypes(evs)) // the second turn's staged and committed units
	}
}

// TestKBEventWithoutSessions: a knowledge base with no stored session
// still tells its kb-plugins about a save, once, with an empty session id.
func TestKBEventWithoutSessions(t *testing.T) {
	ws := t.TempDir()
	testtree.WriteFile(t, filepath.Join(ws, "doc.md"), "# Alpha\n\nAlpha uses beta.\n")
	p := &eventKB{testKB: testKB{Base: descriptor(t, "kb-a", plugin.TypeKB, "")}}
	cat := testCatalog(t, nil, p)
	kb := openKBFile(t, ws, filepath.Join(t.TempDir(), "kb.db"), cat)
	defer kb.Close()
	m := New(kb, cat, Options{})
	assert.Empty(t, m.NotifyKB(context.Background(), KBChange{EventType: plugin.EventKBSaved, SnapshotName: "s", SnapshotPath: "/x/s.db"}))
	evs := p.take()
	require.Len(t, evs, 1)
	assert.Equal(t, plugin.EventKBSaved, evs[0].EventType)
	assert.Empty(t, evs[0].SessionID)
	assert.NotNil(t, evs[0].Units)
	assert.Equal(t, map[string]string{"root": ws}, func() map[string]string {
		var r map[string]string
		_ = json.Unmarshal(evs[0].RepositoryMeta, &r)
		return r
	}())
}
