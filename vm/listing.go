package vm

import (
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/store"
)

// SessionSummary names a stored session for a list (shell completion).
type SessionSummary struct {
	ID        string
	CreatedAt time.Time
	// FirstQuestion is the session's first user turn, "" when none.
	FirstQuestion string
}

// ListSessions reads the sessions stored in a knowledge base, newest
// first, at most limit of them (limit <= 0: all). It only reads, so s
// may be opened read-only; no Machine is needed.
func ListSessions(s *store.Store, limit int) ([]SessionSummary, error) {
	var out []SessionSummary
	err := s.PluginStore(coreNamespace).View(func(kv plugin.KV) error {
		return kv.Scan([]byte("session/"), nil, func(k, v []byte) error {
			var sess struct {
				ID        string        `json:"id"`
				CreatedAt time.Time     `json:"createdAt"`
				Turns     []plugin.Turn `json:"turns"`
			}
			if json.Unmarshal(v, &sess) != nil || !ValidSessionID(sess.ID) {
				return nil // a damaged record is no session to offer
			}
			sum := SessionSummary{ID: sess.ID, CreatedAt: sess.CreatedAt}
			for _, t := range sess.Turns {
				if t.Role == "user" {
					sum.FirstQuestion = t.Text
					break
				}
			}
			out = append(out, sum)
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	slices.SortStableFunc(out, func(a, b SessionSummary) int { return b.CreatedAt.Compare(a.CreatedAt) })
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

// ListRequests reads the ids of the requests whose traces a knowledge
// base keeps, newest first. It only reads.
func ListRequests(s *store.Store) ([]string, error) {
	var out []string
	err := s.PluginStore(coreNamespace).View(func(kv plugin.KV) error {
		return kv.Scan([]byte("traceidx/"), nil, func(k, _ []byte) error {
			// traceidx/<20-digit time>/<request id>
			if rest, ok := strings.CutPrefix(string(k), "traceidx/"); ok && len(rest) > 21 {
				out = append(out, rest[21:])
			}
			return nil
		})
	})
	slices.Reverse(out)
	return out, err
}
