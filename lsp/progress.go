package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"
)

// progress reports one long operation through $/progress. A nil *progress
// (the client cannot show progress) ignores every call.
type progress struct {
	s     *Server
	token any
	mu    sync.Mutex
	last  time.Time
	pct   uint32
	ended bool
}

// beginProgress starts a work-done progress: with the client's token when
// the request carried one, else with a token created through
// window/workDoneProgress/create. It must not run on the read loop.
func (s *Server) beginProgress(ctx context.Context, title, message string, clientToken json.RawMessage) *progress {
	var token any
	if len(clientToken) > 0 && string(clientToken) != "null" {
		token = clientToken
	} else {
		s.mu.Lock()
		ok := s.caps.WorkDoneProgress
		s.mu.Unlock()
		if !ok {
			return nil
		}
		token = fmt.Sprintf("mrpvm-%d", s.tokens.Add(1))
		if err := s.call(ctx, "window/workDoneProgress/create", map[string]any{"token": token}, nil); err != nil {
			s.log.Warn("workDoneProgress/create", "err", err)
			return nil
		}
	}
	p := &progress{s: s, token: token}
	v := map[string]any{"kind": "begin", "title": title, "cancellable": false, "percentage": 0}
	if message != "" {
		v["message"] = message
	}
	s.notify("$/progress", map[string]any{"token": token, "value": v})
	return p
}

// files is an ingest.Progress: a report at most every 50ms or on each
// percentage step, and always for the last file.
func (p *progress) files(done, total int, _ string) {
	if p == nil || total <= 0 {
		return
	}
	pct := uint32(done * 100 / total)
	p.mu.Lock()
	if p.ended || (pct == p.pct && time.Since(p.last) < 50*time.Millisecond && done != total) {
		p.mu.Unlock()
		return
	}
	p.pct, p.last = pct, time.Now()
	p.mu.Unlock()
	p.s.notify("$/progress", map[string]any{"token": p.token, "value": map[string]any{
		"kind": "report", "percentage": pct, "message": fmt.Sprintf("%d/%d files", done, total)}})
}

// report sends a free-text report.
func (p *progress) report(message string) {
	if p == nil {
		return
	}
	p.s.notify("$/progress", map[string]any{"token": p.token, "value": map[string]any{"kind": "report", "message": message}})
}

// end finishes the progress.
func (p *progress) end(message string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	if p.ended {
		p.mu.Unlock()
		return
	}
	p.ended = true
	p.mu.Unlock()
	v := map[string]any{"kind": "end"}
	if message != "" {
		v["message"] = message
	}
	p.s.notify("$/progress", map[string]any{"token": p.token, "value": v})
}
