package llm_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/llm"
	"github.com/mrpvm/mrpvm/llm/llmtest"
	"github.com/mrpvm/mrpvm/plugin"
)

const querySecret = "qs-SECRET-7f3a9c"

// TestBaseURLQueryIsKeptAndNeverShown: a base URL carrying its key in the
// query reaches the server's chat-completions route with the query intact,
// and neither the key nor the query value appears in any error or
// rendering of the client.
func TestBaseURLQueryIsKeptAndNeverShown(t *testing.T) {
	srv := llmtest.New(t, llmtest.Text("hello"))
	base := srv.BaseURL() + "?api_key=" + querySecret
	c, err := llm.NewClient(llm.Endpoint{BaseURL: base, Model: srv.Model}, llm.Options{})
	require.NoError(t, err)
	resp, err := c.Chat(context.Background(), llm.ChatRequest{Messages: []plugin.Message{{Role: "user", Content: "hi"}}})
	require.NoError(t, err)
	assert.Equal(t, "hello", resp.Text)
	reqs := srv.Requests()
	require.Len(t, reqs, 1)
	assert.Equal(t, "/v1/chat/completions", reqs[0].Path)
	assert.Equal(t, "api_key="+querySecret, reqs[0].Query)
	assert.Empty(t, srv.Problems())

	// A server error that quotes the URL it was called at.
	srv.Handle(func(r llmtest.Request) llmtest.Reply {
		return llmtest.Status(400, "bad model for "+srv.URL+r.Path+"?"+r.Query)
	})
	_, err = c.Chat(context.Background(), llm.ChatRequest{Messages: []plugin.Message{{Role: "user", Content: "hi"}}})
	require.Error(t, err)
	var le *llm.Error
	require.True(t, errors.As(err, &le))
	for _, s := range []string{err.Error(), fmt.Sprintf("%+v %#v", err, err), le.URL, le.Message, c.String(), fmt.Sprint(c.Endpoint())} {
		assert.NotContains(t, s, querySecret)
	}
	assert.Contains(t, le.URL, "/v1/chat/completions?api_key=[REDACTED]")

	// A base URL that already names the route keeps it, query and all.
	c2, err := llm.NewClient(llm.Endpoint{BaseURL: srv.URL + "/v1/chat/completions/?k=" + querySecret, Model: srv.Model}, llm.Options{})
	require.NoError(t, err)
	srv.Handle(func(llmtest.Request) llmtest.Reply { return llmtest.Text("ok") })
	_, err = c2.Chat(context.Background(), llm.ChatRequest{Messages: []plugin.Message{{Role: "user", Content: "hi"}}})
	require.NoError(t, err)
	last := srv.Requests()[len(srv.Requests())-1]
	assert.Equal(t, "/v1/chat/completions", last.Path)
	assert.Equal(t, "k="+querySecret, last.Query)
}

func TestRedactText(t *testing.T) {
	in := "called https://bob:pw-1234@host:8/v1/chat/completions?api_key=" + querySecret + "&v=2#frag, then http://plain/x and key sk-abcdef"
	out := llm.RedactText(in, "sk-abcdef")
	for _, s := range []string{querySecret, "pw-1234", "bob", "sk-abcdef", "frag"} {
		assert.NotContains(t, out, s)
	}
	assert.Contains(t, out, "https://host:8/v1/chat/completions?api_key=[REDACTED]&v=[REDACTED]")
	assert.Contains(t, out, "http://plain/x")
	assert.True(t, strings.HasPrefix(out, "called "))
}
