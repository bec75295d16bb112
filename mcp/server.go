package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"path"
	"strings"
	"sync"
	"unicode/utf8"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mrpvm/mrpvm/ingest"
	"github.com/mrpvm/mrpvm/kbsearch"
	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/retrieval"
	"github.com/mrpvm/mrpvm/version"
	"github.com/mrpvm/mrpvm/vm"
	"github.com/mrpvm/mrpvm/workspace"
)

// URI prefixes of the resources.
const (
	KUScheme     = "mrpvm://ku/"
	SourceScheme = "mrpvm://source/"
)

// MaxListedSources bounds the source files listed by resources/list; all
// ingested sources stay readable through the mrpvm://source/ template.
const MaxListedSources = 1000

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

// KUURI returns the resource URI of a KU id.
func KUURI(id string) string { return KUScheme + escape(id) }

// SourceURI returns the resource URI of a workspace-relative source path.
func SourceURI(sourceID string) string { return SourceScheme + escape(sourceID) }

// escape percent-encodes what a URI cannot hold, keeping the slashes and
// colons of ids such as notes/a.md::section-001 readable.
func escape(s string) string {
	var b strings.Builder
	for _, seg := range strings.Split(s, "/") {
		if b.Len() > 0 || strings.HasPrefix(s, "/") {
			b.WriteByte('/')
		}
		b.WriteString(strings.ReplaceAll(url.PathEscape(seg), "%3A", ":"))
	}
	return b.String()
}

func unescape(uri, prefix string) (string, error) {
	rest, ok := strings.CutPrefix(uri, prefix)
	if !ok || rest == "" {
		return "", mcpsdk.ResourceNotFoundError(uri)
	}
	id, err := url.PathUnescape(rest)
	if err != nil {
		return "", mcpsdk.ResourceNotFoundError(uri)
	}
	return id, nil
}

// update brings the knowledge base up to date unless the server was told
// not to; problems with single files are logged, not fatal.
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

// syncSources lists the ingested source files as resources.
func (s *Server) syncSources() {
	recs, err := s.w.KB.Store().Sources()
	if err != nil {
		s.opt.Logger.Warn("list sources", "err", err)
		return
	}
	now := map[string]bool{}
	for _, r := range recs {
		if r.Path == "" || len(now) >= MaxListedSources {
			continue
		}
		uri := SourceURI(r.SourceID)
		now[uri] = true
		if !s.list[uri] {
			size := r.Size
			s.srv.AddResource(&mcpsdk.Resource{URI: uri, Name: r.SourceID, Title: r.Title, MIMEType: "text/markdown", Size: size}, s.readSource)
		}
	}
	var gone []string
	for uri := range s.list {
		if !now[uri] {
			gone = append(gone, uri)
		}
	}
	if len(gone) > 0 {
		s.srv.RemoveResources(gone...)
	}
	s.list = now
}

// AskInput is the input of the ask tool.
type AskInput struct {
	Question  string            `json:"question" jsonschema:"the question, in natural language"`
	SessionID string            `json:"sessionId,omitempty" jsonschema:"continue this session (follow-up questions); empty starts a new one"`
	Pins      map[string]string `json:"pins,omitempty" jsonschema:"pin a loop stage to one plugin, e.g. {\"gs\": \"gs-symbolic\"} (stages sd, plan, kb, gs, val)"`
}

// Source is one cited source of an answer; N is its [n] in the answer.
type Source struct {
	N        int     `json:"n"`
	KUID     string  `json:"kuId"`
	Title    string  `json:"title"`
	SourceID string  `json:"sourceId"`
	Line     int     `json:"line"`
	URI      string  `json:"uri"`      // the file (file://) or built-in source
	Resource string  `json:"resource"` // mrpvm://ku/<id>: the cited text
	Score    float64 `json:"score"`
}

// AskOutput is the structured result of the ask tool.
type AskOutput struct {
	RequestID string   `json:"requestId"`
	SessionID string   `json:"sessionId"`
	Status    string   `json:"status" jsonschema:"answered, no-context, failure or invalid"`
	Answer    string   `json:"answer" jsonschema:"the answer as Markdown, citing sources as [n]"`
	Sources   []Source `json:"sources"`
	Hint      string   `json:"hint,omitempty"`
}

func (s *Server) ask(ctx context.Context, _ *mcpsdk.CallToolRequest, in AskInput) (*mcpsdk.CallToolResult, AskOutput, error) {
	if strings.TrimSpace(in.Question) == "" {
		return nil, AskOutput{}, vm.ErrEmptyQuestion
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.opt.NoIngest {
		if _, err := s.update(ctx); err != nil {
			return nil, AskOutput{}, err
		}
	}
	resp, err := s.w.VM.Ask(ctx, vm.Request{Question: in.Question, SessionID: in.SessionID, Pins: in.Pins})
	if err != nil {
		return nil, AskOutput{}, fmt.Errorf("ask: %w", err)
	}
	out := AskOutput{RequestID: resp.RequestID, SessionID: resp.SessionID, Status: resp.Status,
		Answer: strings.TrimSpace(resp.AnswerMarkdown), Sources: []Source{}, Hint: resp.Hint}
	res := &mcpsdk.CallToolResult{IsError: resp.Status == vm.StatusFailure}
	var text strings.Builder
	text.WriteString(out.Answer)
	if len(resp.Evidence) > 0 {
		text.WriteString("\n\nSources:\n")
	}
	for i, e := range resp.Evidence {
		src := Source{N: i + 1, KUID: e.KUID, Title: e.Title, SourceID: e.SourceID, Line: e.Range.StartLine,
			URI: e.URI, Resource: KUURI(e.KUID), Score: e.Score}
		out.Sources = append(out.Sources, src)
		fmt.Fprintf(&text, "[%d] %s — %s:%d (%s)\n", src.N, src.Title, src.SourceID, src.Line, src.Resource)
	}
	fmt.Fprintf(&text, "\n%s · request %s · session %s", out.Status, out.RequestID, out.SessionID)
	if out.Hint != "" {
		text.WriteString("\nnote: " + out.Hint)
	}
	res.Content = append(res.Content, &mcpsdk.TextContent{Text: text.String()})
	for _, src := range out.Sources {
		res.Content = append(res.Content, &mcpsdk.ResourceLink{URI: src.Resource, Name: src.KUID, Title: src.Title,
			Description: fmt.Sprintf("[%d] %s:%d", src.N, src.SourceID, src.Line), MIMEType: "text/markdown"})
	}
	return res, out, nil
}

// SearchInput is the input of the search tool.
type SearchInput struct {
	Query    string `json:"query" jsonschema:"free text to rank the knowledge base for"`
	Plugin   string `json:"plugin,omitempty" jsonschema:"the kb-plugin that ranks: kb-fast, kb-balanced (default) or kb-thinkingdb"`
	K        int    `json:"k,omitempty" jsonschema:"number of hits (default 10)"`
	BySource bool   `json:"bySource,omitempty" jsonschema:"one hit per file, scored as its best Knowledge Unit"`
}

// Hit is one search result.
type Hit struct {
	Rank     int     `json:"rank"`
	KUID     string  `json:"kuId"`
	SourceID string  `json:"sourceId"`
	Line     int     `json:"line"`
	Title    string  `json:"title"`
	Score    float64 `json:"score"`
	Strategy string  `json:"strategy"`
	Resource string  `json:"resource"`
	Why      string  `json:"why,omitempty"`
}

// SearchOutput is the structured result of the search tool.
type SearchOutput struct {
	Plugin string   `json:"plugin"`
	Terms  []string `json:"terms"`
	Hits   []Hit    `json:"hits"`
}

func (s *Server) search(ctx context.Context, _ *mcpsdk.CallToolRequest, in SearchInput) (*mcpsdk.CallToolResult, SearchOutput, error) {
	if in.Plugin == "" {
		in.Plugin = kbsearch.DefaultPlugin
	}
	if in.K == 0 {
		in.K = kbsearch.DefaultK
	}
	if err := kbsearch.CheckQuery(in.Query, in.K); err != nil {
		return nil, SearchOutput{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	sr, err := kbsearch.New(s.w.Catalog.Registry, s.w.KB, in.Plugin)
	if err != nil {
		return nil, SearchOutput{}, err
	}
	sr.Warn = func(format string, args ...any) { s.opt.Logger.Warn(fmt.Sprintf(format, args...)) }
	if !s.opt.NoIngest {
		if _, err := s.update(ctx); err != nil {
			return nil, SearchOutput{}, err
		}
	}
	res, err := sr.Search(ctx, retrieval.SearchRequest{Query: in.Query, K: in.K, BySource: in.BySource})
	if err != nil {
		return nil, SearchOutput{}, fmt.Errorf("search: %w", err)
	}
	out := SearchOutput{Plugin: in.Plugin, Terms: res.Terms, Hits: []Hit{}}
	if out.Terms == nil {
		out.Terms = []string{}
	}
	var text strings.Builder
	for i, h := range res.Hits {
		x := Hit{Rank: i + 1, KUID: h.KUID, SourceID: h.SourceID, Score: h.Score, Strategy: h.Strategy, Why: h.Why, Resource: KUURI(h.KUID)}
		if h.KU != nil {
			x.Line, x.Title = h.KU.Range.StartLine, h.KU.Title
		}
		out.Hits = append(out.Hits, x)
		fmt.Fprintf(&text, "%d. %.4f %s:%d %s (%s)\n", x.Rank, x.Score, x.SourceID, x.Line, x.Title, x.Resource)
	}
	fmt.Fprintf(&text, "%d hits · %s", len(out.Hits), in.Plugin)
	return &mcpsdk.CallToolResult{Content: []mcpsdk.Content{&mcpsdk.TextContent{Text: text.String()}}}, out, nil
}

// TraceInput is the input of the trace tool.
type TraceInput struct {
	RequestID string `json:"requestId,omitempty" jsonschema:"the requestId of an ask; empty: the last request"`
}

func (s *Server) trace(_ context.Context, _ *mcpsdk.CallToolRequest, in TraceInput) (*mcpsdk.CallToolResult, any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, err := s.w.VM.Trace(in.RequestID)
	if err != nil {
		return nil, nil, fmt.Errorf("trace: %w", err)
	}
	b, err := json.MarshalIndent(t, "", "  ")
	if err != nil {
		return nil, nil, fmt.Errorf("trace: %w", err)
	}
	return &mcpsdk.CallToolResult{Content: []mcpsdk.Content{&mcpsdk.TextContent{Text: string(b)}}}, nil, nil
}

// IngestInput is the input of the ingest tool (it takes none).
type IngestInput struct{}

// IngestOutput is the structured result of the ingest tool.
type IngestOutput struct {
	Files     int                `json:"files" jsonschema:"files (re)ingested in this run"`
	Unchanged int                `json:"unchanged"`
	Removed   int                `json:"removed"`
	KUs       int                `json:"kus" jsonschema:"Knowledge Units in the whole knowledge base"`
	Errors    []ingest.FileError `json:"errors"`
	Seconds   float64            `json:"seconds"`
}

func (s *Server) ingest(ctx context.Context, _ *mcpsdk.CallToolRequest, _ IngestInput) (*mcpsdk.CallToolResult, IngestOutput, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rep, err := s.update(ctx)
	if err != nil {
		return nil, IngestOutput{}, err
	}
	out := IngestOutput{Files: rep.Files, Unchanged: rep.Unchanged, Removed: rep.Removed, KUs: rep.KUs, Errors: rep.Errors, Seconds: rep.Seconds}
	if out.Errors == nil {
		out.Errors = []ingest.FileError{}
	}
	text := fmt.Sprintf("%d file(s) ingested, %d unchanged, %d removed, %d KUs, %.1fs", out.Files, out.Unchanged, out.Removed, out.KUs, out.Seconds)
	for _, e := range out.Errors {
		text += fmt.Sprintf("\n%s: %s: %s", e.Path, e.Code, e.Message)
	}
	return &mcpsdk.CallToolResult{Content: []mcpsdk.Content{&mcpsdk.TextContent{Text: text}}, IsError: rep.Failed()}, out, nil
}

func (s *Server) readKU(_ context.Context, req *mcpsdk.ReadResourceRequest) (*mcpsdk.ReadResourceResult, error) {
	uri := req.Params.URI
	id, err := unescape(uri, KUScheme)
	if err != nil {
		return nil, err
	}
	u, err := s.w.KB.Store().KU(id)
	if err != nil || u == nil {
		return nil, mcpsdk.ResourceNotFoundError(uri)
	}
	return &mcpsdk.ReadResourceResult{Contents: []*mcpsdk.ResourceContents{{URI: uri, MIMEType: "text/markdown", Text: renderKU(u)}}}, nil
}

// renderKU writes a KU as Markdown: title, provenance, statement.
func renderKU(u *kus.KU) string {
	var b strings.Builder
	title := u.Title
	if title == "" {
		title = u.ID
	}
	fmt.Fprintf(&b, "# %s\n\n", title)
	fmt.Fprintf(&b, "Source: %s:%d-%d · %s %s", u.SourceID, u.Range.StartLine, u.Range.EndLine, u.Level, u.KUType)
	if u.Role != "" {
		fmt.Fprintf(&b, " · role %s", u.Role)
	}
	b.WriteString("\n\n")
	if t := strings.TrimSpace(u.Text()); t != "" {
		b.WriteString(t + "\n")
	}
	if u.HasFact() {
		fmt.Fprintf(&b, "\nFact: %s %s %s\n", u.SymbolicSubject, u.SymbolicRelation, u.SymbolicObject)
	}
	return b.String()
}

// readSource serves an ingested source file. Only sources the knowledge
// base holds are served (so ignore rules, the binary and size checks of
// ingest have passed), and the file is opened through os.Root, so neither
// "..", an absolute path nor a symbolic link can leave the workspace.
func (s *Server) readSource(_ context.Context, req *mcpsdk.ReadResourceRequest) (*mcpsdk.ReadResourceResult, error) {
	uri := req.Params.URI
	id, err := unescape(uri, SourceScheme)
	if err != nil {
		return nil, err
	}
	rec, err := s.w.KB.Store().Source(id)
	if err != nil || rec == nil || rec.Path == "" || path.Clean(id) != id {
		return nil, mcpsdk.ResourceNotFoundError(uri)
	}
	root, err := os.OpenRoot(s.w.KB.Workspace())
	if err != nil {
		return nil, fmt.Errorf("open the workspace: %w", err)
	}
	defer root.Close()
	f, err := root.Open(id)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", id, err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, s.opt.MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", id, err)
	}
	if int64(len(b)) > s.opt.MaxFileSize {
		return nil, fmt.Errorf("read %s: larger than the %d-byte cap", id, s.opt.MaxFileSize)
	}
	if !utf8.Valid(b) {
		return nil, fmt.Errorf("read %s: not UTF-8 text", id)
	}
	return &mcpsdk.ReadResourceResult{Contents: []*mcpsdk.ResourceContents{{URI: uri, MIMEType: "text/markdown", Text: string(b)}}}, nil
}
