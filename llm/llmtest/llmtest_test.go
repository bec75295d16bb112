package llmtest_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/llm"
	"github.com/mrpvm/mrpvm/llm/llmtest"
	"github.com/mrpvm/mrpvm/plugin"
)

func client(t *testing.T, srv *llmtest.Server, stream bool, timeout time.Duration) *llm.Client {
	t.Helper()
	c, err := llm.NewClient(llm.Endpoint{BaseURL: srv.BaseURL(), Model: srv.Model, APIKey: llm.NewSecret(srv.Key), Timeout: timeout},
		llm.Options{Stream: stream, Retry: llm.RetryPolicy{MaxAttempts: 3, BaseDelay: time.Millisecond, MaxDelay: 2 * time.Millisecond}})
	require.NoError(t, err)
	return c
}

func chat(c *llm.Client, text string) (*llm.ChatResponse, error) {
	return c.Chat(context.Background(), llm.ChatRequest{Messages: []plugin.Message{{Role: "system", Content: "sys"}, {Role: "user", Content: text}}})
}

// TestScript drives the real client through every kind of scripted reply.
func TestScript(t *testing.T) {
	for _, tc := range []struct {
		name    string
		replies []llmtest.Reply
		stream  bool
		timeout time.Duration
		text    string
		code    string
		hits    int
	}{
		{name: "text", replies: []llmtest.Reply{llmtest.Text("hello")}, text: "hello", hits: 1},
		{name: "stream", replies: []llmtest.Reply{llmtest.Stream("héllo wörld")}, stream: true, text: "héllo wörld", hits: 1},
		{name: "client asks to stream", replies: []llmtest.Reply{{Text: "abc", Chunks: 3}}, stream: true, text: "abc", hits: 1},
		{name: "raw SSE", replies: []llmtest.Reply{{RawSSE: "data: {\"choices\":[{\"delta\":{\"content\":\"x\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n"}}, stream: true, text: "x", hits: 1},
		{name: "401", replies: []llmtest.Reply{llmtest.Status(http.StatusUnauthorized, "nope")}, code: llm.CodeAuth, hits: 1},
		{name: "429 then text", replies: []llmtest.Reply{llmtest.RateLimited("0"), llmtest.Text("ok")}, text: "ok", hits: 2},
		{name: "500 thrice", replies: []llmtest.Reply{llmtest.Status(500, "a"), llmtest.Status(502, "b"), llmtest.Status(503, "c")}, code: llm.CodeServer, hits: 3},
		{name: "malformed", replies: []llmtest.Reply{llmtest.Malformed()}, code: llm.CodeBadReply, hits: 1},
		{name: "hang", replies: []llmtest.Reply{llmtest.Hang()}, timeout: 100 * time.Millisecond, code: llm.CodeTimeout, hits: 1},
		{name: "delay within the timeout", replies: []llmtest.Reply{{Text: "late", Delay: 30 * time.Millisecond}}, text: "late", hits: 1},
		{name: "nothing scripted", code: llm.CodeServer, hits: 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.New(t, tc.replies...)
			timeout := tc.timeout
			if timeout == 0 {
				timeout = 5 * time.Second
			}
			r, err := chat(client(t, srv, tc.stream, timeout), "hi")
			assert.Equal(t, tc.hits, srv.Hits())
			if tc.code != "" {
				require.Error(t, err)
				assert.Equal(t, tc.code, llm.CodeOf(err), "%v", err)
				if tc.code == llm.CodeTimeout {
					assert.True(t, errors.Is(err, context.DeadlineExceeded))
				}
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.text, r.Text)
			if tc.name != "raw SSE" { // the raw stream names no model and no usage
				assert.Equal(t, llmtest.DefaultModel, r.Model)
				assert.Equal(t, llm.Usage{PromptTokens: 10, CompletionTokens: 5, TotalTokens: 15}, r.Usage)
			}
			assert.Empty(t, srv.Problems())
			assert.Zero(t, srv.Remaining())
		})
	}
}

func TestRecordsRequestsAndChecksTheKey(t *testing.T) {
	srv := llmtest.New(t)
	srv.Key = "sk-test"
	srv.Handle(func(r llmtest.Request) llmtest.Reply { return llmtest.Text("echo: " + r.LastUser()) })
	r, err := chat(client(t, srv, false, time.Second), "ping")
	require.NoError(t, err)
	assert.Equal(t, "echo: ping", r.Text)
	req := srv.Requests()[0]
	assert.Equal(t, "/v1/chat/completions", req.Path)
	assert.Equal(t, "Bearer sk-test", req.Auth)
	assert.Equal(t, "sys", req.System())
	assert.True(t, req.Contains("pin"))
	assert.Equal(t, "sk-test", srv.Env()["MRPVM_LLM_API_KEY"])

	wrong, err := llm.NewClient(llm.Endpoint{BaseURL: srv.BaseURL(), Model: srv.Model, APIKey: llm.NewSecret("sk-wrong")}, llm.Options{})
	require.NoError(t, err)
	_, err = chat(wrong, "ping")
	require.Error(t, err)
	assert.Equal(t, llm.CodeAuth, llm.CodeOf(err))
	assert.NotContains(t, err.Error(), "sk-wrong")
	assert.True(t, strings.HasSuffix(srv.BaseURL(), "/v1"))
}
