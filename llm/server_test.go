package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/mrpvm/mrpvm/plugin"
)

// step is one scripted reply of the fake OpenAI-compatible server.
type step struct {
	status int               // 0: 200
	header map[string]string // extra reply headers
	body   string            // raw body; empty with stream == nil: okReply("hello")
	stream []string          // SSE payloads, each sent as "data: <p>\n\n" and flushed
	raw    string            // raw SSE text, sent as is (overrides stream)
	hang   bool              // wait until the client gives up
	delay  time.Duration     // wait before answering (or until the client gives up)
}

// recorded is one request the fake server received.
type recorded struct {
	Path   string
	Auth   string
	Accept string
	Body   wireRequestIn
}

// wireRequestIn decodes the request as the server sees it (temperature
// present or not matters).
type wireRequestIn struct {
	Model          string           `json:"model"`
	Messages       []plugin.Message `json:"messages"`
	Temperature    *float64         `json:"temperature"`
	MaxTokens      *int             `json:"max_tokens"`
	Stream         bool             `json:"stream"`
	StreamOptions  json.RawMessage  `json:"stream_options"`
	ResponseFormat json.RawMessage  `json:"response_format"`
}

// fake speaks the chat-completions protocol with scripted replies; the last
// step repeats.
type fake struct {
	*httptest.Server
	t     *testing.T
	mu    sync.Mutex
	steps []step
	reqs  []recorded
}

func newFake(t *testing.T, steps ...step) *fake {
	t.Helper()
	f := &fake{t: t, steps: steps}
	f.Server = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.Close)
	return f
}

// base is the OpenAI-style base URL of the server.
func (f *fake) base() string { return f.URL + "/v1" }

func (f *fake) hits() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.reqs)
}

func (f *fake) last() recorded {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.reqs) == 0 {
		f.t.Fatal("the server got no request")
	}
	return f.reqs[len(f.reqs)-1]
}

func (f *fake) serve(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	var in wireRequestIn
	if err := json.Unmarshal(raw, &in); err != nil {
		f.t.Errorf("fake server: request body is not JSON: %v: %s", err, raw)
	}
	f.mu.Lock()
	n := len(f.reqs)
	f.reqs = append(f.reqs, recorded{Path: r.URL.Path, Auth: r.Header.Get("Authorization"), Accept: r.Header.Get("Accept"), Body: in})
	st := step{}
	if len(f.steps) > 0 {
		st = f.steps[min(n, len(f.steps)-1)]
	}
	f.mu.Unlock()
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		http.Error(w, `{"error":{"message":"not found: `+r.URL.Path+`"}}`, http.StatusNotFound)
		return
	}
	if st.hang {
		<-r.Context().Done()
		return
	}
	if st.delay > 0 {
		select {
		case <-time.After(st.delay):
		case <-r.Context().Done():
			return
		}
	}
	for k, v := range st.header {
		w.Header().Set(k, v)
	}
	status := st.status
	if status == 0 {
		status = http.StatusOK
	}
	if st.stream != nil || st.raw != "" {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(status)
		fl, _ := w.(http.Flusher)
		if st.raw != "" {
			io.WriteString(w, st.raw)
			return
		}
		for _, p := range st.stream {
			fmt.Fprintf(w, "data: %s\n\n", p)
			if fl != nil {
				fl.Flush()
			}
		}
		return
	}
	body := st.body
	if body == "" && status == http.StatusOK {
		body = okReply("hello")
	}
	if w.Header().Get("Content-Type") == "" {
		w.Header().Set("Content-Type", "application/json")
	}
	w.WriteHeader(status)
	io.WriteString(w, body)
}

// okReply is a chat completion with usage.
func okReply(text string) string {
	b, _ := json.Marshal(map[string]any{
		"id": "chatcmpl-1", "object": "chat.completion", "model": "served-model",
		"choices": []any{map[string]any{"index": 0, "message": map[string]any{"role": "assistant", "content": text}, "finish_reason": "stop"}},
		"usage":   map[string]any{"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18},
	})
	return string(b)
}

// chunk is one streamed delta.
func chunk(text string, finish string) string {
	ch := map[string]any{"index": 0, "delta": map[string]any{"content": text}, "finish_reason": nil}
	if finish != "" {
		ch["finish_reason"] = finish
	}
	b, _ := json.Marshal(map[string]any{"object": "chat.completion.chunk", "model": "served-model", "choices": []any{ch}})
	return string(b)
}

const usageChunk = `{"object":"chat.completion.chunk","model":"served-model","choices":[],"usage":{"prompt_tokens":5,"completion_tokens":3,"total_tokens":8}}`

// testOpts are fast transport options: tiny backoff, recorded sleeps.
type sleeps struct {
	mu sync.Mutex
	d  []time.Duration
}

func (s *sleeps) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.d = append(s.d, d)
	s.mu.Unlock()
	return sleepCtx(ctx, min(d, time.Millisecond))
}

func (s *sleeps) all() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.d...)
}

func testOpts(sl *sleeps) Options {
	o := Options{Retry: RetryPolicy{MaxAttempts: 3, BaseDelay: time.Millisecond, MaxDelay: 4 * time.Millisecond}}
	if sl != nil {
		o.sleep = sl.sleep
	}
	return o
}

// newClient is NewClient, which must succeed.
func newClient(t *testing.T, ep Endpoint, o Options) *Client {
	t.Helper()
	c, err := NewClient(ep, o)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func testEndpoint(f *fake) Endpoint {
	return Endpoint{BaseURL: f.base(), Model: "test-model", APIKey: NewSecret(testKey), Timeout: 5 * time.Second}
}

const testKey = "sk-test-SECRET-0123456789abcdef"

func msgs(s string) []plugin.Message {
	return []plugin.Message{{Role: "system", Content: "be brief"}, {Role: "user", Content: s}}
}

func fptr(f float64) *float64 { return &f }
