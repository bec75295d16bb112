package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/plugin"
)

// renderings formats v every way a key could escape: fmt verbs, JSON,
// slog text and JSON handlers.
func renderings(t *testing.T, v any) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%T %v"} {
		out[verb] = fmt.Sprintf(verb, v)
	}
	if b, err := json.Marshal(v); err == nil {
		out["json"] = string(b)
	}
	var buf bytes.Buffer
	slog.New(slog.NewJSONHandler(&buf, nil)).Info("x", "v", v)
	slog.New(slog.NewTextHandler(&buf, nil)).Info("x", "v", v)
	out["slog"] = buf.String()
	return out
}

func assertNoKey(t *testing.T, what string, v any) {
	t.Helper()
	for how, s := range renderings(t, v) {
		assert.NotContains(t, s, testKey, "%s rendered with %s leaks the key: %s", what, how, s)
		assert.NotContains(t, s, "SECRET", "%s rendered with %s leaks part of the key: %s", what, how, s)
	}
}

func TestKeyNeverLeaks(t *testing.T) {
	// The server echoes the key in its error, as OpenAI does for a wrong key.
	echo := `{"error":{"message":"Incorrect API key provided: ` + testKey + `. You can find your API key at ..."}}`
	f := newFake(t, step{status: 401, body: echo}, step{status: 500, body: echo}, step{body: `{"choices": "` + testKey + `"}`})

	var logs bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	o := testOpts(&sleeps{})
	o.Logger = log
	o.Retry.MaxAttempts = 1
	res := &Resolver{Getenv: envOf(map[string]string{EnvBaseURL: f.BaseURL(), EnvModel: "test-model", EnvAPIKey: testKey})}
	b := NewBridgeWith(res, o)
	m := NewMeter(b, 10)
	st := m.Stage("gs-llm-fast", 5)

	ep, err := res.Resolve("gs-llm-fast", plugin.RoleGoalFast)
	require.NoError(t, err)
	require.Equal(t, testKey, ep.APIKey.Reveal())
	c, err := b.Client("gs-llm-fast", plugin.RoleGoalFast)
	require.NoError(t, err)

	var errs []error
	for range 3 {
		_, err := st.Complete(context.Background(), req("gs-llm-fast", plugin.RoleGoalFast, "hi"))
		require.Error(t, err)
		errs = append(errs, err)
	}
	assert.Equal(t, []string{CodeAuth, CodeServer, CodeBadReply}, []string{CodeOf(errs[0]), CodeOf(errs[1]), CodeOf(errs[2])})
	assert.Contains(t, errs[0].Error(), "Incorrect API key provided: [REDACTED]")
	assert.Equal(t, "Bearer "+testKey, f.last().Auth, "the key does go on the wire")

	things := map[string]any{
		"secret": ep.APIKey, "endpoint": ep, "&endpoint": &ep, "client": c, "bridge": b, "resolver": res,
		"meter stats": m.Report(), "stage stats": st.Stats(),
		"struct holding an endpoint": struct {
			ep  Endpoint
			sec Secret
		}{ep, ep.APIKey},
		"effective settings": res.Effective(),
	}
	for i, err := range errs {
		things[fmt.Sprintf("error %d", i)] = err
		things[fmt.Sprintf("sdk error %d", i)] = plugin.ErrorOf(err)
		var e *Error
		require.ErrorAs(t, err, &e)
		if e.Err != nil {
			things[fmt.Sprintf("cause %d", i)] = e.Err.Error()
		}
	}
	for what, v := range things {
		assertNoKey(t, what, v)
	}
	assert.NotContains(t, logs.String(), testKey)
	assert.Contains(t, logs.String(), "llm call failed", "the calls were logged")

	// The redacted forms say a key is there.
	assert.Equal(t, "[REDACTED]", ep.APIKey.String())
	assert.Equal(t, "", Secret{}.String())
	assert.Contains(t, fmt.Sprint(ep), "key from MRPVM_LLM_API_KEY")
	js, _ := json.Marshal(ep)
	assert.Contains(t, string(js), `"apiKey":"[REDACTED]"`)
}

func TestKeyNotInTransportErrors(t *testing.T) {
	// A base URL with a password in it: redacted from errors, and the
	// password is scrubbed from any quoted text.
	f := newFake(t, step{status: 404, body: "no such thing"})
	base := strings.Replace(f.BaseURL(), "http://", "http://user:"+testKey+"@", 1)
	c, err := NewClient(Endpoint{BaseURL: base, Model: "m"}, testOpts(nil))
	require.NoError(t, err)
	_, err = c.Chat(context.Background(), ChatRequest{Messages: msgs("hi")})
	require.Error(t, err)
	assertNoKey(t, "error", err)
	assertNoKey(t, "client", c)

	// Unreachable, with the key in the URL.
	_, err = NewClient(Endpoint{BaseURL: "http://user:" + testKey + "@127.0.0.1:1/v1", Model: "m"}, testOpts(&sleeps{}))
	require.NoError(t, err)
	c, _ = NewClient(Endpoint{BaseURL: "http://user:" + testKey + "@127.0.0.1:1/v1", Model: "m"}, testOpts(&sleeps{}))
	_, err = c.Chat(context.Background(), ChatRequest{Messages: msgs("hi")})
	require.Error(t, err)
	assert.Equal(t, CodeUnreachable, CodeOf(err))
	assertNoKey(t, "unreachable error", err)
}

func TestSecretFormatting(t *testing.T) {
	s := NewSecret("  " + testKey + "\n")
	assert.Equal(t, testKey, s.Reveal())
	assert.True(t, s.IsSet())
	assert.False(t, NewSecret(" \n").IsSet())
	assert.Equal(t, `llm.Secret("[REDACTED]")`, fmt.Sprintf("%#v", s))
	assert.Equal(t, `"[REDACTED]"`, fmt.Sprintf("%q", s))
	txt, _ := s.MarshalText()
	assert.Equal(t, "[REDACTED]", string(txt))
	hdr := http.Header{}
	hdr.Set("X", fmt.Sprint(s))
	assert.Equal(t, "[REDACTED]", hdr.Get("X"))
}
