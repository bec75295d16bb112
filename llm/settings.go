package llm

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/mrpvm/mrpvm/plugin"
)

// Environment variables that configure every role the configuration files
// leave without an endpoint, model or key.
const (
	EnvBaseURL    = "MRPVM_LLM_BASE_URL"     // e.g. http://localhost:11434/v1
	EnvModel      = "MRPVM_LLM_MODEL"        // e.g. llama3.2
	EnvAPIKey     = "MRPVM_LLM_API_KEY"      // the bearer key; empty for keyless local servers
	EnvAPIKeyFile = "MRPVM_LLM_API_KEY_FILE" // a file holding the key (used when EnvAPIKey is unset)
)

// Hint is the one-line help shown, once, when no model is configured.
const Hint = "no LLM endpoint is configured; for a local Ollama run " +
	"`export MRPVM_LLM_BASE_URL=http://localhost:11434/v1 MRPVM_LLM_MODEL=llama3.2` " +
	"(or set OLLAMA_HOST, or MRPVM_LLM_PROBE_OLLAMA=1 to find it by itself), " +
	"for an OpenAI-compatible service also set MRPVM_LLM_API_KEY (or MRPVM_LLM_API_KEY_FILE; " +
	"OPENAI_BASE_URL and OPENAI_API_KEY are read too), " +
	"or set baseURL and model in llm-role-settings.json"

// DefaultTimeout bounds a call whose role sets no timeoutMs.
const DefaultTimeout = 60 * time.Second

// Endpoint is a fully resolved model setting for one plugin and role: where
// to send prompts, which model, with which key and defaults. Printing or
// marshalling it never shows the key.
type Endpoint struct {
	PluginID    string        `json:"pluginId,omitempty"`
	Role        string        `json:"role,omitempty"`
	BaseURL     string        `json:"baseURL"` // OpenAI-compatible base, e.g. http://localhost:11434/v1
	Model       string        `json:"model"`
	APIKey      Secret        `json:"apiKey"`              // always rendered as [REDACTED] or ""
	KeySource   string        `json:"keySource,omitempty"` // where the key came from: an env var name or "file <path>"; never the key
	Temperature *float64      `json:"temperature,omitempty"`
	MaxTokens   int           `json:"maxTokens,omitempty"`
	Timeout     time.Duration `json:"timeout,omitempty"` // whole call, retries included; 0: DefaultTimeout
}

// Configured reports whether the endpoint names a base URL and a model.
func (e Endpoint) Configured() bool { return e.BaseURL != "" && e.Model != "" }

// String describes the endpoint without its key.
func (e Endpoint) String() string {
	var b strings.Builder
	if !e.Configured() {
		b.WriteString("unconfigured endpoint")
	} else {
		fmt.Fprintf(&b, "model %s at %s", e.Model, redactURL(e.BaseURL))
	}
	var extra []string
	if e.PluginID != "" {
		extra = append(extra, "plugin "+e.PluginID)
	}
	if e.Role != "" {
		extra = append(extra, "role "+e.Role)
	}
	if e.KeySource != "" {
		extra = append(extra, "key from "+e.KeySource)
	}
	if len(extra) > 0 {
		b.WriteString(" (" + strings.Join(extra, ", ") + ")")
	}
	return b.String()
}

// Format prints String for every verb, so %+v and %#v cannot reach the key
// by reflection either.
func (e Endpoint) Format(f fmt.State, verb rune) { fmt.Fprint(f, e.String()) }

// LogValue keeps slog output free of the key.
func (e Endpoint) LogValue() slog.Value {
	return slog.GroupValue(slog.String("model", e.Model), slog.String("baseURL", redactURL(e.BaseURL)),
		slog.String("role", e.Role), slog.String("plugin", e.PluginID), slog.String("keySource", e.KeySource))
}

// MarshalJSON writes the endpoint with the key redacted and the URL's user
// info removed.
func (e Endpoint) MarshalJSON() ([]byte, error) {
	type plain Endpoint
	p := plain(e)
	p.BaseURL = redactURL(e.BaseURL)
	return json.Marshal(p)
}

// Resolver resolves the endpoint of a plugin and role from the model
// settings (llm-role-settings.json plus any request/session override) and
// the environment. Resolution order, highest first: plugin override, role,
// request/session override, default, then the environment for whatever is
// still unset: MRPVM_LLM_*, then OPENAI_BASE_URL/OPENAI_API_KEY, then
// OLLAMA_HOST, then (when MRPVM_LLM_PROBE_OLLAMA is set) a local Ollama
// that answers a short probe. Only the process environment and the user's
// files reach here as endpoints: a workspace's files cannot set baseURL or
// apiKeyEnv (package config drops them).
type Resolver struct {
	// Settings are the merged role settings (config.Config.ModelSettings()).
	Settings plugin.ModelSettings
	// Getenv reads the environment; nil: os.Getenv.
	Getenv func(string) string
	// ReadFile reads key files; nil: os.ReadFile.
	ReadFile func(string) ([]byte, error)
	// ProbeURL is where the opt-in Ollama probe looks when OLLAMA_HOST is
	// unset; "": OllamaBaseURL.
	ProbeURL string
}

// NewResolver returns a resolver over settings and the process environment.
func NewResolver(settings plugin.ModelSettings) *Resolver { return &Resolver{Settings: settings} }

func (r *Resolver) getenv(k string) string {
	if r.Getenv != nil {
		return r.Getenv(k)
	}
	return os.Getenv(k)
}

func (r *Resolver) readFile(p string) ([]byte, error) {
	if r.ReadFile != nil {
		return r.ReadFile(p)
	}
	return os.ReadFile(p)
}

// String describes the resolver without keys.
func (r *Resolver) String() string {
	return fmt.Sprintf("llm.Resolver{default: %s, roles: %d, pluginOverrides: %d}",
		r.endpointOf(r.Settings.Default).String(), len(r.Settings.Roles), len(r.Settings.PluginOverrides))
}

// Format prints String for every verb.
func (r *Resolver) Format(f fmt.State, verb rune) { fmt.Fprint(f, r.String()) }

func (r *Resolver) endpointOf(s plugin.RoleSetting) Endpoint {
	return Endpoint{BaseURL: s.BaseURL, Model: s.Model}
}

// WithRequest returns a resolver whose request/session override is o laid
// over the current one. The receiver is not changed.
func (r *Resolver) WithRequest(o plugin.RoleSetting) *Resolver {
	c := *r
	c.Settings.Request = c.Settings.Request.Over(o)
	return &c
}

// Setting returns the merged role setting for a plugin and role with the
// environment defaults filled in (no key: only the name of the variable
// that holds it, when known).
func (r *Resolver) Setting(pluginID, role string) plugin.RoleSetting {
	return r.withEnv(r.Settings.Resolve(pluginID, role), r.envEndpoint())
}

// withEnv fills what s leaves unset from the environment layer. A key
// named by the OPENAI_* convention goes only with the endpoint that
// convention chose; MRPVM_LLM_API_KEY goes with any endpoint.
func (r *Resolver) withEnv(s plugin.RoleSetting, env envEndpoint) plugin.RoleSetting {
	fromEnv := false
	if s.BaseURL == "" && env.BaseURL != "" {
		s.BaseURL, fromEnv = env.BaseURL, true
	}
	if s.Model == "" {
		s.Model = env.Model
	}
	if s.APIKeyEnv == "" {
		switch {
		case r.getenv(EnvAPIKey) != "":
			s.APIKeyEnv = EnvAPIKey
		case fromEnv && env.KeyEnv != "":
			s.APIKeyEnv = env.KeyEnv
		}
	}
	return s
}

// Effective returns the settings with the environment defaults folded into
// Default, so that plugin.ModelSettings.Configured and Resolve, as plugins see
// them in plugin.Env and plugin.RunContext, agree with the bridge.
func (r *Resolver) Effective() plugin.ModelSettings {
	m := r.Settings
	m.Default = r.withEnv(m.Default, r.envEndpoint())
	return m
}

// Configured reports whether the plugin and role resolve to a base URL and
// a model. It does not check the key: local servers need none.
func (r *Resolver) Configured(pluginID, role string) bool {
	s := r.Setting(pluginID, role)
	return s.BaseURL != "" && s.Model != ""
}

// AnyConfigured reports whether any role or plugin override (or the
// default) resolves to an endpoint, i.e. whether LLM plugins can run at all.
func (r *Resolver) AnyConfigured() bool {
	if r.Configured("", "") {
		return true
	}
	for _, role := range plugin.ModelRoles {
		if r.Configured("", role) {
			return true
		}
	}
	for id := range r.Settings.PluginOverrides {
		for _, role := range append(slices.Clone(plugin.ModelRoles), "") {
			if r.Configured(id, role) {
				return true
			}
		}
	}
	return false
}

// Resolve returns the endpoint of a plugin and role, with its key read
// from the environment or a key file. It fails with CodeNotConfigured when
// no base URL or model is set, when the base URL is not an http(s) URL, or
// when a configured key source cannot be read; the message says how to fix
// it and never holds a key.
func (r *Resolver) Resolve(pluginID, role string) (Endpoint, error) {
	s := r.Setting(pluginID, role)
	ep := Endpoint{PluginID: pluginID, Role: role, BaseURL: s.BaseURL, Model: s.Model,
		Temperature: s.Temperature, MaxTokens: s.MaxTokens, Timeout: time.Duration(s.TimeoutMs) * time.Millisecond}
	who := describeWho(pluginID, role)
	switch {
	case s.BaseURL == "" && s.Model == "":
		return ep, &Error{Code: CodeNotConfigured, Message: who + ": " + Hint}
	case s.BaseURL == "":
		return ep, &Error{Code: CodeNotConfigured, Model: s.Model,
			Message: who + ": no baseURL is set; set " + EnvBaseURL + " (e.g. http://localhost:11434/v1) or baseURL in llm-role-settings.json"}
	case s.Model == "":
		return ep, &Error{Code: CodeNotConfigured, URL: redactURL(s.BaseURL),
			Message: who + ": no model is set; set " + EnvModel + " (e.g. llama3.2) or model in llm-role-settings.json"}
	}
	if err := checkBaseURL(s.BaseURL); err != nil {
		return ep, &Error{Code: CodeNotConfigured, Model: s.Model, Message: who + ": " + err.Error()}
	}
	key, src, err := r.key(s.APIKeyEnv)
	if err != nil {
		return ep, &Error{Code: CodeNotConfigured, Model: s.Model, URL: redactURL(s.BaseURL), Message: who + ": " + err.Error(), Err: err}
	}
	ep.APIKey, ep.KeySource = key, src
	return ep, nil
}

// key reads the API key: from the variable the setting names (or, when it
// is empty, from the file named by <name>_FILE), else from
// MRPVM_LLM_API_KEY, else from the file named by MRPVM_LLM_API_KEY_FILE.
// No key at all is fine: local servers need none.
func (r *Resolver) key(envName string) (Secret, string, error) {
	if envName != "" && envName != EnvAPIKey {
		if v := r.getenv(envName); strings.TrimSpace(v) != "" {
			return NewSecret(v), envName, nil
		}
		if f := strings.TrimSpace(r.getenv(envName + "_FILE")); f != "" {
			return r.keyFile(envName+"_FILE", f)
		}
		return Secret{}, "", fmt.Errorf("apiKeyEnv names %s, but %s (and %s_FILE) is not set", envName, envName, envName)
	}
	if v := r.getenv(EnvAPIKey); strings.TrimSpace(v) != "" {
		return NewSecret(v), EnvAPIKey, nil
	}
	if f := strings.TrimSpace(r.getenv(EnvAPIKeyFile)); f != "" {
		return r.keyFile(EnvAPIKeyFile, f)
	}
	return Secret{}, "", nil
}

func (r *Resolver) keyFile(varName, path string) (Secret, string, error) {
	b, err := r.readFile(path)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the path is said below, once
		}
		return Secret{}, "", fmt.Errorf("cannot read the key file %s named by %s: %w", path, varName, err)
	}
	s := NewSecret(string(b))
	if !s.IsSet() {
		return Secret{}, "", fmt.Errorf("the key file %s named by %s is empty", path, varName)
	}
	return s, "file " + path, nil
}

func describeWho(pluginID, role string) string {
	switch {
	case pluginID != "" && role != "":
		return fmt.Sprintf("plugin %s, role %s", pluginID, role)
	case pluginID != "":
		return "plugin " + pluginID
	case role != "":
		return "role " + role
	}
	return "default model"
}

// checkBaseURL accepts absolute http(s) URLs with a host.
func checkBaseURL(s string) error {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("baseURL %q is not an http(s) URL (expected e.g. http://localhost:11434/v1)", redactURL(s))
	}
	return nil
}

// redactURL renders a URL for messages, logs and traces: user info is
// dropped, every query value is replaced by [REDACTED] (keys stay, so the
// shape of the URL still shows) and so is a fragment. Text that does not
// parse as a URL is returned with whatever follows a '?' or '@' cut away.
func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		if i := strings.IndexAny(s, "?#"); i >= 0 {
			s = s[:i] + "?" + redacted
		}
		if i := strings.LastIndex(s, "@"); i >= 0 {
			if j := strings.Index(s, "://"); j >= 0 && j < i {
				s = s[:j+3] + s[i+1:]
			}
		}
		return s
	}
	u.User = nil
	if u.RawQuery != "" || u.ForceQuery {
		var parts []string
		for _, kv := range strings.Split(u.RawQuery, "&") {
			k, _, _ := strings.Cut(kv, "=")
			if k == "" && kv == "" {
				continue
			}
			parts = append(parts, k+"="+redacted)
		}
		u.RawQuery = strings.Join(parts, "&")
	}
	if u.Fragment != "" || u.RawFragment != "" {
		u.Fragment, u.RawFragment = redacted, ""
	}
	return u.String()
}

// urlSecrets returns the parts of a URL that may hold a secret: the user
// name and password, every query value and the fragment.
func urlSecrets(s string) []string {
	u, err := url.Parse(s)
	if err != nil {
		return nil
	}
	var out []string
	if u.User != nil {
		out = append(out, u.User.Username())
		if pw, ok := u.User.Password(); ok {
			out = append(out, pw)
		}
	}
	for _, vs := range u.Query() {
		out = append(out, vs...)
	}
	for _, kv := range strings.Split(u.RawQuery, "&") {
		if _, v, ok := strings.Cut(kv, "="); ok {
			out = append(out, v) // also the escaped form, as written
		}
	}
	if u.Fragment != "" {
		out = append(out, u.Fragment)
	}
	return out
}

// chatURL returns the chat-completions URL of a base URL: the path gets
// /chat/completions appended (unless it already ends so) and the query of
// the base URL is kept, as some servers take their key or API version
// there. The base URL must have passed checkBaseURL.
func chatURL(base string) string {
	u, err := url.Parse(base)
	if err != nil {
		return strings.TrimRight(base, "/") + "/chat/completions"
	}
	if !strings.HasSuffix(strings.TrimRight(u.Path, "/"), "/chat/completions") {
		u = u.JoinPath("chat", "completions")
	}
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = ""
	u.Fragment, u.RawFragment = "", ""
	return u.String()
}
