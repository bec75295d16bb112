package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mrpvm/mrpvm/store"
	"github.com/mrpvm/mrpvm/vm"
	"github.com/mrpvm/mrpvm/workspace"
)

// askResult is mrpvm.ask's result: the VM's response and, when the first
// ingest of the folder was still running, how much of it was done.
type askResult struct {
	*vm.Response
	Partial *Partial `json:"partial,omitempty"`
}

// cmdAsk answers a question through the VM. While the folder's first
// ingest runs it waits for it up to the askWaitMs setting (reporting the
// ingest's progress), then answers from what is ingested and says so in
// the result's partial member. A context (a passage the user selected)
// is added to the question.
func (s *Server) cmdAsk(ctx context.Context, arg, token json.RawMessage) (any, error) {
	var a struct {
		Question  string            `json:"question"`
		Context   string            `json:"context"`
		SessionID string            `json:"sessionId"`
		Pins      map[string]string `json:"pins"`
		// Preferences set the session's preferred plugin per stage.
		Preferences map[string]string `json:"preferences"`
		Folder      string            `json:"folder"`
	}
	if err := decodeArg(arg, &a); err != nil {
		return nil, err
	}
	if strings.TrimSpace(a.Question) == "" {
		return nil, badArg("question is empty")
	}
	f, err := s.folderByURI(a.Folder)
	if err != nil {
		return nil, err
	}
	question := a.Question
	if c := strings.TrimSpace(a.Context); c != "" {
		question += "\n\nAbout this passage:\n" + clip(c, 4000)
	}
	prog := s.beginProgress(ctx, "mrpvm: ask", clip(a.Question, 80), token)
	defer prog.end("")
	partial := f.first.wait(ctx, s.askWait(), f.links.Len(), func(p *Partial) {
		prog.report(fmt.Sprintf("waiting for the first ingest: %d/%d files", p.Files, p.Of))
	})
	// partial is the state the answer starts from: sources committed
	// while it runs may or may not have been seen, so it stays partial.
	var resp *vm.Response
	err = f.withWS(ctx, func(ws *workspace.Workspace) error {
		var err error
		resp, err = ws.VM.Ask(ctx, vm.Request{Question: question, SessionID: a.SessionID, CreateSession: true, Pins: a.Pins, Preferences: a.Preferences})
		if err != nil && (resp == nil || errors.Is(err, store.ErrCorrupt)) {
			return err
		}
		if err != nil {
			// An invalid request (bad pins, bad session id) still has a response.
			return badArg("%v", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return askResult{Response: resp, Partial: partial}, nil
}
