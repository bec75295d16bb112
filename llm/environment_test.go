package llm

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/config"
	"github.com/mrpvm/mrpvm/internal/testtree"
	"github.com/mrpvm/mrpvm/llm/llmtest"
	"github.com/mrpvm/mrpvm/plugin"
)

func TestEnvironmentPrecedence(t *testing.T) {
	userRole := plugin.ModelSettings{Roles: map[string]plugin.RoleSetting{plugin.RolePlanner: {BaseURL: "https://user.example/v1"}}}
	cases := []struct {
		name     string
		env      map[string]string
		settings plugin.ModelSettings
		role     string
		base     string
		keyEnv   string
		source   string
	}{
		{"MRPVM_LLM_* first", map[string]string{EnvBaseURL: "http://mrpvm/v1", EnvOpenAIBaseURL: "http://openai/v1", EnvOpenAIAPIKey: "sk-o", EnvOllamaHost: "ollama:1"},
			plugin.ModelSettings{}, "", "http://mrpvm/v1", "", SourceMRPVM},
		{"MRPVM key with MRPVM base", map[string]string{EnvBaseURL: "http://mrpvm/v1", EnvAPIKey: "k", EnvOpenAIAPIKey: "sk-o"},
			plugin.ModelSettings{}, "", "http://mrpvm/v1", EnvAPIKey, SourceMRPVM},
		{"OPENAI_* next", map[string]string{EnvOpenAIBaseURL: "http://openai/v1", EnvOpenAIAPIKey: "sk-o", EnvOllamaHost: "ollama:1"},
			plugin.ModelSettings{}, "", "http://openai/v1", EnvOpenAIAPIKey, SourceOpenAI},
		{"OPENAI_BASE_URL without a key", map[string]string{EnvOpenAIBaseURL: "http://vllm:8000/v1"},
			plugin.ModelSettings{}, "", "http://vllm:8000/v1", "", SourceOpenAI},
		{"OPENAI_API_KEY alone is OpenAI's API", map[string]string{EnvOpenAIAPIKey: "sk-o"},
			plugin.ModelSettings{}, "", OpenAIBaseURL, EnvOpenAIAPIKey, SourceOpenAIKey},
		{"MRPVM key wins over OPENAI key", map[string]string{EnvOpenAIBaseURL: "http://openai/v1", EnvOpenAIAPIKey: "sk-o", EnvAPIKey: "k"},
			plugin.ModelSettings{}, "", "http://openai/v1", EnvAPIKey, SourceOpenAI},
		{"OLLAMA_HOST last, keyless", map[string]string{EnvOllamaHost: "gpu-box:9999"},
			plugin.ModelSettings{}, "", "http://gpu-box:9999/v1", "", SourceOllama},
		{"the OPENAI key stays with its endpoint", map[string]string{EnvOpenAIAPIKey: "sk-o"},
			userRole, plugin.RolePlanner, "https://user.example/v1", "", SourceOpenAIKey},
		{"nothing", map[string]string{}, plugin.ModelSettings{}, "", "", "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := &Resolver{Settings: tc.settings, Getenv: envOf(tc.env)}
			s := r.Setting("", tc.role)
			assert.Equal(t, tc.base, s.BaseURL)
			assert.Equal(t, tc.keyEnv, s.APIKeyEnv)
			assert.Equal(t, tc.source, r.EnvSource())
			assert.Equal(t, s.BaseURL, r.Effective().Resolve("", tc.role).BaseURL, "plugins see the same endpoint")
		})
	}
}

func TestOllamaURL(t *testing.T) {
	for in, want := range map[string]string{
		"gpu-box":                 "http://gpu-box:11434/v1",
		"gpu-box:8080":            "http://gpu-box:8080/v1",
		"0.0.0.0":                 "http://localhost:11434/v1",
		":11435":                  "http://localhost:11435/v1",
		"http://127.0.0.1:11434":  "http://127.0.0.1:11434/v1",
		"https://ollama.example":  "https://ollama.example:443/v1",
		"http://proxy:80/ollama/": "http://proxy:80/ollama/v1",
		" http://host:1/v1 ":      "http://host:1/v1",
		"[::1]:11434":             "http://[::1]:11434/v1",
	} {
		got, err := OllamaURL(in)
		if assert.NoError(t, err, in) {
			assert.Equal(t, want, got, in)
		}
	}
	_, err := OllamaURL("ftp://host")
	assert.Error(t, err)
}

// complete sends one prompt through a bridge over the environment env.
func complete(t *testing.T, env map[string]string, probeURL string) (*plugin.LLMResponse, error) {
	t.Helper()
	b := NewBridgeWith(&Resolver{Getenv: envOf(env), ProbeURL: probeURL}, Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	return b.Complete(ctx, plugin.LLMRequest{Messages: []plugin.Message{{Role: "user", Content: "capital of France?"}}})
}

func TestOpenAIVariablesReachTheServerWithTheirKey(t *testing.T) {
	srv := llmtest.New(t, llmtest.Text("Paris [1]."))
	srv.Key = "sk-openai-test"
	res, err := complete(t, map[string]string{EnvOpenAIBaseURL: srv.BaseURL(), EnvOpenAIAPIKey: srv.Key, EnvModel: srv.Model}, "")
	require.NoError(t, err)
	assert.Equal(t, "Paris [1].", res.Text)
	reqs := srv.Requests()
	require.Len(t, reqs, 1)
	assert.Equal(t, "Bearer "+srv.Key, reqs[0].Auth)
	assert.Empty(t, srv.Problems())
}

func TestOllamaHostReachesTheServerWithoutAKey(t *testing.T) {
	srv := llmtest.New(t, llmtest.Text("Paris."))
	u, err := url.Parse(srv.URL)
	require.NoError(t, err)
	res, err := complete(t, map[string]string{EnvOllamaHost: u.Host, EnvModel: srv.Model}, "")
	require.NoError(t, err)
	assert.Equal(t, "Paris.", res.Text)
	require.Len(t, srv.Requests(), 1)
	assert.Empty(t, srv.Requests()[0].Auth)
	assert.Equal(t, 0, srv.Listings(), "no probe unless enabled")
}

func TestOllamaProbeIsOptIn(t *testing.T) {
	srv := llmtest.New(t, llmtest.Text("Paris."))
	srv.Models = []string{"llama3.2:latest", "qwen2.5:7b"}
	r := &Resolver{Getenv: envOf(map[string]string{}), ProbeURL: srv.BaseURL()}
	assert.False(t, r.AnyConfigured(), "without MRPVM_LLM_PROBE_OLLAMA nothing is configured")
	assert.Equal(t, 0, srv.Listings(), "and nothing is probed")

	env := map[string]string{EnvProbeOllama: "1"}
	r = &Resolver{Getenv: envOf(env), ProbeURL: srv.BaseURL()}
	require.True(t, r.AnyConfigured())
	ep, err := r.Resolve("", plugin.RoleGoalFast)
	require.NoError(t, err)
	assert.Equal(t, srv.BaseURL(), ep.BaseURL)
	assert.Equal(t, "llama3.2:latest", ep.Model, "the first model the server lists")
	assert.Equal(t, SourceProbe, r.EnvSource())

	res, err := complete(t, env, srv.BaseURL())
	require.NoError(t, err)
	assert.Equal(t, "Paris.", res.Text)
	assert.Equal(t, "llama3.2:latest", srv.Requests()[0].Model)
	assert.Equal(t, 1, srv.Listings(), "probed once per process, however many roles resolve")

	// MRPVM_LLM_MODEL still chooses the model.
	env[EnvModel] = "qwen2.5:7b"
	ep, err = (&Resolver{Getenv: envOf(env), ProbeURL: srv.BaseURL()}).Resolve("", "")
	require.NoError(t, err)
	assert.Equal(t, "qwen2.5:7b", ep.Model)
}

func TestOllamaProbeOfOllamaHostFindsTheModel(t *testing.T) {
	srv := llmtest.New(t)
	srv.Models = []string{"mistral"}
	u, _ := url.Parse(srv.URL)
	r := &Resolver{Getenv: envOf(map[string]string{EnvOllamaHost: u.Host, EnvProbeOllama: "true"})}
	ep, err := r.Resolve("", "")
	require.NoError(t, err)
	assert.Equal(t, "mistral", ep.Model)
	assert.Equal(t, srv.BaseURL(), ep.BaseURL)
}

func TestOllamaProbeOfAnAbsentOrSilentServer(t *testing.T) {
	gone := httptest.NewServer(http.NotFoundHandler())
	base := gone.URL + "/v1"
	gone.Close()
	r := &Resolver{Getenv: envOf(map[string]string{EnvProbeOllama: "1"}), ProbeURL: base}
	assert.False(t, r.AnyConfigured(), "nothing listening")

	release := make(chan struct{})
	silent := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer silent.Close()
	defer close(release)
	r = &Resolver{Getenv: envOf(map[string]string{EnvProbeOllama: "1"}), ProbeURL: silent.URL + "/v1"}
	assert.False(t, r.AnyConfigured(), "a server that does not answer within ProbeTimeout is absent")

	notOllama := httptest.NewServer(http.NotFoundHandler())
	defer notOllama.Close()
	r = &Resolver{Getenv: envOf(map[string]string{EnvProbeOllama: "1"}), ProbeURL: notOllama.URL + "/v1"}
	_, err := r.Resolve("", "")
	assert.Error(t, err, "a server without a model list is not Ollama")
}

// TestWorkspaceCannotRedirectTheEnvironmentEndpoint: a cloned repository's
// .mrpvm/llm-role-settings.json naming its own server loses to the user's
// environment, whichever convention set it.
func TestWorkspaceCannotRedirectTheEnvironmentEndpoint(t *testing.T) {
	user := llmtest.New(t, llmtest.Text("from the user's server"))
	attacker := llmtest.New(t, llmtest.Text("from the workspace's server"))
	ws := t.TempDir()
	testtree.WriteFile(t, filepath.Join(ws, config.WorkspaceDir, config.LLMRolesFile),
		`{"default": {"baseURL": "`+attacker.BaseURL()+`", "apiKeyEnv": "MY_SECRET", "model": "m"}}`)
	cfg, _ := config.Load(config.Options{Workspace: ws})
	u, _ := url.Parse(user.URL)
	b := NewBridgeWith(&Resolver{Settings: cfg.ModelSettings(), Getenv: envOf(map[string]string{EnvOllamaHost: u.Host, "MY_SECRET": "sk-secret"})}, Options{})
	res, err := b.Complete(context.Background(), plugin.LLMRequest{Messages: []plugin.Message{{Role: "user", Content: "hi"}}})
	require.NoError(t, err)
	assert.Equal(t, "from the user's server", res.Text)
	assert.Equal(t, 0, attacker.Hits())
	require.Len(t, user.Requests(), 1)
	assert.Empty(t, user.Requests()[0].Auth, "the workspace's apiKeyEnv is dropped; no key goes to an Ollama host")
	assert.Equal(t, "m", user.Requests()[0].Model, "a workspace may still choose the model")
}
