package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mrpvm/mrpvm/ingest"
	"github.com/mrpvm/mrpvm/version"
	"github.com/mrpvm/mrpvm/workspace"
)

// Options tune the server.
type Options struct {
	// MaxFileSize caps a source file read as a resource
	// (ingest.DefaultMaxFileSize when 0): the knowledge base's own cap.
	MaxFileSize int64
	// NoIngest answers from the knowledge base as it is: ask and search do
	// not first bring it up to date.
	NoIngest bool
	// Logger receives the server's log; nil discards it.
	Logger *slog.Logger
}

// Server is the MCP server of one open workspace. Tool calls run one at a
// time: they share one knowledge base and one ingest.
type Server struct {
	w    *workspace.Workspace
	opt  Options
	srv  *mcpsdk.Server
	mu   sync.Mutex
	list map[string]bool // source resources currently listed
}

// New builds the server over an open workspace; the caller keeps
// ownership of w and closes it after Run returns.
func New(w *workspace.Workspace, opt Options) *Server {
	if opt.MaxFileSize <= 0 {
		opt.MaxFileSize = ingest.DefaultMaxFileSize
	}
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	s := &Server{w: w, opt: opt, list: map[string]bool{}}
	s.srv = mcpsdk.NewServer(&mcpsdk.Implementation{Name: "mrpvm", Title: "mrpvm knowledge base", Version: version.Version()},
		&mcpsdk.ServerOptions{
			Logger: opt.Logger,
			Instructions: "mrpvm answers questions from the Markdown knowledge base of the workspace " + w.KB.Workspace() +
				". Use ask for a cited answer, search to find passages, and read mrpvm://ku/<id> or mrpvm://source/<path> for the text behind a citation.",
		})
	mcpsdk.AddTool(s.srv, &mcpsdk.Tool{Name: "ask", Title: "Ask the knowledge base",
		Description: "Answer a question from the workspace's Markdown knowledge base through mrpvm's plugin VM. " +
			"The answer cites its sources as [n]; each source names the file and line and the mrpvm://ku/ resource holding the cited text."}, s.ask)
	mcpsdk.AddTool(s.srv, &mcpsdk.Tool{Name: "search", Title: "Search the knowledge base",
		Description: "Rank the workspace's Knowledge Units for a query with one kb-plugin (kb-balanced by default) and return the best with file, line, title and score."}, s.search)
	mcpsdk.AddTool(s.srv, &mcpsdk.Tool{Name: "trace", Title: "Trace of a request",
		Description: "Return the trace of a past ask (the last one when requestId is empty): every stage, plugin, status, timing and error, as JSON."}, s.trace)
	mcpsdk.AddTool(s.srv, &mcpsdk.Tool{Name: "ingest", Title: "Update the knowledge base",
		Description: "Bring the knowledge base up to date with the workspace: new and changed Markdown files are read, deleted ones removed."}, s.ingest)
	s.srv.AddResourceTemplate(&mcpsdk.ResourceTemplate{Name: "ku", Title: "Knowledge Unit", URITemplate: KUScheme + "{+id}",
		Description: "One Knowledge Unit: its title, where it comes from and its text.", MIMEType: "text/markdown"}, s.readKU)
	s.srv.AddResourceTemplate(&mcpsdk.ResourceTemplate{Name: "source", Title: "Source file", URITemplate: SourceScheme + "{+path}",
		Description: "An ingested source file of the workspace, by its workspace-relative path.", MIMEType: "text/markdown"}, s.readSource)
	return s
}

// Run lists the ingested sources, then serves t until the client
// disconnects or ctx ends.
func (s *Server) Run(ctx context.Context, t mcpsdk.Transport) error {
	s.mu.Lock()
	s.syncSources()
	s.mu.Unlock()
	if err := s.srv.Run(ctx, t); err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.EOF) {
		return fmt.Errorf("mcp: %w", err)
	}
	return nil
}

// refresh brings the knowledge base up to date before ask and search,
// unless the server was told not to (Options.NoIngest).
func (s *Server) refresh(ctx context.Context) error {
	if s.opt.NoIngest {
		return nil
	}
	_, err := s.update(ctx)
	return err
}

// update brings the knowledge base up to date and lists its sources
// again; problems with single files are logged, not fatal.
func (s *Server) update(ctx context.Context) (*ingest.Report, error) {
	rep, err := s.w.KB.Ingest(ctx, ingest.RunOptions{})
	if err != nil {
		return nil, fmt.Errorf("ingest: %w", err)
	}
	for _, e := range rep.Errors {
		s.opt.Logger.Warn("ingest", "path", e.Path, "code", e.Code, "message", e.Message)
	}
	s.syncSources()
	return rep, nil
}
