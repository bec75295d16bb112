package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"go.lsp.dev/jsonrpc2"

	"github.com/mrpvm/mrpvm/kbsearch"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/vm"
	"github.com/mrpvm/mrpvm/workspace"
)

// cmdSearch ranks a folder's knowledge base for a query with one
// kb-plugin, as mrpvm search does, without the rest of the VM loop and
// without ingesting (the server keeps the knowledge base current). Each hit
// is a vm.Evidence without its text, so a client shows hits and an
// answer's evidence alike. While the folder's first ingest runs it waits
// for it as mrpvm.ask does, then searches what is ingested.
func (s *Server) cmdSearch(ctx context.Context, arg, _ json.RawMessage) (any, error) {
	var a struct {
		Query    string `json:"query"`
		K        int    `json:"k"`
		Plugin   string `json:"plugin"`
		BySource bool   `json:"bySource"`
		Folder   string `json:"folder"`
	}
	if err := decodeArg(arg, &a); err != nil {
		return nil, err
	}
	if a.K == 0 {
		a.K = kbsearch.DefaultK
	}
	if err := kbsearch.CheckQuery(a.Query, a.K); err != nil {
		return nil, searchError(err)
	}
	f, err := s.folderByURI(a.Folder)
	if err != nil {
		return nil, err
	}
	f.first.wait(ctx, s.askWait(), f.links.Len(), func(*Partial) {})
	out := []vm.Evidence{}
	err = f.withWS(ctx, func(ws *workspace.Workspace) error {
		sr, err := kbsearch.New(ws.Catalog.Registry, ws.KB, a.Plugin)
		if err != nil {
			return searchError(err)
		}
		sr.Warn = func(format string, args ...any) { s.log.Warn(fmt.Sprintf(format, args...), "folder", f.root) }
		res, err := sr.Search(ctx, plugin.SearchRequest{Query: a.Query, K: a.K, BySource: a.BySource})
		if err != nil {
			return fmt.Errorf("search: %w", err)
		}
		for _, h := range res.Hits {
			x := vm.Evidence{KUID: h.KUID, SourceID: h.SourceID, Score: h.Score, URI: kbsearch.SourceURI(ws.KB.Workspace(), h.SourceID)}
			if h.KU != nil {
				x.Title, x.Range = h.KU.Title, h.KU.Range
			}
			out = append(out, x)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// searchError makes a refused search request an InvalidParams error that
// leads with its stable code.
func searchError(err error) error {
	var e *kbsearch.Error
	if errors.As(err, &e) {
		return rpcError(jsonrpc2.InvalidParams, e.Code, "%s", e.Message)
	}
	return err
}
