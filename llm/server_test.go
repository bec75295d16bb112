package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mrpvm/mrpvm/llm/llmtest"
	"github.com/mrpvm/mrpvm/plugin"
)

// step is one scripted reply of the test server.
type step struct {
	status int               // 0: 200
	header map[string]string // extra reply headers
	body   string            // raw body; empty with stream == nil: okReply("hello")
	stream []string          // SSE payloads, each sent as "data: <p>\n\n"
	raw    string            // raw SSE text, sent as is (overrides stream)
	hang   bool              // wait until the client gives up
	delay  time.Duration     // wait before answering (or until the client gives up)
}

// reply is the step as llmtest scripts it.
func (st step) reply() llmtest.Reply {
	r := llmtest.Reply{Status: st.status, Header: st.header, Body: st.body, RawSSE: st.raw, Hang: st.hang, Delay: st.delay}
	if r.RawSSE == "" && st.stream != nil {
		var b strings.Builder
		for _, p := range st.stream {
			fmt.Fprintf(&b, "data: %s\n\n", p)
		}
		r.RawSSE = b.String()
	}
	if r.Body == "" && r.RawSSE == "" && (st.status == 0 || st.status == http.StatusOK) {
		r.Body = okReply("hello")
	}
	return r
}

// recorded is one request the test server received.
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

// fake is an llmtest server that answers with steps, the last step
// repeating; a request it could not serve fails the test.
type fake struct {
	*llmtest.Server
	t *testing.T
}

func newFake(t *testing.T, steps ...step) *fake {
	t.Helper()
	if len(steps) == 0 {
		steps = []step{{}}
	}
	replies := make([]llmtest.Reply, len(steps))
	for i, st := range steps {
		replies[i] = st.reply()
	}
	s := llmtest.New(t, replies...)
	last := replies[len(replies)-1]
	s.Handle(func(llmtest.Request) llmtest.Reply { return last })
	t.Cleanup(func() {
		for _, p := range s.Problems() {
			t.Errorf("test server: %s", p)
		}
	})
	return &fake{Server: s, t: t}
}

// last is the request the server received last, as sent.
func (f *fake) last() recorded {
	f.t.Helper()
	reqs := f.Requests()
	if len(reqs) == 0 {
		f.t.Fatal("the server got no request")
	}
	r := reqs[len(reqs)-1]
	var in wireRequestIn
	if err := json.Unmarshal(r.Raw, &in); err != nil {
		f.t.Fatalf("request body is not JSON: %v: %s", err, r.Raw)
	}
	return recorded{Path: r.Path, Auth: r.Auth, Accept: r.Accept, Body: in}
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
	return Endpoint{BaseURL: f.BaseURL(), Model: "test-model", APIKey: NewSecret(testKey), Timeout: 5 * time.Second}
}

const testKey = "sk-test-SECRET-0123456789abcdef"

func msgs(s string) []plugin.Message {
	return []plugin.Message{{Role: "system", Content: "be brief"}, {Role: "user", Content: s}}
}

func fptr(f float64) *float64 { return &f }
