package vm

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
)

// KBChange describes a knowledge base saved, loaded or forked, for
// Machine.NotifyKB.
type KBChange struct {
	// EventType is plugin.EventKBSaved, plugin.EventKBLoaded or plugin.EventKBForked.
	EventType string
	// SnapshotName and SnapshotPath name the snapshot saved, loaded or
	// forked to.
	SnapshotName, SnapshotPath string
	// RequestedKBID is the knowledge base asked for when the machine
	// serves another file: a loaded snapshot, served as a private copy.
	RequestedKBID string
	// PreviousKBID and PreviousKBName identify the knowledge base served
	// before a load or a fork.
	PreviousKBID, PreviousKBName string
	Reason                       string
}

// maxEventSessions bounds the sessions one knowledge base event is
// delivered for: the most recently created ones.
const maxEventSessions = 50

// NotifyKB delivers a kb-saved, kb-loaded or kb-forked event to every
// enabled kb-plugin: once for each session stored in the knowledge base
// (the maxEventSessions most recently created), with the session's
// committed units so a plugin can rebuild what it keeps per session, or
// once with an empty session id when no session is stored. The sessions
// delivered count as announced to this machine's plugins. It returns the
// hooks' problems (timeouts, failures), which are also logged.
func (m *Machine) NotifyKB(ctx context.Context, c KBChange) []StageError {
	lim := newHookLimiter()
	ctx = withHookLimiter(ctx, lim)
	snap, _ := json.Marshal(map[string]string{"name": c.SnapshotName, "path": c.SnapshotPath})
	base := plugin.SessionEvent{EventType: c.EventType, KBID: m.kbID(), KBName: m.kbName(), RequestedKBID: c.RequestedKBID,
		PreviousKBID: c.PreviousKBID, PreviousKBName: c.PreviousKBName, Snapshot: snap, Reason: c.Reason}
	sessions, err := m.storedSessions()
	if err != nil {
		m.log.Warn("knowledge base event: sessions not read", "event", c.EventType, "err", err)
	}
	if len(sessions) == 0 {
		ev := base
		m.sessionEvent(ctx, &ev)
		return lim.drain()
	}
	for _, s := range sessions {
		ev := base
		ev.SessionID, ev.Units = s.ID, s.Units
		m.sessionEvent(ctx, &ev)
		m.mu.Lock()
		if m.announced == nil {
			m.announced = map[string]bool{}
		}
		m.announced[s.ID] = true
		m.mu.Unlock()
	}
	return lim.drain()
}

// storedSessions reads the sessions of the knowledge base, the most
// recently created first, at most maxEventSessions.
func (m *Machine) storedSessions() ([]*Session, error) {
	if m.core == nil {
		return nil, nil
	}
	var out []*Session
	err := m.core.View(func(kv plugin.KV) error {
		return kv.Scan([]byte("session/"), nil, func(_, v []byte) error {
			s := &Session{}
			if err := json.Unmarshal(v, s); err != nil {
				return nil // a damaged session is skipped, not fatal to the event
			}
			out = append(out, s)
			return nil
		})
	})
	slices.SortStableFunc(out, func(a, b *Session) int { return b.CreatedAt.Compare(a.CreatedAt) })
	if len(out) > maxEventSessions {
		out = out[:maxEventSessions]
	}
	return out, err
}

// repositoryMeta describes the workspace's repository for session events:
// its folder and, when it is a Git work tree, the branch or detached
// commit its HEAD names. It reads .git/HEAD only (a regular file in a
// .git folder of the workspace itself), never a path outside the
// workspace, and runs nothing.
func (m *Machine) repositoryMeta() json.RawMessage {
	m.repoOnce.Do(func() {
		if m.kb == nil {
			return
		}
		ws := m.kb.Workspace()
		meta := map[string]string{"root": ws}
		if fi, err := os.Lstat(filepath.Join(ws, ".git")); err == nil && fi.IsDir() {
			head := filepath.Join(ws, ".git", "HEAD")
			if hi, err := os.Lstat(head); err == nil && hi.Mode().IsRegular() && hi.Size() < 4096 {
				if b, err := os.ReadFile(head); err == nil {
					meta["vcs"] = "git"
					line := string(bytes.TrimSpace(b))
					if ref, ok := strings.CutPrefix(line, "ref: refs/heads/"); ok {
						meta["branch"] = ref
					} else if len(line) >= 40 && !strings.ContainsAny(line, " \n/") {
						meta["head"] = line
					}
				}
			}
		}
		m.repoMeta, _ = json.Marshal(meta)
	})
	return m.repoMeta
}

// noUnits is the units of an event that carries none: an empty list, not
// null.
var noUnits = []*kus.KU{}
