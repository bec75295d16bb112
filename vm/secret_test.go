package vm

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/ingest"
	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/llm"
	"github.com/mrpvm/mrpvm/llm/llmtest"
	"github.com/mrpvm/mrpvm/plugin"
)

// TestTraceStoresNoSecret: with a base URL holding its key in the query
// string and a server that quotes the URL it was called at, neither that
// key, nor the API key, nor a secret a plugin quotes in a URL of its own
// reaches the trace kept in the bbolt file.
func TestTraceStoresNoSecret(t *testing.T) {
	const (
		querySecret = "QS-SECRET-5e1d"
		apiKey      = "sk-APIKEY-88aa"
		pluginURL   = "tok-PLUGIN-31c2"
		marker      = "zebra-marker-question"
	)
	srv := llmtest.New(t)
	srv.Handle(func(r llmtest.Request) llmtest.Reply {
		return llmtest.Status(400, "model not found at "+srv.URL+r.Path+"?"+r.Query+" (key "+strings.TrimPrefix(r.Auth, "Bearer ")+")")
	})
	settings := plugin.ModelSettings{Default: plugin.RoleSetting{BaseURL: srv.BaseURL() + "?api_key=" + querySecret, Model: srv.Model, APIKeyEnv: "TEST_KEY"}}
	bridge := llm.NewBridgeWith(&llm.Resolver{Settings: settings, Getenv: func(k string) string {
		if k == "TEST_KEY" {
			return apiKey
		}
		return ""
	}}, llm.Options{})

	kbp := &testKB{Base: descriptor(t, "kb-t", plugin.TypeKB, ""), units: []*kus.KU{leaf("doc.md::0::0", "Alpha uses beta.")}}
	gs := &testGS{Base: descriptor(t, "gs-llm-t", plugin.TypeGS, `"usesLLM": true, "maxLLMCalls": 1, "modelRoles": ["goal-deep"], "timeoutMs": 5000,`)}
	llmGS := &llmSolver{testGS: gs}
	other := &testGS{Base: descriptor(t, "gs-quoter", plugin.TypeGS, ""), solve: func(context.Context, *plugin.SolveInput) (*plugin.SolveResult, error) {
		return &plugin.SolveResult{Status: plugin.StatusError, Error: &plugin.Error{Code: "upstream", Message: "fetch https://svc.example/q?token=" + pluginURL + " failed; key " + apiKey}}, nil
	}}

	dbPath := filepath.Join(t.TempDir(), "kb.db")
	kb, err := ingest.Open(ingest.Options{Workspace: t.TempDir(), DBPath: dbPath})
	require.NoError(t, err)
	m := New(kb, testCatalog(t, nil, kbp, llmGS, other), Options{LLM: bridge})

	resp, err := m.Ask(context.Background(), Request{Question: marker + " what does alpha use?"})
	require.NoError(t, err)
	if reqs := srv.Requests(); assert.NotEmpty(t, reqs, "the model server was never called on its chat-completions route: %v", srv.Problems()) {
		assert.Equal(t, "api_key="+querySecret, reqs[0].Query)
		assert.Equal(t, "/v1/chat/completions", reqs[0].Path)
	}
	msgs := ""
	for _, e := range resp.Trace.Errors {
		msgs += e.Message + "\n"
	}
	assert.Contains(t, msgs, "api_key=[REDACTED]", "the trace should still say which URL failed")
	require.NoError(t, kb.Close())

	raw, err := os.ReadFile(dbPath)
	require.NoError(t, err)
	require.True(t, bytes.Contains(raw, []byte(marker)), "the trace is not in the database file")
	for _, s := range []string{querySecret, apiKey, pluginURL} {
		assert.False(t, bytes.Contains(raw, []byte(s)), "%s is in the database file", s)
		assert.NotContains(t, msgs, s)
	}
}

// llmSolver asks the model and reports its error as the answer's error.
type llmSolver struct{ *testGS }

func (p *llmSolver) Solve(ctx context.Context, rc plugin.RunContext, in *plugin.SolveInput) (*plugin.SolveResult, error) {
	if rc.LLM == nil {
		return &plugin.SolveResult{Status: plugin.StatusUnsupported}, nil
	}
	_, err := rc.LLM.Complete(ctx, plugin.LLMRequest{PluginID: "gs-llm-t", Role: plugin.RoleGoalDeep, Messages: []plugin.Message{{Role: "user", Content: in.Payload.Prompt}}})
	if err != nil {
		return nil, err
	}
	return &plugin.SolveResult{Status: plugin.StatusSuccess, ResponseMarkdown: "answered"}, nil
}
