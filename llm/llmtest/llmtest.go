package llmtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mrpvm/mrpvm/plugin"
)

// DefaultModel is the model name the server reports when a reply names none.
const DefaultModel = "llmtest-model"

// Usage is the token count a reply reports.
type Usage struct {
	PromptTokens     int
	CompletionTokens int
}

// Reply is one scripted answer. The zero value is an empty successful
// completion; set Text for the usual case.
type Reply struct {
	// Status is the HTTP status; 0 means 200.
	Status int
	// Header holds extra reply headers, e.g. {"Retry-After": "0"}.
	Header map[string]string
	// Text is the assistant message of a successful reply.
	Text string
	// Body, when set, is sent as is instead of a completion built from
	// Text (malformed JSON, error objects, ...).
	Body string
	// Stream sends Text as server-sent events, split into Chunks pieces
	// of about equal size (default 3), followed by a usage chunk and
	// [DONE]. It is also chosen when the request asked for a stream and
	// Body is empty.
	Stream bool
	Chunks int
	// RawSSE, when set, is written as the event stream verbatim.
	RawSSE string
	// Delay waits before answering (or until the client gives up).
	Delay time.Duration
	// Hang waits until the client gives up and answers nothing.
	Hang bool
	// Model is the model the reply names; "" : the requested one, else
	// DefaultModel.
	Model string
	// Usage is the reported usage; nil: 10 prompt and 5 completion tokens.
	Usage *Usage
	// FinishReason defaults to "stop".
	FinishReason string
}

// Text is a successful reply with the given assistant message.
func Text(s string) Reply { return Reply{Text: s} }

// Stream is a successful reply streamed as server-sent events.
func Stream(s string) Reply { return Reply{Text: s, Stream: true} }

// Status is an error reply with an OpenAI-style error body.
func Status(code int, message string) Reply {
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": message, "type": "llmtest"}})
	return Reply{Status: code, Body: string(b)}
}

// RateLimited is a 429 with Retry-After (in seconds, may be 0).
func RateLimited(retryAfter string) Reply {
	r := Status(http.StatusTooManyRequests, "rate limit reached")
	r.Header = map[string]string{"Retry-After": retryAfter}
	return r
}

// Malformed is a 200 whose body is not a chat completion.
func Malformed() Reply { return Reply{Body: `{"choices": [ {"message": `} }

// Hang waits until the client gives up.
func Hang() Reply { return Reply{Hang: true} }

// Request is one request the server received.
type Request struct {
	Path        string
	Query       string // the raw query string
	Auth        string // the Authorization header
	Accept      string // the Accept header
	Model       string
	Messages    []plugin.Message
	Temperature *float64
	MaxTokens   int
	Stream      bool
	JSON        bool // response_format json_object was asked for
	Raw         []byte
}

// System returns the content of the first system message.
func (r Request) System() string {
	for _, m := range r.Messages {
		if m.Role == "system" {
			return m.Content
		}
	}
	return ""
}

// LastUser returns the content of the last user message.
func (r Request) LastUser() string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "user" {
			return r.Messages[i].Content
		}
	}
	return ""
}

// Contains reports whether any message holds s.
func (r Request) Contains(s string) bool {
	for _, m := range r.Messages {
		if strings.Contains(m.Content, s) {
			return true
		}
	}
	return false
}

// Server is a running test server. It is safe for concurrent use.
type Server struct {
	*httptest.Server
	// Model is a model name to configure clients with.
	Model string
	// Key, when set, is the bearer key every request must carry; others
	// get 401. Set it before the first request.
	Key string

	// Models are the model ids GET …/models lists (the OpenAI model list,
	// which Ollama also serves); nil lists Model alone.
	Models []string

	mu       sync.Mutex
	listings int
	script   []Reply
	handler  func(Request) Reply
	reqs     []Request
	problems []string
}

// New starts a server that serves replies in order; it is closed when the
// test ends.
func New(tb testing.TB, replies ...Reply) *Server {
	tb.Helper()
	s := Start(replies...)
	tb.Cleanup(s.Close)
	return s
}

// Start starts a server outside a test; the caller closes it.
func Start(replies ...Reply) *Server {
	s := &Server{Model: DefaultModel, script: append([]Reply(nil), replies...)}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// BaseURL is the OpenAI-style base URL (…/v1) to configure clients with.
func (s *Server) BaseURL() string { return s.URL + "/v1" }

// Env returns the MRPVM_LLM_* settings that point mrpvm at the server.
func (s *Server) Env() map[string]string {
	env := map[string]string{"MRPVM_LLM_BASE_URL": s.BaseURL(), "MRPVM_LLM_MODEL": s.Model}
	if s.Key != "" {
		env["MRPVM_LLM_API_KEY"] = s.Key
	}
	return env
}

// Script appends replies to the script.
func (s *Server) Script(replies ...Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script = append(s.script, replies...)
}

// Handle sets the function that answers once the script is used up.
func (s *Server) Handle(fn func(Request) Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.handler = fn
}

// Requests returns the requests received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// Hits returns the number of chat-completion requests received.
func (s *Server) Hits() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.reqs)
}

// Problems lists requests the server could not serve as scripted
// (bad JSON, wrong path, nothing scripted); a test usually wants none.
func (s *Server) Problems() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.problems...)
}

// Listings returns the number of model-list requests (GET …/models)
// received.
func (s *Server) Listings() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.listings
}

func (s *Server) listModels(w http.ResponseWriter) {
	s.mu.Lock()
	s.listings++
	ids := s.Models
	s.mu.Unlock()
	if ids == nil {
		ids = []string{s.Model}
	}
	type model struct {
		ID     string `json:"id"`
		Object string `json:"object"`
	}
	list := struct {
		Object string  `json:"object"`
		Data   []model `json:"data"`
	}{Object: "list", Data: []model{}}
	for _, id := range ids {
		list.Data = append(list.Data, model{ID: id, Object: "model"})
	}
	b, _ := json.Marshal(list)
	writeJSON(w, http.StatusOK, string(b))
}

// Remaining returns the number of scripted replies not yet served.
func (s *Server) Remaining() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.script)
}

type wireIn struct {
	Model          string           `json:"model"`
	Messages       []plugin.Message `json:"messages"`
	Temperature    *float64         `json:"temperature"`
	MaxTokens      int              `json:"max_tokens"`
	Stream         bool             `json:"stream"`
	ResponseFormat *struct {
		Type string `json:"type"`
	} `json:"response_format"`
}

func (s *Server) problem(format string, args ...any) {
	s.mu.Lock()
	s.problems = append(s.problems, fmt.Sprintf(format, args...))
	s.mu.Unlock()
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/models") {
		s.listModels(w)
		return
	}
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/chat/completions") {
		s.problem("%s %s: not a chat-completions request", r.Method, r.URL.Path)
		writeJSON(w, http.StatusNotFound, Status(http.StatusNotFound, "no route "+r.URL.Path).Body)
		return
	}
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		s.problem("reading the request: %v", err)
		return
	}
	var in wireIn
	if err := json.Unmarshal(raw, &in); err != nil {
		s.problem("request body is not JSON: %v", err)
		writeJSON(w, http.StatusBadRequest, Status(http.StatusBadRequest, "bad JSON").Body)
		return
	}
	req := Request{Path: r.URL.Path, Query: r.URL.RawQuery, Auth: r.Header.Get("Authorization"), Accept: r.Header.Get("Accept"), Model: in.Model, Messages: in.Messages,
		Temperature: in.Temperature, MaxTokens: in.MaxTokens, Stream: in.Stream,
		JSON: in.ResponseFormat != nil && in.ResponseFormat.Type == "json_object", Raw: raw}

	s.mu.Lock()
	s.reqs = append(s.reqs, req)
	n := len(s.reqs)
	if s.Key != "" && req.Auth != "Bearer "+s.Key {
		s.mu.Unlock()
		writeJSON(w, http.StatusUnauthorized, Status(http.StatusUnauthorized, "invalid API key").Body)
		return
	}
	var rep Reply
	scripted := len(s.script) > 0
	if scripted {
		rep, s.script = s.script[0], s.script[1:]
	}
	h := s.handler
	s.mu.Unlock()

	if !scripted {
		if h == nil {
			s.problem("request %d: no reply scripted", n)
			writeJSON(w, http.StatusInternalServerError, Status(http.StatusInternalServerError, fmt.Sprintf("llmtest: no reply scripted for request %d", n)).Body)
			return
		}
		rep = h(req)
	}
	s.reply(w, r, req, rep)
}

func (s *Server) reply(w http.ResponseWriter, r *http.Request, req Request, rep Reply) {
	if rep.Hang {
		<-r.Context().Done()
		return
	}
	if rep.Delay > 0 {
		t := time.NewTimer(rep.Delay)
		defer t.Stop()
		select {
		case <-t.C:
		case <-r.Context().Done():
			return
		}
	}
	for k, v := range rep.Header {
		w.Header().Set(k, v)
	}
	status := rep.Status
	if status == 0 {
		status = http.StatusOK
	}
	model := rep.Model
	if model == "" {
		model = req.Model
	}
	if model == "" {
		model = DefaultModel
	}
	usage := Usage{PromptTokens: 10, CompletionTokens: 5}
	if rep.Usage != nil {
		usage = *rep.Usage
	}
	finish := rep.FinishReason
	if finish == "" {
		finish = "stop"
	}
	switch {
	case rep.RawSSE != "":
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(status)
		io.WriteString(w, rep.RawSSE)
	case rep.Body != "":
		writeJSON(w, status, rep.Body)
	case status == http.StatusOK && (rep.Stream || req.Stream):
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(status)
		fl, _ := w.(http.Flusher)
		for _, piece := range split(rep.Text, rep.Chunks) {
			fmt.Fprintf(w, "data: %s\n\n", chunk(model, piece, ""))
			if fl != nil {
				fl.Flush()
			}
		}
		fmt.Fprintf(w, "data: %s\n\n", chunk(model, "", finish))
		fmt.Fprintf(w, "data: %s\n\n", usageChunk(model, usage))
		io.WriteString(w, "data: [DONE]\n\n")
	default:
		writeJSON(w, status, Completion(model, rep.Text, finish, usage))
	}
}

// Completion is the JSON body of a non-streamed chat completion.
func Completion(model, text, finish string, u Usage) string {
	b, _ := json.Marshal(map[string]any{
		"id": "chatcmpl-llmtest", "object": "chat.completion", "created": 0, "model": model,
		"choices": []any{map[string]any{"index": 0, "message": map[string]any{"role": "assistant", "content": text}, "finish_reason": finish}},
		"usage": map[string]any{"prompt_tokens": u.PromptTokens, "completion_tokens": u.CompletionTokens,
			"total_tokens": u.PromptTokens + u.CompletionTokens},
	})
	return string(b)
}

func chunk(model, text, finish string) string {
	ch := map[string]any{"index": 0, "delta": map[string]any{"content": text}, "finish_reason": nil}
	if finish != "" {
		ch["delta"] = map[string]any{}
		ch["finish_reason"] = finish
	}
	b, _ := json.Marshal(map[string]any{"id": "chatcmpl-llmtest", "object": "chat.completion.chunk", "model": model, "choices": []any{ch}})
	return string(b)
}

func usageChunk(model string, u Usage) string {
	b, _ := json.Marshal(map[string]any{"id": "chatcmpl-llmtest", "object": "chat.completion.chunk", "model": model, "choices": []any{},
		"usage": map[string]any{"prompt_tokens": u.PromptTokens, "completion_tokens": u.CompletionTokens,
			"total_tokens": u.PromptTokens + u.CompletionTokens}})
	return string(b)
}

// split cuts s into n pieces of about equal size, at rune boundaries.
func split(s string, n int) []string {
	if n <= 0 {
		n = 3
	}
	rs := []rune(s)
	if len(rs) == 0 {
		return []string{""}
	}
	n = min(n, len(rs))
	out := make([]string, 0, n)
	size := (len(rs) + n - 1) / n
	for i := 0; i < len(rs); i += size {
		out = append(out, string(rs[i:min(i+size, len(rs))]))
	}
	return out
}

func writeJSON(w http.ResponseWriter, status int, body string) {
	if w.Header().Get("Content-Type") == "" {
		w.Header().Set("Content-Type", "application/json")
	}
	w.WriteHeader(status)
	io.WriteString(w, body)
}
