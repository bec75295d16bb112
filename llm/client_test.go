package llm

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/plugin"
)

func TestChatSuccess(t *testing.T) {
	f := newFake(t, step{})
	ep := testEndpoint(f)
	ep.Temperature, ep.MaxTokens = fptr(0), 800
	c := newClient(t, ep, testOpts(nil))

	r, err := c.Chat(context.Background(), ChatRequest{Messages: msgs("hi")})
	require.NoError(t, err)
	assert.Equal(t, "hello", r.Text)
	assert.Equal(t, "served-model", r.Model)
	assert.Equal(t, "stop", r.FinishReason)
	assert.Equal(t, Usage{PromptTokens: 11, CompletionTokens: 7, TotalTokens: 18}, r.Usage)
	assert.Equal(t, 1, r.Attempts)
	assert.False(t, r.Cached)

	got := f.last()
	assert.Equal(t, "/v1/chat/completions", got.Path)
	assert.Equal(t, "Bearer "+testKey, got.Auth)
	assert.Equal(t, "application/json", got.Accept)
	assert.Equal(t, "test-model", got.Body.Model)
	assert.Equal(t, msgs("hi"), got.Body.Messages)
	require.NotNil(t, got.Body.Temperature, "temperature 0 must be sent, not omitted")
	assert.Equal(t, 0.0, *got.Body.Temperature)
	require.NotNil(t, got.Body.MaxTokens)
	assert.Equal(t, 800, *got.Body.MaxTokens)
	assert.False(t, got.Body.Stream)
	assert.Empty(t, got.Body.ResponseFormat)

	// Request values override the endpoint's; JSON asks for a JSON object.
	_, err = c.Chat(context.Background(), ChatRequest{Messages: msgs("hi"), Temperature: fptr(0.7), MaxTokens: 50, JSON: true})
	require.NoError(t, err)
	got = f.last()
	assert.Equal(t, 0.7, *got.Body.Temperature)
	assert.Equal(t, 50, *got.Body.MaxTokens)
	assert.JSONEq(t, `{"type":"json_object"}`, string(got.Body.ResponseFormat))

	// plugin.LLM
	sr, err := c.Complete(context.Background(), plugin.LLMRequest{Messages: msgs("x")})
	require.NoError(t, err)
	assert.Equal(t, &plugin.LLMResponse{Text: "hello", Model: "served-model", PromptTokens: 11, CompletionTokens: 7}, sr)
}

func TestChatNoKeyNoTemperature(t *testing.T) {
	f := newFake(t, step{})
	c := newClient(t, Endpoint{BaseURL: f.BaseURL() + "/", Model: "m"}, testOpts(nil))
	_, err := c.Chat(context.Background(), ChatRequest{Messages: msgs("hi")})
	require.NoError(t, err)
	got := f.last()
	assert.Empty(t, got.Auth, "no key, no Authorization header")
	assert.Nil(t, got.Body.Temperature, "no temperature set anywhere: omitted")
	assert.Nil(t, got.Body.MaxTokens)
	assert.Equal(t, "/v1/chat/completions", got.Path, "a trailing slash on the base URL is harmless")
}

func TestFullChatURLAccepted(t *testing.T) {
	f := newFake(t, step{})
	c := newClient(t, Endpoint{BaseURL: f.BaseURL() + "/chat/completions", Model: "m"}, testOpts(nil))
	_, err := c.Chat(context.Background(), ChatRequest{Messages: msgs("hi")})
	require.NoError(t, err)
	assert.Equal(t, "/v1/chat/completions", f.last().Path)
}

func TestStreaming(t *testing.T) {
	full := []string{chunk("Hel", ""), chunk("lo, ", ""), chunk("world", "stop"), usageChunk, "[DONE]"}
	cases := []struct {
		name      string
		st        step
		wantText  string
		wantUsage Usage
		wantCode  string
	}{
		{name: "chunks, usage, done", st: step{stream: full}, wantText: "Hello, world", wantUsage: Usage{5, 3, 8}},
		{name: "CRLF, no space after data:, comments, event names", st: step{raw: ": keep-alive\r\n\r\n" +
			"event: message\r\ndata:" + chunk("a", "") + "\r\n\r\n" + "data: " + chunk("b", "length") + "\r\n\r\ndata: [DONE]\r\n\r\n"},
			wantText: "ab"},
		{name: "closed without DONE after a finish reason", st: step{raw: "data: " + chunk("x", "stop") + "\n\n"}, wantText: "x"},
		{name: "JSON reply although streaming was asked", st: step{body: okReply("plain")}, wantText: "plain", wantUsage: Usage{11, 7, 18}},
		{name: "not an event stream", st: step{raw: "<html>oops</html>"}, wantCode: CodeBadReply},
		{name: "garbage chunk", st: step{stream: []string{chunk("a", ""), "{not json"}}, wantCode: CodeBadReply},
		{name: "error event", st: step{stream: []string{`{"error":{"message":"model crashed"}}`}}, wantCode: CodeServer},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, tc.st)
			c := newClient(t, testEndpoint(f), testOpts(nil))
			var deltas []string
			r, err := c.Stream(context.Background(), ChatRequest{Messages: msgs("hi")}, func(s string) error {
				deltas = append(deltas, s)
				return nil
			})
			if tc.wantCode != "" {
				require.Error(t, err)
				assert.Equal(t, tc.wantCode, CodeOf(err), "%v", err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.wantText, r.Text)
			assert.Equal(t, tc.wantText, strings.Join(deltas, ""))
			assert.Equal(t, tc.wantUsage, r.Usage)
			got := f.last()
			assert.True(t, got.Body.Stream)
			assert.JSONEq(t, `{"include_usage":true}`, string(got.Body.StreamOptions))
			assert.Equal(t, "text/event-stream", got.Accept)
		})
	}
}

func TestStreamOption(t *testing.T) {
	f := newFake(t, step{stream: []string{chunk("one ", ""), chunk("two", "stop"), "[DONE]"}})
	o := testOpts(nil)
	o.Stream = true
	c := newClient(t, testEndpoint(f), o)
	r, err := c.Chat(context.Background(), ChatRequest{Messages: msgs("hi")})
	require.NoError(t, err)
	assert.Equal(t, "one two", r.Text)
	assert.Equal(t, "stop", r.FinishReason)
	assert.Equal(t, "served-model", r.Model)
}

func TestStreamConsumerError(t *testing.T) {
	f := newFake(t, step{stream: []string{chunk("a", ""), chunk("b", "stop"), "[DONE]"}})
	c := newClient(t, testEndpoint(f), testOpts(nil))
	stop := errors.New("enough")
	_, err := c.Stream(context.Background(), ChatRequest{Messages: msgs("hi")}, func(string) error { return stop })
	require.ErrorIs(t, err, stop)
	assert.Equal(t, 1, f.Hits())
}

func TestStreamBrokenAfterDeltaNotRetried(t *testing.T) {
	// The first reply breaks mid-stream after text was delivered: retrying
	// would deliver the text twice.
	f := newFake(t, step{raw: "data: " + chunk("partial", "") + "\n\n"}, step{stream: []string{chunk("whole", "stop"), "[DONE]"}})
	c := newClient(t, testEndpoint(f), testOpts(nil))
	_, err := c.Stream(context.Background(), ChatRequest{Messages: msgs("hi")}, func(string) error { return nil })
	require.Error(t, err)
	assert.Equal(t, CodeBadReply, CodeOf(err))
	assert.Equal(t, 1, f.Hits())

	// Without a consumer the whole reply is assembled internally, so the
	// broken stream is retried.
	f2 := newFake(t, step{raw: "data: " + chunk("partial", "") + "\n\n"}, step{stream: []string{chunk("whole", "stop"), "[DONE]"}})
	o := testOpts(nil)
	o.Stream = true
	c2, err := NewClient(testEndpoint(f2), o)
	require.NoError(t, err)
	r, err := c2.Chat(context.Background(), ChatRequest{Messages: msgs("hi")})
	require.NoError(t, err)
	assert.Equal(t, "whole", r.Text)
	assert.Equal(t, 2, r.Attempts)
}

func TestErrors(t *testing.T) {
	date := time.Now().Add(3 * time.Second).UTC().Format(http.TimeFormat)
	cases := []struct {
		name      string
		steps     []step
		wantText  string // success expected when set
		wantCode  string
		wantHits  int
		wantSleep []time.Duration // exact waits, when checked
		minSleep  time.Duration   // first wait at least this, when set
		inMsg     []string
	}{
		{name: "429 with Retry-After seconds, then success",
			steps:    []step{{status: 429, header: map[string]string{"Retry-After": "2"}, body: `{"error":{"message":"slow down"}}`}, {}},
			wantText: "hello", wantHits: 2, wantSleep: []time.Duration{2 * time.Second}},
		{name: "429 with Retry-After HTTP date, then success",
			steps:    []step{{status: 429, header: map[string]string{"Retry-After": date}}, {}},
			wantText: "hello", wantHits: 2, minSleep: time.Second},
		{name: "429 with retry-after-ms, then success",
			steps:    []step{{status: 429, header: map[string]string{"Retry-After-Ms": "250"}}, {}},
			wantText: "hello", wantHits: 2, wantSleep: []time.Duration{250 * time.Millisecond}},
		{name: "429 asking for too long a wait fails at once",
			steps:    []step{{status: 429, header: map[string]string{"Retry-After": "3600"}}},
			wantCode: CodeRateLimited, wantHits: 1, inMsg: []string{"retry after 1h0m0s"}},
		{name: "429 every time", steps: []step{{status: 429}}, wantCode: CodeRateLimited, wantHits: 3},
		{name: "503 then success", steps: []step{{status: 503}, {status: 502}, {}}, wantText: "hello", wantHits: 3},
		{name: "500 retries exhausted", steps: []step{{status: 500, body: `{"error":{"message":"CUDA out of memory"}}`}},
			wantCode: CodeServer, wantHits: 3, inMsg: []string{"CUDA out of memory", "after 3 attempts", "HTTP 500"}},
		{name: "501 is not retried", steps: []step{{status: 501}}, wantCode: CodeServer, wantHits: 1},
		{name: "401", steps: []step{{status: 401, body: `{"error":{"message":"Incorrect API key provided"}}`}},
			wantCode: CodeAuth, wantHits: 1, inMsg: []string{"rejected the API key", "MRPVM_LLM_API_KEY", "Incorrect API key provided"}},
		{name: "403", steps: []step{{status: 403, body: `forbidden`}}, wantCode: CodeAuth, wantHits: 1},
		{name: "404", steps: []step{{status: 404, body: `{"error":{"message":"model \"test-model\" not found, try pulling it first","type":"api_error"}}`}},
			wantCode: CodeNotFound, wantHits: 1, inMsg: []string{`model "test-model" or the URL is wrong`, "try pulling it first", "/v1/chat/completions"}},
		{name: "400 context overflow", steps: []step{{status: 400, body: `{"error":"context length exceeded"}`}},
			wantCode: CodeBadRequest, wantHits: 1, inMsg: []string{"context length exceeded"}},
		{name: "garbage JSON", steps: []step{{body: `{"choices": [ oops`}}, wantCode: CodeBadReply, wantHits: 1, inMsg: []string{"invalid JSON"}},
		{name: "HTML page", steps: []step{{body: `<html>proxy login</html>`, header: map[string]string{"Content-Type": "text/html"}}},
			wantCode: CodeBadReply, wantHits: 1, inMsg: []string{"proxy login"}},
		{name: "no choices", steps: []step{{body: `{"choices":[]}`}}, wantCode: CodeBadReply, wantHits: 1, inMsg: []string{"no choices"}},
		{name: "null content", steps: []step{{body: `{"choices":[{"message":{"role":"assistant","content":null}}]}`}},
			wantCode: CodeBadReply, wantHits: 1},
		{name: "error object with 200", steps: []step{{body: `{"error":{"message":"backend exploded"}}`}},
			wantCode: CodeBadReply, wantHits: 1, inMsg: []string{"backend exploded"}},
		{name: "content parts", steps: []step{{body: `{"choices":[{"message":{"content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}}]}`}},
			wantText: "ab", wantHits: 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, tc.steps...)
			sl := &sleeps{}
			o := testOpts(sl)
			o.Retry.MaxRetryAfter = 10 * time.Second
			c := newClient(t, testEndpoint(f), o)
			r, err := c.Chat(context.Background(), ChatRequest{Messages: msgs("hi")})
			assert.Equal(t, tc.wantHits, f.Hits(), "HTTP attempts")
			if tc.wantText != "" {
				require.NoError(t, err)
				assert.Equal(t, tc.wantText, r.Text)
				assert.Equal(t, tc.wantHits, r.Attempts)
			} else {
				require.Error(t, err)
				assert.Equal(t, tc.wantCode, CodeOf(err), "%v", err)
				var e *Error
				require.ErrorAs(t, err, &e)
				assert.Equal(t, tc.wantHits, e.Attempts)
				assert.Equal(t, "test-model", e.Model)
				for _, s := range tc.inMsg {
					assert.Contains(t, err.Error(), s)
				}
				assert.Equal(t, tc.wantCode, plugin.ErrorOf(err).Code, "plugin.ErrorOf keeps the code")
			}
			if tc.wantSleep != nil {
				assert.Equal(t, tc.wantSleep, sl.all())
			}
			if tc.minSleep > 0 {
				require.NotEmpty(t, sl.all())
				assert.GreaterOrEqual(t, sl.all()[0], tc.minSleep)
			}
			for _, d := range sl.all() {
				assert.LessOrEqual(t, d, 10*time.Second)
			}
		})
	}
}

func TestBackoffGrowsWithJitter(t *testing.T) {
	p := RetryPolicy{BaseDelay: 100 * time.Millisecond, MaxDelay: 350 * time.Millisecond}.withDefaults()
	for _, rnd := range []float64{0, 0.5, 0.999} {
		r := func() float64 { return rnd }
		for n, want := range []time.Duration{100, 200, 350, 350} {
			d := p.backoff(n+1, r)
			assert.GreaterOrEqual(t, d, want*time.Millisecond/2, "attempt %d", n+1)
			assert.LessOrEqual(t, d, want*time.Millisecond, "attempt %d", n+1)
		}
	}
	assert.Equal(t, 4, RetryPolicy{}.withDefaults().MaxAttempts)
}

func TestRetryAfterParsing(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	h := func(k, v string) http.Header { x := http.Header{}; x.Set(k, v); return x }
	assert.Equal(t, 7*time.Second, retryAfter(h("Retry-After", "7"), now))
	assert.Equal(t, 1500*time.Millisecond, retryAfter(h("Retry-After", "1.5"), now))
	assert.Equal(t, 10*time.Second, retryAfter(h("Retry-After", now.Add(10*time.Second).Format(http.TimeFormat)), now))
	assert.Equal(t, time.Duration(0), retryAfter(h("Retry-After", now.Add(-time.Hour).Format(http.TimeFormat)), now))
	assert.Equal(t, time.Duration(0), retryAfter(h("Retry-After", "soon"), now))
	assert.Equal(t, time.Duration(0), retryAfter(h("Retry-After", "-3"), now))
	assert.Equal(t, 20*time.Millisecond, retryAfter(h("Retry-After-Ms", "20"), now))
	assert.Equal(t, time.Duration(0), retryAfter(http.Header{}, now))
}

func TestConnectionRefusedRetried(t *testing.T) {
	f := newFake(t)
	base := f.BaseURL()
	f.Close() // nothing listens there any more
	sl := &sleeps{}
	c := newClient(t, Endpoint{BaseURL: base, Model: "m"}, testOpts(sl))
	_, err := c.Chat(context.Background(), ChatRequest{Messages: msgs("hi")})
	require.Error(t, err)
	assert.Equal(t, CodeUnreachable, CodeOf(err), "%v", err)
	assert.Contains(t, err.Error(), "is it running")
	assert.Len(t, sl.all(), 2, "3 attempts, 2 waits")
}

func TestTimeout(t *testing.T) {
	cases := []struct {
		name    string
		timeout time.Duration // the role's timeout
		ctxTO   time.Duration // the caller's deadline; 0: none
		st      step
		inMsg   string
	}{
		{name: "caller deadline, server hangs", timeout: 5 * time.Second, ctxTO: 80 * time.Millisecond, st: step{hang: true}},
		{name: "role timeoutMs, server hangs", timeout: 80 * time.Millisecond, st: step{hang: true}, inMsg: "timeoutMs"},
		{name: "role timeoutMs, slow stream", timeout: 80 * time.Millisecond, st: step{delay: 5 * time.Second, stream: []string{"[DONE]"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, tc.st)
			ep := testEndpoint(f)
			ep.Timeout = tc.timeout
			c := newClient(t, ep, testOpts(&sleeps{}))
			ctx := context.Background()
			if tc.ctxTO > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tc.ctxTO)
				defer cancel()
			}
			err := chatFailsFast(t, ctx, c)
			assert.Equal(t, CodeTimeout, CodeOf(err), "%v", err)
			assert.ErrorIs(t, err, context.DeadlineExceeded)
			assert.ErrorIs(t, err, ErrTimeout)
			assert.Equal(t, 1, f.Hits(), "a timeout is not retried")
			if tc.inMsg != "" {
				assert.Contains(t, err.Error(), tc.inMsg)
			}
		})
	}
}

func TestNoTimeLeftForRetry(t *testing.T) {
	// The server wants 2s; the caller has 200ms: fail now, with the
	// server's error, rather than sleep into the deadline.
	f := newFake(t, step{status: 503, header: map[string]string{"Retry-After": "2"}})
	c := newClient(t, testEndpoint(f), testOpts(&sleeps{}))
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err := c.Chat(ctx, ChatRequest{Messages: msgs("hi")})
	require.Error(t, err)
	assert.Equal(t, CodeServer, CodeOf(err))
	assert.Contains(t, err.Error(), "no time left")
	assert.Equal(t, 1, f.Hits())
}

func TestCancellation(t *testing.T) {
	f := newFake(t, step{hang: true})
	c := newClient(t, testEndpoint(f), testOpts(nil))
	ctx := cancelAfterHit(f, 0)
	err := chatFailsFast(t, ctx, c)
	assert.Equal(t, CodeCanceled, CodeOf(err), "%v", err)
	assert.ErrorIs(t, err, context.Canceled)

	// Canceled before the call: nothing is sent.
	_, err = c.Chat(ctx, ChatRequest{Messages: msgs("hi")})
	assert.Equal(t, CodeCanceled, CodeOf(err))
	assert.Equal(t, 1, f.Hits())
	var e *Error
	require.ErrorAs(t, err, &e)
	assert.Zero(t, e.Attempts)
}

func TestCancelDuringBackoff(t *testing.T) {
	f := newFake(t, step{status: 503, header: map[string]string{"Retry-After": "3"}})
	c, err := NewClient(testEndpoint(f), testOpts(nil)) // real sleep
	require.NoError(t, err)
	err = chatFailsFast(t, cancelAfterHit(f, 20*time.Millisecond), c)
	assert.Equal(t, CodeCanceled, CodeOf(err), "%v", err)
	assert.Contains(t, err.Error(), "waiting to retry")
}

// cancelAfterHit returns a context canceled the given time after f
// receives its first request.
func cancelAfterHit(f *fake, after time.Duration) context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for f.Hits() == 0 {
			time.Sleep(time.Millisecond)
		}
		time.Sleep(after)
		cancel()
	}()
	return ctx
}

// chatFailsFast sends one message through c and requires the call to fail
// well within 2s (a deadline or cancellation ends it; nothing waits out a
// hung server or a long backoff); it returns the error.
func chatFailsFast(t *testing.T, ctx context.Context, c *Client) error {
	t.Helper()
	start := time.Now()
	_, err := c.Chat(ctx, ChatRequest{Messages: msgs("hi")})
	require.Error(t, err)
	assert.Less(t, time.Since(start), 2*time.Second)
	return err
}

func TestNoMessages(t *testing.T) {
	f := newFake(t)
	c := newClient(t, testEndpoint(f), testOpts(nil))
	_, err := c.Chat(context.Background(), ChatRequest{})
	assert.Equal(t, CodeBadRequest, CodeOf(err))
	assert.Zero(t, f.Hits())
}

func TestNewClientNotConfigured(t *testing.T) {
	for _, ep := range []Endpoint{{}, {Model: "m"}, {BaseURL: "http://x/v1"}, {BaseURL: "ftp://x", Model: "m"}, {BaseURL: "localhost:11434", Model: "m"}} {
		_, err := NewClient(ep, Options{})
		assert.Equal(t, CodeNotConfigured, CodeOf(err), "%v", ep)
		assert.ErrorIs(t, err, ErrNotConfigured)
	}
}

func TestReplyTooLarge(t *testing.T) {
	f := newFake(t, step{body: okReply(strings.Repeat("x", 2000))})
	o := testOpts(nil)
	o.MaxReplyBytes = 1000
	c := newClient(t, testEndpoint(f), o)
	_, err := c.Chat(context.Background(), ChatRequest{Messages: msgs("hi")})
	assert.Equal(t, CodeBadReply, CodeOf(err))
	assert.Contains(t, err.Error(), "larger than 1000 bytes")
}

func TestHTTPClientTimeoutRetried(t *testing.T) {
	f := newFake(t, step{delay: time.Second}, step{})
	o := testOpts(&sleeps{})
	o.HTTPClient = &http.Client{Timeout: 50 * time.Millisecond}
	c := newClient(t, testEndpoint(f), o)
	r, err := c.Chat(context.Background(), ChatRequest{Messages: msgs("hi")})
	require.NoError(t, err)
	assert.Equal(t, 2, r.Attempts)

	g := newFake(t, step{delay: time.Second})
	c, err = NewClient(testEndpoint(g), o)
	require.NoError(t, err)
	_, err = c.Chat(context.Background(), ChatRequest{Messages: msgs("hi")})
	assert.Equal(t, CodeTimeout, CodeOf(err), "%v", err)
	assert.Equal(t, 3, g.Hits())
}

func TestServerMessage(t *testing.T) {
	long := strings.Repeat("é", 400)
	cases := []struct{ in, want string }{
		{`{"error":{"message":"bad key","type":"invalid_request_error"}}`, "bad key"},
		{`{"error":"model not loaded"}`, "model not loaded"},
		{`{"message":"upstream down"}`, "upstream down"},
		{`{"detail":"Not Found"}`, "Not Found"},
		{"plain\n  text\tbody", "plain text body"},
		{"", ""},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, serverMessage([]byte(tc.in)), tc.in)
	}
	s := serverMessage([]byte(long))
	assert.LessOrEqual(t, len(s), 300+len("…"))
	assert.True(t, strings.HasSuffix(s, "…"))
	assert.True(t, utf8.ValidString(s), "cut on a rune boundary")
}
