package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/mrpvm/mrpvm/plugin"
)

// RetryPolicy says how often and how patiently a call is retried on 408,
// 409, 429, 5xx (except 501 and 505) and connection errors. Zero fields take
// the defaults.
type RetryPolicy struct {
	// MaxAttempts is the number of HTTP attempts, the first included;
	// default 4. Use 1 to disable retries.
	MaxAttempts int
	// BaseDelay is the first backoff wait; attempt n waits about
	// BaseDelay*2^(n-1), jittered to between half and all of it; default
	// 500ms.
	BaseDelay time.Duration
	// MaxDelay caps one backoff wait; default 20s.
	MaxDelay time.Duration
	// MaxRetryAfter is the longest Retry-After the client will wait for;
	// a server asking for more fails the call at once; default 60s.
	MaxRetryAfter time.Duration
}

func (p RetryPolicy) withDefaults() RetryPolicy {
	if p.MaxAttempts <= 0 {
		p.MaxAttempts = 4
	}
	if p.BaseDelay <= 0 {
		p.BaseDelay = 500 * time.Millisecond
	}
	if p.MaxDelay <= 0 {
		p.MaxDelay = 20 * time.Second
	}
	if p.MaxDelay < p.BaseDelay {
		p.MaxDelay = p.BaseDelay
	}
	if p.MaxRetryAfter <= 0 {
		p.MaxRetryAfter = 60 * time.Second
	}
	return p
}

// backoff returns the wait before attempt n+1 after n failed attempts.
func (p RetryPolicy) backoff(n int, rnd func() float64) time.Duration {
	d := p.BaseDelay
	for i := 1; i < n && d < p.MaxDelay; i++ {
		d *= 2
	}
	d = min(d, p.MaxDelay)
	half := d / 2
	return half + time.Duration(rnd()*float64(d-half))
}

// Options are the transport settings shared by every call. The zero value
// is usable: default HTTP client, default retries, no streaming, no cache.
type Options struct {
	// HTTPClient sends the requests; nil: a client with no overall timeout
	// (deadlines come from the context and the role's timeoutMs).
	HTTPClient *http.Client
	// Retry is the retry policy.
	Retry RetryPolicy
	// Stream asks for server-sent events and assembles the reply from the
	// deltas; it keeps idle-sensitive proxies happy on long generations.
	Stream bool
	// Cache, when set, answers repeated requests from disk (--llm-cache).
	Cache Cache
	// Logger receives one debug line per call (never the key or the
	// prompt); nil: discard.
	Logger *slog.Logger
	// UserAgent is sent as User-Agent; default "mrpvm".
	UserAgent string
	// MaxReplyBytes caps the reply body; default 16 MiB.
	MaxReplyBytes int64

	// sleep replaces the backoff wait in tests.
	sleep func(ctx context.Context, d time.Duration) error
}

var defaultHTTPClient = &http.Client{}

// ChatRequest is one chat completion. Zero fields take the endpoint's
// settings.
type ChatRequest struct {
	Messages    []plugin.Message
	Temperature *float64 // nil: the endpoint's
	MaxTokens   int      // 0: the endpoint's
	JSON        bool     // ask for a JSON object (response_format json_object)
}

// Usage counts tokens as the server reported them (zero when it did not).
type Usage struct {
	PromptTokens     int `json:"promptTokens"`
	CompletionTokens int `json:"completionTokens"`
	TotalTokens      int `json:"totalTokens"`
}

// ChatResponse is a completed chat.
type ChatResponse struct {
	Text         string        `json:"text"`
	Model        string        `json:"model"`                  // as the server named it; the requested model when it did not
	FinishReason string        `json:"finishReason,omitempty"` // "stop", "length", ...
	Usage        Usage         `json:"usage"`
	Cached       bool          `json:"cached,omitempty"` // answered from the cache; no HTTP call was made
	Attempts     int           `json:"attempts"`         // HTTP attempts made
	Duration     time.Duration `json:"duration"`
}

// Client calls one resolved Endpoint. It is safe for concurrent use.
// Printing it shows the model and URL, never the key.
type Client struct {
	ep       Endpoint
	url      string // chat-completions URL
	shownURL string // the same without user info
	opts     Options
	retry    RetryPolicy
	red      redactor
	log      *slog.Logger
	// sleep waits d or until ctx is done; replaced in tests.
	sleep func(ctx context.Context, d time.Duration) error
	rnd   func() float64
	now   func() time.Time
}

// NewClient returns a client for ep. It fails with CodeNotConfigured when
// ep has no base URL or model, or the base URL is not http(s).
func NewClient(ep Endpoint, opts Options) (*Client, error) {
	if !ep.Configured() {
		return nil, &Error{Code: CodeNotConfigured, Model: ep.Model, URL: redactURL(ep.BaseURL),
			Message: describeWho(ep.PluginID, ep.Role) + ": " + Hint}
	}
	if err := checkBaseURL(ep.BaseURL); err != nil {
		return nil, &Error{Code: CodeNotConfigured, Model: ep.Model, Message: err.Error()}
	}
	if opts.HTTPClient == nil {
		opts.HTTPClient = defaultHTTPClient
	}
	if opts.UserAgent == "" {
		opts.UserAgent = "mrpvm"
	}
	if opts.MaxReplyBytes <= 0 {
		opts.MaxReplyBytes = 16 << 20
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	u := chatURL(ep.BaseURL)
	c := &Client{ep: ep, url: u, shownURL: redactURL(u), opts: opts, retry: opts.Retry.withDefaults(), log: log,
		sleep: sleepCtx, rnd: rand.Float64, now: time.Now}
	if opts.sleep != nil {
		c.sleep = opts.sleep
	}
	if k := ep.APIKey.Reveal(); k != "" {
		c.red = redactor{k}
	}
	c.red = append(c.red, urlSecrets(ep.BaseURL)...)
	return c, nil
}

// Endpoint returns the endpoint the client calls.
func (c *Client) Endpoint() Endpoint { return c.ep }

// Model returns the configured model name.
func (c *Client) Model() string { return c.ep.Model }

// String describes the client without its key.
func (c *Client) String() string { return "llm.Client{" + c.ep.String() + "}" }

// Format prints String for every verb.
func (c *Client) Format(f fmt.State, verb rune) { fmt.Fprint(f, c.String()) }

// MarshalJSON writes the endpoint, key redacted.
func (c *Client) MarshalJSON() ([]byte, error) { return json.Marshal(c.ep) }

// LogValue keeps slog output free of the key.
func (c *Client) LogValue() slog.Value { return c.ep.LogValue() }

// Complete implements plugin.LLM: one chat completion with the endpoint's
// settings. PluginID and Role are ignored (the client is already resolved).
func (c *Client) Complete(ctx context.Context, req plugin.LLMRequest) (*plugin.LLMResponse, error) {
	r, err := c.Chat(ctx, ChatRequest{Messages: req.Messages, Temperature: req.Temperature, MaxTokens: req.MaxTokens, JSON: req.JSON})
	if err != nil {
		return nil, err
	}
	return r.SDK(), nil
}

// SDK returns the reply in the SDK's shape.
func (r *ChatResponse) SDK() *plugin.LLMResponse {
	return &plugin.LLMResponse{Text: r.Text, Model: r.Model, PromptTokens: r.Usage.PromptTokens, CompletionTokens: r.Usage.CompletionTokens}
}

// Chat runs one chat completion, streaming when Options.Stream is set.
func (c *Client) Chat(ctx context.Context, req ChatRequest) (*ChatResponse, error) {
	return c.run(ctx, req, c.opts.Stream, nil)
}

// Stream runs one chat completion over server-sent events and calls
// onDelta with each piece of text as it arrives (once, with the whole text,
// on a cache hit). A call whose stream breaks after text was delivered is
// not retried. An error from onDelta ends the call and is returned wrapped.
func (c *Client) Stream(ctx context.Context, req ChatRequest, onDelta func(string) error) (*ChatResponse, error) {
	return c.run(ctx, req, true, onDelta)
}

// wire types of the OpenAI-compatible protocol.
type wireRequest struct {
	Model          string           `json:"model"`
	Messages       []plugin.Message `json:"messages"`
	Temperature    *float64         `json:"temperature,omitempty"`
	MaxTokens      int              `json:"max_tokens,omitempty"`
	Stream         bool             `json:"stream,omitempty"`
	StreamOptions  *streamOptions   `json:"stream_options,omitempty"`
	ResponseFormat *responseFormat  `json:"response_format,omitempty"`
}

type streamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

type responseFormat struct {
	Type string `json:"type"`
}

type wireUsage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

func (u *wireUsage) usage() Usage {
	if u == nil {
		return Usage{}
	}
	t := u.TotalTokens
	if t == 0 {
		t = u.PromptTokens + u.CompletionTokens
	}
	return Usage{PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens, TotalTokens: t}
}

type wireError struct {
	Message string          `json:"message"`
	Type    string          `json:"type"`
	Code    json.RawMessage `json:"code"`
}

// build assembles the wire request.
func (c *Client) build(req ChatRequest, stream bool) wireRequest {
	w := wireRequest{Model: c.ep.Model, Messages: req.Messages, Temperature: c.ep.Temperature, MaxTokens: c.ep.MaxTokens}
	if req.Temperature != nil {
		t := *req.Temperature
		w.Temperature = &t
	}
	if req.MaxTokens > 0 {
		w.MaxTokens = req.MaxTokens
	}
	if req.JSON {
		w.ResponseFormat = &responseFormat{Type: "json_object"}
	}
	if stream {
		w.Stream = true
		w.StreamOptions = &streamOptions{IncludeUsage: true}
	}
	return w
}

// errRoleTimeout is the cause of the role's own deadline.
var errRoleTimeout = errors.New("the role's timeoutMs elapsed")

// run is Chat and Stream: cache, deadline, retries.
func (c *Client) run(ctx context.Context, req ChatRequest, stream bool, onDelta func(string) error) (*ChatResponse, error) {
	start := c.now()
	base := Error{Model: c.ep.Model, URL: c.shownURL}
	if len(req.Messages) == 0 {
		e := base
		e.Code, e.Message = CodeBadRequest, "the request has no messages"
		return nil, &e
	}
	body := c.build(req, stream)
	var key []byte
	if c.opts.Cache != nil {
		key = cacheKey(c.ep, body)
		if r := c.cached(key); r != nil {
			if onDelta != nil {
				if err := onDelta(r.Text); err != nil {
					return nil, fmt.Errorf("llm: stream consumer: %w", err)
				}
			}
			r.Duration = c.now().Sub(start)
			c.logCall(r, nil)
			return r, nil
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, ctxError(ctx, base)
	}
	payload, err := json.Marshal(body)
	if err != nil { // only a NaN/Inf temperature can do this
		e := base
		e.Code, e.Message, e.Err = CodeBadRequest, "cannot encode the request: "+err.Error(), err
		return nil, &e
	}
	timeout := c.ep.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeoutCause(ctx, timeout, fmt.Errorf("%w (%s)", errRoleTimeout, timeout))
	defer cancel()

	delivered := false
	deliver := onDelta
	if onDelta != nil {
		deliver = func(s string) error {
			delivered = true
			return onDelta(s)
		}
	}
	var last *Error
	for attempt := 1; ; attempt++ {
		r, ae := c.attempt(ctx, payload, stream, deliver)
		if ae == nil {
			r.Attempts = attempt
			r.Duration = c.now().Sub(start)
			if r.Model == "" {
				r.Model = c.ep.Model
			}
			if key != nil {
				c.store(key, r)
			}
			c.logCall(r, nil)
			return r, nil
		}
		if ae.consumer != nil {
			return nil, fmt.Errorf("llm: stream consumer: %w", ae.consumer)
		}
		last = ae.err
		last.Attempts = attempt
		if ae.ctxDone {
			c.logCall(nil, last)
			return nil, last
		}
		if !ae.retry || delivered || attempt >= c.retry.MaxAttempts {
			c.logCall(nil, last)
			return nil, last
		}
		wait := c.retry.backoff(attempt, c.rnd)
		if ae.retryAfter > 0 {
			if ae.retryAfter > c.retry.MaxRetryAfter {
				last.Message += fmt.Sprintf("; the server asked to retry after %s, longer than the %s the client waits",
					ae.retryAfter.Round(time.Second), c.retry.MaxRetryAfter)
				c.logCall(nil, last)
				return nil, last
			}
			wait = ae.retryAfter
		}
		if dl, ok := ctx.Deadline(); ok && c.now().Add(wait).After(dl) {
			last.Message += fmt.Sprintf("; no time left for another attempt (next in %s)", wait.Round(time.Millisecond))
			c.logCall(nil, last)
			return nil, last
		}
		c.log.Debug("llm retry", "model", c.ep.Model, "url", c.shownURL, "attempt", attempt, "code", last.Code,
			"status", last.Status, "wait", wait)
		if err := c.sleep(ctx, wait); err != nil {
			e := ctxError(ctx, base)
			e.Attempts = attempt
			e.Message += " (while waiting to retry after: " + last.Message + ")"
			c.logCall(nil, e)
			return nil, e
		}
	}
}

// attemptErr is the outcome of one failed HTTP attempt.
type attemptErr struct {
	err        *Error
	retry      bool
	retryAfter time.Duration
	ctxDone    bool
	consumer   error // onDelta failed
}

// attempt makes one HTTP request and reads its reply.
func (c *Client) attempt(ctx context.Context, payload []byte, stream bool, onDelta func(string) error) (*ChatResponse, *attemptErr) {
	base := Error{Model: c.ep.Model, URL: c.shownURL}
	fail := func(code, msg string, cause error, retry bool) *attemptErr {
		e := base
		e.Code, e.Message, e.Err = code, c.red.apply(msg), cause
		return &attemptErr{err: &e, retry: retry}
	}
	ctxFail := func() *attemptErr { return &attemptErr{err: ctxError(ctx, base), ctxDone: true} }

	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(payload))
	if err != nil {
		return nil, fail(CodeNotConfigured, "cannot build the request: "+c.transportText(err), nil, false)
	}
	hreq.Header.Set("Content-Type", "application/json")
	if stream {
		hreq.Header.Set("Accept", "text/event-stream")
	} else {
		hreq.Header.Set("Accept", "application/json")
	}
	hreq.Header.Set("User-Agent", c.opts.UserAgent)
	if k := c.ep.APIKey.Reveal(); k != "" {
		hreq.Header.Set("Authorization", "Bearer "+k)
	}
	resp, err := c.opts.HTTPClient.Do(hreq)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctxFail()
		}
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() { // the HTTP client's own timeout
			return nil, fail(CodeTimeout, "the model server did not answer in time: "+c.transportText(err), redactedErr{c.transportText(err)}, true)
		}
		return nil, fail(CodeUnreachable, "cannot reach the model server: "+c.transportText(err)+
			"; is it running and is the baseURL right?", redactedErr{c.transportText(err)}, true)
	}
	defer resp.Body.Close()

	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		snippet, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		ae := c.statusError(resp, snippet)
		ae.err.Model, ae.err.URL = c.ep.Model, c.shownURL
		return nil, ae
	}
	body := io.LimitReader(resp.Body, c.opts.MaxReplyBytes+1)
	ct := strings.ToLower(resp.Header.Get("Content-Type"))
	if stream && !strings.Contains(ct, "application/json") {
		r, se := c.readStream(body, onDelta)
		if se != nil {
			if ctx.Err() != nil {
				return nil, ctxFail()
			}
			return nil, se
		}
		return r, nil
	}
	raw, err := io.ReadAll(body)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctxFail()
		}
		return nil, fail(CodeUnreachable, "the connection broke while reading the reply: "+c.transportText(err), redactedErr{c.transportText(err)}, true)
	}
	if int64(len(raw)) > c.opts.MaxReplyBytes {
		return nil, fail(CodeBadReply, fmt.Sprintf("the reply is larger than %d bytes", c.opts.MaxReplyBytes), nil, false)
	}
	r, perr := c.parseReply(raw)
	if perr != nil {
		return nil, &attemptErr{err: perr}
	}
	if onDelta != nil && r.Text != "" {
		if err := onDelta(r.Text); err != nil {
			return nil, &attemptErr{consumer: err, err: &Error{}}
		}
	}
	return r, nil
}

// statusError classifies a non-2xx reply.
func (c *Client) statusError(resp *http.Response, snippet []byte) *attemptErr {
	st := resp.StatusCode
	msg := c.red.apply(serverMessage(snippet))
	quote := ""
	if msg != "" {
		quote = ": " + msg
	}
	e := &Error{Status: st}
	ae := &attemptErr{err: e}
	switch {
	case st == http.StatusUnauthorized || st == http.StatusForbidden:
		e.Code = CodeAuth
		hint := "the server rejected the API key"
		if !c.ep.APIKey.IsSet() {
			hint = "the server wants an API key and none is set"
		}
		e.Message = hint + "; set " + EnvAPIKey + " (or " + EnvAPIKeyFile + ", or the role's apiKeyEnv)" + quote
	case st == http.StatusNotFound:
		e.Code = CodeNotFound
		e.Message = fmt.Sprintf("the model %q or the URL is wrong (the base URL must end where /chat/completions starts, e.g. http://localhost:11434/v1; with Ollama, `ollama pull %s`)%s",
			c.ep.Model, c.ep.Model, quote)
	case st == http.StatusTooManyRequests:
		e.Code = CodeRateLimited
		e.Message = "the server is rate limiting; try again later or lower the load" + quote
		ae.retry = true
	case st == http.StatusRequestTimeout || st == http.StatusConflict || st >= 500:
		e.Code = CodeServer
		e.Message = "the model server failed" + quote
		ae.retry = st != http.StatusNotImplemented && st != http.StatusHTTPVersionNotSupported
	case st >= 400 && st < 500:
		e.Code = CodeBadRequest
		e.Message = "the server rejected the request (too long a prompt for the model's context, or a parameter it does not support?)" + quote
	default:
		e.Code = CodeBadReply
		e.Message = "unexpected HTTP status " + resp.Status + quote
	}
	if ae.retry {
		ae.retryAfter = retryAfter(resp.Header, c.now())
	}
	return ae
}

// retryAfter reads retry-after-ms (OpenAI) or Retry-After (seconds or an
// HTTP date); 0 when absent or unparsable.
func retryAfter(h http.Header, now time.Time) time.Duration {
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms > 0 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s <= 0 {
			return 0
		}
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}

// serverMessage extracts the error message of an error body: OpenAI's
// {"error":{"message":...}}, {"error":"..."} (Ollama, llama.cpp), or
// {"message":...}, else the body's text, shortened.
func serverMessage(b []byte) string {
	var m struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Detail  json.RawMessage `json:"detail"`
	}
	if json.Unmarshal(b, &m) == nil {
		if len(m.Error) > 0 {
			var we wireError
			if json.Unmarshal(m.Error, &we) == nil && we.Message != "" {
				return shorten(we.Message)
			}
			var s string
			if json.Unmarshal(m.Error, &s) == nil && s != "" {
				return shorten(s)
			}
		}
		if m.Message != "" {
			return shorten(m.Message)
		}
		var s string
		if json.Unmarshal(m.Detail, &s) == nil && s != "" {
			return shorten(s)
		}
	}
	return shorten(string(b))
}

// shorten trims text to one line of at most 300 bytes.
func shorten(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 300 {
		cut := 300
		for cut > 0 && !isRuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// wireReply is a non-streaming chat completion.
type wireReply struct {
	Model   string `json:"model"`
	Choices []struct {
		Message *struct {
			Content json.RawMessage `json:"content"`
			Refusal string          `json:"refusal"`
		} `json:"message"`
		Text         *string `json:"text"` // legacy completions shape, served by some proxies
		FinishReason string  `json:"finish_reason"`
	} `json:"choices"`
	Usage *wireUsage      `json:"usage"`
	Error json.RawMessage `json:"error"`
}

// parseReply decodes a non-streaming reply.
func (c *Client) parseReply(raw []byte) (*ChatResponse, *Error) {
	bad := func(msg string, cause error) *Error {
		return &Error{Code: CodeBadReply, Model: c.ep.Model, URL: c.shownURL, Message: c.red.apply(msg), Err: cause}
	}
	var w wireReply
	if err := json.Unmarshal(raw, &w); err != nil {
		return nil, bad("the reply is not a chat completion (invalid JSON: "+err.Error()+"): "+shorten(string(raw)), err)
	}
	if len(w.Error) > 0 && string(w.Error) != "null" {
		return nil, bad("the server answered with an error: "+serverMessage(raw), nil)
	}
	if len(w.Choices) == 0 {
		return nil, bad("the reply has no choices: "+shorten(string(raw)), nil)
	}
	ch := w.Choices[0]
	r := &ChatResponse{Model: w.Model, FinishReason: ch.FinishReason, Usage: w.Usage.usage()}
	switch {
	case ch.Message != nil:
		text, ok := contentText(ch.Message.Content)
		if !ok {
			if ch.Message.Refusal != "" {
				return nil, bad("the model refused: "+shorten(ch.Message.Refusal), nil)
			}
			return nil, bad("the reply's message has no text content", nil)
		}
		r.Text = text
	case ch.Text != nil:
		r.Text = *ch.Text
	default:
		return nil, bad("the reply's first choice has no message", nil)
	}
	return r, nil
}

// contentText reads a message content: a string, or an array of parts
// whose text parts are joined.
func contentText(raw json.RawMessage) (string, bool) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", false
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, true
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) == nil {
		var b strings.Builder
		for _, p := range parts {
			if p.Type == "" || p.Type == "text" || p.Type == "output_text" {
				b.WriteString(p.Text)
			}
		}
		return b.String(), true
	}
	return "", false
}

// transportText renders a transport error without the URL (shown
// separately) and with secrets redacted.
func (c *Client) transportText(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return c.red.apply(err.Error())
}

// redactedErr carries the redacted text of a transport error as a cause,
// so that printing the chain never reaches the original text.
type redactedErr struct{ s string }

func (e redactedErr) Error() string { return e.s }

// cached returns the cached reply for key, or nil.
func (c *Client) cached(key []byte) *ChatResponse {
	v, ok, err := c.opts.Cache.Get(key)
	if err != nil {
		c.log.Warn("llm cache read failed; calling the model", "err", err)
		return nil
	}
	if !ok {
		return nil
	}
	var e cacheEntry
	if err := json.Unmarshal(v, &e); err != nil {
		c.log.Warn("llm cache entry unreadable; calling the model", "err", err)
		return nil
	}
	return &ChatResponse{Text: e.Text, Model: e.Model, FinishReason: e.FinishReason, Usage: e.Usage, Cached: true}
}

// store writes r to the cache; failures are logged, not returned.
func (c *Client) store(key []byte, r *ChatResponse) {
	b, err := json.Marshal(cacheEntry{Text: r.Text, Model: r.Model, FinishReason: r.FinishReason, Usage: r.Usage, At: c.now().UTC()})
	if err == nil {
		err = c.opts.Cache.Put(key, b)
	}
	if err != nil {
		c.log.Warn("llm cache write failed", "err", err)
	}
}

// logCall writes the debug line of a finished call: never the prompt, the
// reply or the key.
func (c *Client) logCall(r *ChatResponse, err *Error) {
	if !c.log.Enabled(context.Background(), slog.LevelDebug) {
		return
	}
	attrs := []any{"plugin", c.ep.PluginID, "role", c.ep.Role, "model", c.ep.Model, "url", c.shownURL}
	if r != nil {
		attrs = append(attrs, "servedModel", r.Model, "attempts", r.Attempts, "cached", r.Cached, "ms", r.Duration.Milliseconds(),
			"promptTokens", r.Usage.PromptTokens, "completionTokens", r.Usage.CompletionTokens, "finish", r.FinishReason)
		c.log.Debug("llm call", attrs...)
		return
	}
	attrs = append(attrs, "code", err.Code, "status", err.Status, "attempts", err.Attempts, "err", err.Error())
	c.log.Debug("llm call failed", attrs...)
}

// sleepCtx waits d or until ctx is done.
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
