package llm

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/config"
	"github.com/mrpvm/mrpvm/plugin"
)

func envOf(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestResolveOrder(t *testing.T) {
	ms := plugin.ModelSettings{
		Default: plugin.RoleSetting{Model: "default-model", BaseURL: "http://default/v1", Temperature: fptr(0.2), MaxTokens: 1024, TimeoutMs: 30000},
		Roles: map[string]plugin.RoleSetting{
			plugin.RoleGoalDeep:   {Model: "deep-model", MaxTokens: 2000},
			plugin.RoleValidation: {Temperature: fptr(0)},
		},
		PluginOverrides: map[string]plugin.RoleSetting{
			"gs-llm-deep": {BaseURL: "http://override/v1", TimeoutMs: 90000},
		},
		Request: plugin.RoleSetting{Model: "request-model"},
	}
	cases := []struct {
		plugin, role string
		want         Endpoint
	}{
		{"gs-llm-deep", plugin.RoleGoalDeep, Endpoint{BaseURL: "http://override/v1", Model: "deep-model", Temperature: fptr(0.2), MaxTokens: 2000, Timeout: 90 * time.Second}},
		{"gs-llm-fast", plugin.RoleGoalDeep, Endpoint{BaseURL: "http://default/v1", Model: "deep-model", Temperature: fptr(0.2), MaxTokens: 2000, Timeout: 30 * time.Second}},
		{"val-llm", plugin.RoleValidation, Endpoint{BaseURL: "http://default/v1", Model: "request-model", Temperature: fptr(0), MaxTokens: 1024, Timeout: 30 * time.Second}},
		{"gs-llm-deep", plugin.RolePlanner, Endpoint{BaseURL: "http://override/v1", Model: "request-model", Temperature: fptr(0.2), MaxTokens: 1024, Timeout: 90 * time.Second}},
	}
	r := &Resolver{Settings: ms, Getenv: envOf(map[string]string{EnvModel: "env-model", EnvBaseURL: "http://env/v1"})}
	for _, tc := range cases {
		ep, err := r.Resolve(tc.plugin, tc.role)
		require.NoError(t, err)
		tc.want.PluginID, tc.want.Role = tc.plugin, tc.role
		assert.Equal(t, tc.want, ep, "%s/%s", tc.plugin, tc.role)
	}
}

func TestEnvDefaults(t *testing.T) {
	dir := t.TempDir()
	keyFile := filepath.Join(dir, "key")
	require.NoError(t, os.WriteFile(keyFile, []byte(testKey+"\n"), 0o600))
	roleOnly := plugin.ModelSettings{
		Default: plugin.RoleSetting{Temperature: fptr(0.2)},
		Roles:   map[string]plugin.RoleSetting{plugin.RolePlanner: {Model: "planner-model", BaseURL: "https://api.example.com/v1", APIKeyEnv: "EXAMPLE_KEY"}},
	}
	cases := []struct {
		name     string
		settings plugin.ModelSettings
		env      map[string]string
		role     string
		wantURL  string
		wantMod  string
		wantKey  string
		wantSrc  string
		wantCode string
		inMsg    string
	}{
		{name: "env fills an empty config", env: map[string]string{EnvBaseURL: "http://localhost:11434/v1", EnvModel: "llama3.2"},
			role: plugin.RoleGoalFast, wantURL: "http://localhost:11434/v1", wantMod: "llama3.2"},
		{name: "env key", env: map[string]string{EnvBaseURL: "http://h/v1", EnvModel: "m", EnvAPIKey: testKey},
			role: plugin.RoleGoalFast, wantURL: "http://h/v1", wantMod: "m", wantKey: testKey, wantSrc: EnvAPIKey},
		{name: "key file, trailing newline dropped", env: map[string]string{EnvBaseURL: "http://h/v1", EnvModel: "m", EnvAPIKeyFile: keyFile},
			role: plugin.RoleGoalFast, wantURL: "http://h/v1", wantMod: "m", wantKey: testKey, wantSrc: "file " + keyFile},
		{name: "env key wins over key file", env: map[string]string{EnvBaseURL: "http://h/v1", EnvModel: "m", EnvAPIKey: "sk-env", EnvAPIKeyFile: keyFile},
			role: plugin.RoleGoalFast, wantURL: "http://h/v1", wantMod: "m", wantKey: "sk-env", wantSrc: EnvAPIKey},
		{name: "missing key file", env: map[string]string{EnvBaseURL: "http://h/v1", EnvModel: "m", EnvAPIKeyFile: filepath.Join(dir, "nope")},
			role: plugin.RoleGoalFast, wantCode: CodeNotConfigured, inMsg: "cannot read the key file"},
		{name: "nothing configured", role: plugin.RoleGoalFast, wantCode: CodeNotConfigured, inMsg: "export MRPVM_LLM_BASE_URL=http://localhost:11434/v1"},
		{name: "model without URL", env: map[string]string{EnvModel: "m"}, role: plugin.RoleGoalFast, wantCode: CodeNotConfigured, inMsg: "no baseURL"},
		{name: "URL without model", env: map[string]string{EnvBaseURL: "http://h/v1"}, role: plugin.RoleGoalFast, wantCode: CodeNotConfigured, inMsg: "no model"},
		{name: "bad URL", env: map[string]string{EnvBaseURL: "localhost:11434", EnvModel: "m"}, role: plugin.RoleGoalFast, wantCode: CodeNotConfigured, inMsg: "not an http(s) URL"},
		{name: "configured role with its own key variable", settings: roleOnly,
			env:  map[string]string{"EXAMPLE_KEY": "sk-example", EnvAPIKey: "sk-env", EnvBaseURL: "http://localhost:11434/v1", EnvModel: "llama3.2"},
			role: plugin.RolePlanner, wantURL: "https://api.example.com/v1", wantMod: "planner-model", wantKey: "sk-example", wantSrc: "EXAMPLE_KEY"},
		{name: "other roles keep the env defaults", settings: roleOnly,
			env:  map[string]string{"EXAMPLE_KEY": "sk-example", EnvBaseURL: "http://localhost:11434/v1", EnvModel: "llama3.2"},
			role: plugin.RoleSeedFast, wantURL: "http://localhost:11434/v1", wantMod: "llama3.2"},
		{name: "apiKeyEnv through a _FILE variable", settings: roleOnly, env: map[string]string{"EXAMPLE_KEY_FILE": keyFile},
			role: plugin.RolePlanner, wantURL: "https://api.example.com/v1", wantMod: "planner-model", wantKey: testKey, wantSrc: "file " + keyFile},
		{name: "apiKeyEnv names an unset variable", settings: roleOnly, role: plugin.RolePlanner, wantCode: CodeNotConfigured, inMsg: "EXAMPLE_KEY"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := &Resolver{Settings: tc.settings, Getenv: envOf(tc.env)}
			ep, err := r.Resolve("some-plugin", tc.role)
			if tc.wantCode != "" {
				require.Error(t, err)
				assert.Equal(t, tc.wantCode, CodeOf(err))
				assert.Contains(t, err.Error(), tc.inMsg)
				assert.NotContains(t, err.Error(), testKey)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.wantURL, ep.BaseURL)
			assert.Equal(t, tc.wantMod, ep.Model)
			assert.Equal(t, tc.wantKey, ep.APIKey.Reveal())
			assert.Equal(t, tc.wantSrc, ep.KeySource)
			assert.True(t, r.Configured("some-plugin", tc.role))
			// What plugins see agrees with the bridge.
			assert.True(t, r.Effective().Configured("some-plugin", tc.role))
		})
	}
}

func TestConfiguredAndAny(t *testing.T) {
	none := &Resolver{Getenv: envOf(nil)}
	assert.False(t, none.AnyConfigured())
	assert.False(t, none.Configured("gs-llm-fast", plugin.RoleGoalFast))
	assert.False(t, none.Effective().Configured("gs-llm-fast", plugin.RoleGoalFast))

	onlyOverride := &Resolver{Getenv: envOf(nil), Settings: plugin.ModelSettings{
		PluginOverrides: map[string]plugin.RoleSetting{"val-llm": {Model: "m", BaseURL: "http://h/v1"}}}}
	assert.True(t, onlyOverride.AnyConfigured())
	assert.True(t, onlyOverride.Configured("val-llm", plugin.RoleValidation))
	assert.False(t, onlyOverride.Configured("gs-llm-fast", plugin.RoleGoalFast))

	env := &Resolver{Getenv: envOf(map[string]string{EnvBaseURL: "http://h/v1", EnvModel: "m", EnvAPIKey: testKey})}
	assert.True(t, env.AnyConfigured())
	eff := env.Effective()
	assert.Equal(t, "http://h/v1", eff.Default.BaseURL)
	assert.Equal(t, EnvAPIKey, eff.Default.APIKeyEnv, "only the variable's name, never the key")

	// A request override reaches every role not set more specifically.
	req := none.WithRequest(plugin.RoleSetting{Model: "m", BaseURL: "http://req/v1"})
	assert.True(t, req.Configured("x", plugin.RoleGoalFast))
	assert.False(t, none.Configured("x", plugin.RoleGoalFast), "WithRequest does not change the receiver")
}

func TestShippedConfigResolves(t *testing.T) {
	cfg := config.Default()
	r := &Resolver{Settings: cfg.ModelSettings(), Getenv: envOf(map[string]string{EnvBaseURL: "http://localhost:11434/v1", EnvModel: "llama3.2"})}
	for _, role := range plugin.ModelRoles {
		ep, err := r.Resolve("p", role)
		require.NoError(t, err, role)
		assert.Equal(t, "llama3.2", ep.Model)
		assert.NotZero(t, ep.MaxTokens, role)
		assert.NotNil(t, ep.Temperature, role)
		assert.Equal(t, 30*time.Second, ep.Timeout, role)
	}
	ep, _ := r.Resolve("p", plugin.RoleGoalDeep)
	assert.Equal(t, 2000, ep.MaxTokens)
	assert.Equal(t, 0.3, *ep.Temperature)
	// Without the environment nothing is configured by default.
	r.Getenv = envOf(nil)
	assert.False(t, r.AnyConfigured())
}

func TestKeyFileError(t *testing.T) {
	r := &Resolver{Getenv: envOf(map[string]string{EnvBaseURL: "http://h/v1", EnvModel: "m", EnvAPIKeyFile: "/secret/key"}),
		ReadFile: func(string) ([]byte, error) {
			return nil, &fs.PathError{Op: "open", Path: "/secret/key", Err: fs.ErrPermission}
		}}
	_, err := r.Resolve("p", plugin.RoleGoalFast)
	require.Error(t, err)
	assert.True(t, errors.Is(err, fs.ErrPermission))
	assert.Contains(t, err.Error(), "/secret/key")
	assert.Contains(t, err.Error(), EnvAPIKeyFile)

	r.ReadFile = func(string) ([]byte, error) { return []byte(" \n"), nil }
	_, err = r.Resolve("p", plugin.RoleGoalFast)
	assert.Contains(t, err.Error(), "is empty")
}
