package lsp

import (
	"context"
	"encoding/json"
	"time"

	"go.lsp.dev/jsonrpc2"

	"github.com/mrpvm/mrpvm/ingest"
)

// cmdIngest ingests one file or every folder.
func (s *Server) cmdIngest(ctx context.Context, arg, token json.RawMessage) (any, error) {
	var a struct {
		URI string `json:"uri"`
	}
	if err := decodeArg(arg, &a); err != nil {
		return nil, err
	}
	total := &ingest.Report{Errors: []ingest.FileError{}, Warnings: []ingest.FileWarning{}}
	add := func(r *ingest.Report) {
		total.Files += r.Files
		total.Unchanged += r.Unchanged
		total.PluginSources += r.PluginSources
		total.Removed += r.Removed
		total.KUs += r.KUs
		total.Errors = append(total.Errors, r.Errors...)
		total.Warnings = append(total.Warnings, r.Warnings...)
	}
	start := time.Now()
	if a.URI != "" {
		path := uriToPath(a.URI)
		f := s.folderFor(path)
		if path == "" || f == nil {
			return nil, badArg("%s is in no workspace folder", a.URI)
		}
		if !within(f.root, path) {
			return nil, badArg("%s is in no workspace folder", a.URI)
		}
		var paths []string
		if path != f.root {
			paths = []string{path}
		}
		rep, err := s.ingestFolder(ctx, f, paths)
		if err != nil {
			return nil, err
		}
		add(rep)
		if paths == nil {
			<-f.linksReady
			f.scanLinks()
		} else {
			s.indexFile(path)
		}
	} else {
		fs := s.folderList()
		if len(fs) == 0 {
			return nil, rpcError(jsonrpc2.InvalidRequest, "no_workspace", "no workspace folder is open")
		}
		for _, f := range fs {
			rep, err := s.ingestFolder(ctx, f, nil)
			if err != nil {
				return nil, err
			}
			add(rep)
			// An explicit ingest may follow changes no event reported.
			<-f.linksReady
			f.scanLinks()
		}
	}
	total.Seconds = time.Since(start).Seconds()
	return total, nil
}
