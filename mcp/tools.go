package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mrpvm/mrpvm/ingest"
	"github.com/mrpvm/mrpvm/kbsearch"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/vm"
)

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
	if err := s.refresh(ctx); err != nil {
		return nil, AskOutput{}, err
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

// Hit is one search result: the hit as mrpvm search prints it, and the
// resource holding the KU's text.
type Hit struct {
	kbsearch.Hit
	Resource string `json:"resource"`
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
	if err := s.refresh(ctx); err != nil {
		return nil, SearchOutput{}, err
	}
	res, err := sr.Search(ctx, plugin.SearchRequest{Query: in.Query, K: in.K, BySource: in.BySource})
	if err != nil {
		return nil, SearchOutput{}, fmt.Errorf("search: %w", err)
	}
	out := SearchOutput{Plugin: in.Plugin, Terms: res.Terms, Hits: []Hit{}}
	if out.Terms == nil {
		out.Terms = []string{}
	}
	var text strings.Builder
	for _, h := range kbsearch.Hits(res) {
		x := Hit{Hit: h, Resource: KUURI(h.KUID)}
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
