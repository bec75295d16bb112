package kbsearch

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mrpvm/mrpvm/plugin"
)

// rebuilds counts the rebuilds asked of it and fails them with err.
type rebuilds struct {
	ids []string
	err error
}

func (r *rebuilds) RepairHook(_ context.Context, id string) error {
	r.ids = append(r.ids, id)
	return r.err
}

var errCorrupt = &plugin.Error{Code: plugin.CodeIndexCorrupt, Message: "bad posting"}

// TestRepairDo checks the one repair-and-retry rule: only a corrupt index
// is rebuilt, at most once in a Repair's life, and a failed rebuild is
// reported as a *RepairError.
func TestRepairDo(t *testing.T) {
	ctx := context.Background()
	other := errors.New("disk on fire")

	t.Run("corrupt once", func(t *testing.T) {
		idx := &rebuilds{}
		var started, ended int
		r := Repair{Index: idx, Plugin: "kb-x",
			Started: func(cause error) {
				if !plugin.IsIndexCorrupt(cause) {
					t.Errorf("cause %v", cause)
				}
				started++
			},
			Ended: func(_ time.Duration, err error) {
				if err != nil {
					t.Errorf("ended with %v", err)
				}
				ended++
			},
		}
		calls := 0
		err := r.Do(ctx, func() error {
			calls++
			if calls == 1 {
				return errCorrupt
			}
			return nil
		})
		if err != nil || calls != 2 || len(idx.ids) != 1 || idx.ids[0] != "kb-x" || started != 1 || ended != 1 {
			t.Fatalf("err %v, %d calls, rebuilds %v, started %d, ended %d", err, calls, idx.ids, started, ended)
		}
		// Spent: a second corrupt report is returned, not repaired.
		if err := r.Do(ctx, func() error { return errCorrupt }); !plugin.IsIndexCorrupt(err) || len(idx.ids) != 1 {
			t.Fatalf("second corrupt report: %v, rebuilds %v", err, idx.ids)
		}
	})

	// An index rebuilt from the stored KUs and still corrupt is a damaged
	// file: kb_corrupt, with the hint to rebuild the file.
	t.Run("still corrupt after the rebuild", func(t *testing.T) {
		idx := &rebuilds{}
		r := Repair{Index: idx, Plugin: "kb-x"}
		calls := 0
		err := r.Do(ctx, func() error { calls++; return errCorrupt })
		if !plugin.IsIndexCorrupt(err) || !errors.Is(err, plugin.ErrKBCorrupt) || calls != 2 || len(idx.ids) != 1 {
			t.Fatalf("err %v, %d calls, rebuilds %v", err, calls, idx.ids)
		}
		if !strings.HasPrefix(err.Error(), "kb_corrupt: kb-x: ") || !strings.Contains(err.Error(), "mrpvm ingest --rebuild") {
			t.Errorf("message %q: want kb_corrupt first and the rebuild hint", err)
		}
	})

	t.Run("other errors pass", func(t *testing.T) {
		idx := &rebuilds{}
		r := Repair{Index: idx, Plugin: "kb-x"}
		if err := r.Do(ctx, func() error { return other }); err != other || len(idx.ids) != 0 {
			t.Fatalf("err %v, rebuilds %v", err, idx.ids)
		}
	})

	t.Run("no index", func(t *testing.T) {
		r := Repair{Plugin: "kb-x"}
		calls := 0
		if err := r.Do(ctx, func() error { calls++; return errCorrupt }); !plugin.IsIndexCorrupt(err) || calls != 1 {
			t.Fatalf("err %v, %d calls", err, calls)
		}
	})

	t.Run("rebuild fails", func(t *testing.T) {
		idx := &rebuilds{err: other}
		var endedWith error
		r := Repair{Index: idx, Plugin: "kb-x", Ended: func(_ time.Duration, err error) { endedWith = err }}
		calls := 0
		err := r.Do(ctx, func() error { calls++; return errCorrupt })
		var re *RepairError
		if !errors.As(err, &re) || re.Plugin != "kb-x" || !errors.Is(err, other) || errors.Is(err, plugin.ErrKBCorrupt) || calls != 1 || endedWith != other {
			t.Fatalf("err %v, %d calls, ended with %v", err, calls, endedWith)
		}
		if want := "kb-x: index_corrupt: rebuilding the index failed: disk on fire"; err.Error() != want {
			t.Errorf("message %q, want %q", err, want)
		}
	})
}

func TestReported(t *testing.T) {
	if err := Reported(plugin.StatusSuccess, nil); err != nil {
		t.Errorf("success: %v", err)
	}
	if err := Reported(plugin.StatusError, nil); err != nil {
		t.Errorf("error without report: %v", err)
	}
	if err := Reported(plugin.StatusInsufficient, errCorrupt); err != nil {
		t.Errorf("insufficient with report: %v", err)
	}
	if err := Reported(plugin.StatusError, errCorrupt); !plugin.IsIndexCorrupt(err) {
		t.Errorf("error with report: %v", err)
	}
}
