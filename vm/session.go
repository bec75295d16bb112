package vm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"time"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
)

// Session limits: older turns and units are dropped first.
const (
	maxSessionTurns = 100
	maxSessionUnits = 1000
)

// Session is a conversation: its turns and the KUs committed from them.
type Session struct {
	ID          string            `json:"id"`
	CreatedAt   time.Time         `json:"createdAt"`
	KBID        string            `json:"kbId,omitempty"`
	KBName      string            `json:"kbName,omitempty"`
	Preferences map[string]string `json:"preferences,omitempty"`
	Turns       []plugin.Turn     `json:"turns"`
	Units       []*kus.KU         `json:"units,omitempty"` // committed session KUs
	// Context holds, per answered turn, what a later follow-up may carry.
	Context []TurnContext `json:"context,omitempty"`
}

// ErrSessionNotFound is returned for an unknown session id where a session
// must already exist.
var ErrSessionNotFound = errors.New("session not found")

var sessionIDPattern = regexp.MustCompile(`^[A-Za-z0-9_.:-]{1,128}$`)

// ValidSessionID reports whether id may name a session.
func ValidSessionID(id string) bool { return sessionIDPattern.MatchString(id) }

// Session loads a session, or returns ErrSessionNotFound.
func (m *Machine) Session(id string) (*Session, error) {
	if m.core == nil {
		return nil, fmt.Errorf("session %s: %w", id, ErrSessionNotFound)
	}
	var s *Session
	err := m.core.View(func(kv plugin.KV) error {
		v := kv.Get([]byte("session/" + id))
		if v == nil {
			return nil
		}
		s = &Session{}
		return json.Unmarshal(v, s)
	})
	if err != nil {
		return nil, fmt.Errorf("session %s: %w", id, err)
	}
	if s == nil {
		return nil, fmt.Errorf("session %s: %w", id, ErrSessionNotFound)
	}
	return s, nil
}

// openSession returns the named session. An empty id starts a new
// session with a fresh id; a named one must exist unless create is set
// (callers that name their own sessions, such as an editor), so a
// mistyped id is an error rather than a silent new conversation. A
// session stored by another process is announced to the kb-plugins once,
// so its committed KUs take part in retrieval again.
func (m *Machine) openSession(ctx context.Context, id string, create bool) (*Session, bool, error) {
	if id == "" {
		id, create = newID("s-"), true
	} else if !ValidSessionID(id) {
		return nil, false, fmt.Errorf("session id %q: use 1-128 letters, digits, '.', '_', ':' or '-'", id)
	}
	s, err := m.Session(id)
	if err == nil {
		m.announce(ctx, s)
		return s, false, nil
	}
	if !errors.Is(err, ErrSessionNotFound) || !create {
		return nil, false, err
	}
	s = &Session{ID: id, CreatedAt: m.now(), KBID: m.kbID(), KBName: m.kbName()}
	if err := m.saveSession(s); err != nil {
		return nil, false, err
	}
	// This machine's plugins hear of the session's KUs as they are
	// committed: reopening it later in this machine need not repeat them.
	m.mu.Lock()
	if m.announced == nil {
		m.announced = map[string]bool{}
	}
	m.announced[id] = true
	m.mu.Unlock()
	m.sessionEvent(ctx, &plugin.SessionEvent{EventType: plugin.EventSessionCreated, SessionID: id, KBID: s.KBID, KBName: s.KBName,
		Reason: "session created"})
	return s, true, nil
}

// announce tells the kb-plugins about the committed KUs of a session this
// machine has not seen yet (one stored by an earlier process).
func (m *Machine) announce(ctx context.Context, s *Session) {
	m.mu.Lock()
	if m.announced == nil {
		m.announced = map[string]bool{}
	}
	seen := m.announced[s.ID]
	m.announced[s.ID] = true
	m.mu.Unlock()
	if seen || len(s.Units) == 0 {
		return
	}
	m.sessionEvent(ctx, &plugin.SessionEvent{EventType: plugin.EventSessionKUsAdded, SessionID: s.ID,
		KBID: m.kbID(), KBName: m.kbName(), Units: s.Units, Scope: "committed-session", Reason: "session resumed"})
}

func (m *Machine) saveSession(s *Session) error {
	if m.core == nil || m.kb != nil && m.kb.Store().ReadOnly() {
		return nil // a knowledge base opened read-only keeps sessions in memory only
	}
	if n := len(s.Turns); n > maxSessionTurns {
		s.Turns = s.Turns[n-maxSessionTurns:]
	}
	if n := len(s.Units); n > maxSessionUnits {
		s.Units = s.Units[n-maxSessionUnits:]
	}
	if n := len(s.Context); n > maxSessionTurns {
		s.Context = s.Context[n-maxSessionTurns:]
	}
	b, err := json.Marshal(s)
	if err != nil {
		return fmt.Errorf("session %s: %w", s.ID, err)
	}
	return m.core.Update(func(kv plugin.KV) error { return kv.Put([]byte("session/"+s.ID), b) })
}

// sessionEvent tells every enabled kb-plugin about a session event, the
// envelope completed with the knowledge base's identity, the workspace's
// stats and repository metadata (units an empty list when it has none). A
// plugin's failure or timeout is logged and recorded with the request's
// hook limiter (withHookLimiter), never fatal.
func (m *Machine) sessionEvent(ctx context.Context, ev *plugin.SessionEvent) {
	// The event concerns the knowledge base this machine serves, which a
	// fork or load may have changed since the session was stored.
	if m.kb != nil {
		ev.KBID, ev.KBName = m.kbID(), m.kbName()
	}
	if ev.WorkspaceStats == nil {
		ev.WorkspaceStats = m.workspaceStats()
	}
	if ev.RepositoryMeta == nil {
		ev.RepositoryMeta = m.repositoryMeta()
	}
	if ev.Units == nil {
		ev.Units = noUnits
	}
	lim := hookLimiterOf(ctx)
	for _, id := range m.cat.Order(plugin.LoopKB) {
		if p, ok := m.cat.Registry.KB(id); ok {
			m.callSessionHook(ctx, lim, id, p, ev)
		}
	}
}

func (m *Machine) workspaceStats() map[string]int {
	out := map[string]int{}
	if m.kb == nil {
		return out
	}
	if sources, units, err := m.kb.Store().Counts(); err == nil {
		out["sources"] = sources
		out["kus"] = units
	}
	return out
}

func (m *Machine) kbID() string {
	if m.kb == nil {
		return ""
	}
	return m.kb.Store().Path()
}

func (m *Machine) kbName() string {
	if m.kb == nil {
		return ""
	}
	return m.kb.Workspace()
}
