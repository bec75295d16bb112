package vm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"time"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugins/sdk"
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
	Turns       []sdk.Turn        `json:"turns"`
	Units       []*kus.KU         `json:"units,omitempty"` // committed session KUs
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
	err := m.core.View(func(kv sdk.KV) error {
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

// openSession returns the named session, creating it (and telling every
// kb-plugin) when it does not exist yet.
func (m *Machine) openSession(ctx context.Context, id string) (*Session, bool, error) {
	if id == "" {
		id = newID("s-")
	} else if !ValidSessionID(id) {
		return nil, false, fmt.Errorf("session id %q: use 1-128 letters, digits, '.', '_', ':' or '-'", id)
	}
	s, err := m.Session(id)
	if err == nil {
		return s, false, nil
	}
	if !errors.Is(err, ErrSessionNotFound) {
		return nil, false, err
	}
	s = &Session{ID: id, CreatedAt: m.now(), KBID: m.kbID(), KBName: m.kbName()}
	if err := m.saveSession(s); err != nil {
		return nil, false, err
	}
	m.sessionEvent(ctx, &sdk.SessionEvent{EventType: sdk.EventSessionCreated, SessionID: id, KBID: s.KBID, KBName: s.KBName})
	return s, true, nil
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
	b, err := json.Marshal(s)
	if err != nil {
		return fmt.Errorf("session %s: %w", s.ID, err)
	}
	return m.core.Update(func(kv sdk.KV) error { return kv.Put([]byte("session/"+s.ID), b) })
}

// sessionEvent tells every enabled kb-plugin about a session event. A
// plugin's failure is logged, never fatal.
func (m *Machine) sessionEvent(ctx context.Context, ev *sdk.SessionEvent) {
	if ev.WorkspaceStats == nil {
		ev.WorkspaceStats = m.workspaceStats()
	}
	for _, id := range m.cat.Order(sdk.LoopKB) {
		p, ok := m.cat.Registry.KB(id)
		if !ok {
			continue
		}
		func() {
			cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			defer cancel()
			defer func() {
				if r := recover(); r != nil {
					m.log.Warn("session event panicked", "plugin", id, "event", ev.EventType, "panic", r)
				}
			}()
			res, err := p.OnSessionEvent(cctx, sdk.RunContext{Session: sdk.Session{ID: ev.SessionID}}, ev)
			switch {
			case err != nil:
				m.log.Warn("session event failed", "plugin", id, "event", ev.EventType, "err", err)
			case res != nil && res.Status == sdk.StatusError && res.Error != nil:
				m.log.Warn("session event failed", "plugin", id, "event", ev.EventType, "code", res.Error.Code, "msg", res.Error.Message)
			}
		}()
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
