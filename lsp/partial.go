package lsp

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/mrpvm/mrpvm/ingest"
)

// firstIngest follows a folder's first whole-folder ingest, from the
// folder's creation until that run ends: until then the knowledge base is
// partial and answers say so.
type firstIngest struct {
	mu      sync.Mutex
	started bool // the first whole-folder run has begun
	ended   bool
	done    int // workspace files committed or removed
	total   int // workspace files to commit or remove; -1: not known yet
	end     chan struct{}
}

func newFirstIngest() *firstIngest { return &firstIngest{total: -1, end: make(chan struct{})} }

// Partial is the "partial" member of a result computed while the first
// ingest runs: Files of Of sources are in the knowledge base so far.
type Partial struct {
	Files int `json:"files"`
	Of    int `json:"of"`
}

// state returns the progress of the first ingest; nil once it has ended.
// estimate stands for the total while the run has not counted its work.
func (fi *firstIngest) state(estimate int) *Partial {
	fi.mu.Lock()
	defer fi.mu.Unlock()
	if fi.ended {
		return nil
	}
	of := fi.total
	if of < 0 {
		of = estimate
	}
	return &Partial{Files: min(fi.done, max(of, fi.done)), Of: max(of, fi.done)}
}

// track sets up opt for a whole-folder run and reports whether it is the
// first one (the caller then calls finish when it ends).
func (fi *firstIngest) track(opt *ingest.RunOptions, hook func(done, total int)) bool {
	fi.mu.Lock()
	defer fi.mu.Unlock()
	if fi.started {
		return false
	}
	fi.started = true
	opt.Planned = func(_, files int) {
		fi.mu.Lock()
		fi.total = files
		fi.mu.Unlock()
	}
	next := opt.Progress
	opt.Progress = func(done, total int, id string) {
		if !strings.HasPrefix(id, "plugin::") { // workspace files only
			fi.mu.Lock()
			fi.done++
			fi.mu.Unlock()
		}
		if hook != nil {
			hook(done, total)
		}
		if next != nil {
			next(done, total, id)
		}
	}
	return true
}

// finish marks the first ingest as ended.
func (fi *firstIngest) finish() {
	fi.mu.Lock()
	defer fi.mu.Unlock()
	if !fi.ended {
		fi.ended = true
		close(fi.end)
	}
}

// wait waits up to d for the first ingest to end, calling report with its
// progress every 200ms; it returns the progress when it is still running.
func (fi *firstIngest) wait(ctx context.Context, d time.Duration, estimate int, report func(*Partial)) *Partial {
	p := fi.state(estimate)
	if p == nil || d <= 0 {
		return p
	}
	deadline := time.NewTimer(d)
	defer deadline.Stop()
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	report(p)
	for {
		select {
		case <-fi.end:
			return nil
		case <-ctx.Done():
			return fi.state(estimate)
		case <-deadline.C:
			return fi.state(estimate)
		case <-tick.C:
			if p := fi.state(estimate); p != nil {
				report(p)
			}
		}
	}
}

// partial returns the folder's first-ingest progress (nil: complete).
func (f *folder) partial() *Partial { return f.first.state(f.links.Len()) }

// askWait is the askWaitMs setting as a duration.
func (s *Server) askWait() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.settings.AskWaitMs == nil {
		return DefaultAskWait
	}
	return time.Duration(max(*s.settings.AskWaitMs, 0)) * time.Millisecond
}

// openPaths returns the paths of the documents open in folder f, which a
// whole-folder ingest takes first.
func (s *Server) openPaths(f *folder) []string {
	var out []string
	for _, u := range s.docs.uris() {
		if p := uriToPath(u); p != "" && within(f.root, p) {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// indexingNote is the line hover adds while the first ingest runs.
func indexingNote(p *Partial) string {
	return fmt.Sprintf("*(indexing %d/%d)*", p.Files, p.Of)
}
