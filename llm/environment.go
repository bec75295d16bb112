package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// Conventional variables read after the MRPVM_LLM_* ones, so that an
// environment already set up for other OpenAI-compatible tools or for
// Ollama works without repeating itself.
const (
	// EnvOpenAIBaseURL is the OpenAI client libraries' base URL variable.
	EnvOpenAIBaseURL = "OPENAI_BASE_URL"
	// EnvOpenAIAPIKey is the OpenAI client libraries' key variable. It is
	// sent only to the endpoint the OPENAI_* variables choose.
	EnvOpenAIAPIKey = "OPENAI_API_KEY"
	// EnvOllamaHost is Ollama's server address (host, host:port or a URL).
	EnvOllamaHost = "OLLAMA_HOST"
	// EnvProbeOllama, set to 1 (or true, yes, on), lets mrpvm ask a local
	// Ollama for its models when nothing else names an endpoint or a model.
	EnvProbeOllama = "MRPVM_LLM_PROBE_OLLAMA"
)

// OpenAIBaseURL is the base URL OPENAI_API_KEY alone points at, as in the
// OpenAI client libraries.
const OpenAIBaseURL = "https://api.openai.com/v1"

// OllamaBaseURL is where the probe looks for Ollama when OLLAMA_HOST is unset.
const OllamaBaseURL = "http://localhost:11434/v1"

// ProbeTimeout bounds the Ollama probe: a server that does not list its
// models within it counts as absent.
const ProbeTimeout = 500 * time.Millisecond

// Endpoint sources: which variables chose the environment's endpoint.
const (
	SourceMRPVM     = "MRPVM_LLM_BASE_URL"
	SourceOpenAI    = "OPENAI_BASE_URL"
	SourceOpenAIKey = "OPENAI_API_KEY"
	SourceOllama    = "OLLAMA_HOST"
	SourceProbe     = "probe"
)

// envEndpoint is what the environment says about the endpoint of every
// role the configuration files leave without one.
type envEndpoint struct {
	BaseURL string
	Model   string
	KeyEnv  string // a conventional variable holding the key for BaseURL alone; "" for none
	Source  string // Source*; "" when the environment names no endpoint
}

// envEndpoint resolves the environment layer. Precedence, highest first:
//
//  1. MRPVM_LLM_BASE_URL (key: MRPVM_LLM_API_KEY or MRPVM_LLM_API_KEY_FILE);
//  2. OPENAI_BASE_URL, or OPENAI_API_KEY alone for https://api.openai.com/v1
//     (key: MRPVM_LLM_API_KEY if set, else OPENAI_API_KEY);
//  3. OLLAMA_HOST as http://HOST/v1, with no key;
//  4. with MRPVM_LLM_PROBE_OLLAMA set, a local Ollama at localhost:11434
//     that answers the probe.
//
// The model is MRPVM_LLM_MODEL; when it is unset and the probe is enabled,
// an Ollama endpoint (3 or 4) uses the first model the server lists.
func (r *Resolver) envEndpoint() envEndpoint {
	e := envEndpoint{Model: strings.TrimSpace(r.getenv(EnvModel))}
	switch {
	case strings.TrimSpace(r.getenv(EnvBaseURL)) != "":
		e.BaseURL, e.Source = strings.TrimSpace(r.getenv(EnvBaseURL)), SourceMRPVM
	case strings.TrimSpace(r.getenv(EnvOpenAIBaseURL)) != "" || strings.TrimSpace(r.getenv(EnvOpenAIAPIKey)) != "":
		e.BaseURL, e.Source = strings.TrimSpace(r.getenv(EnvOpenAIBaseURL)), SourceOpenAI
		if e.BaseURL == "" {
			e.BaseURL, e.Source = OpenAIBaseURL, SourceOpenAIKey
		}
		if strings.TrimSpace(r.getenv(EnvOpenAIAPIKey)) != "" {
			e.KeyEnv = EnvOpenAIAPIKey // withEnv prefers MRPVM_LLM_API_KEY
		}
	case strings.TrimSpace(r.getenv(EnvOllamaHost)) != "":
		base, err := OllamaURL(r.getenv(EnvOllamaHost))
		if err != nil {
			return e // not an http(s) address: ignored, as if unset
		}
		e.BaseURL, e.Source = base, SourceOllama
		if e.Model == "" && r.probeEnabled() {
			e.Model = r.probeModel(base)
		}
		return e
	case r.probeEnabled():
		base := r.ProbeURL
		if base == "" {
			base = OllamaBaseURL
		}
		if m := r.probe(base); m.ok {
			e.BaseURL, e.Source = base, SourceProbe
			if e.Model == "" && len(m.models) > 0 {
				e.Model = m.models[0]
			}
		}
		return e
	}
	return e
}

// EnvSource names the variables that chose the environment's endpoint
// (one of the Source* values), or "" when the environment names none.
func (r *Resolver) EnvSource() string { return r.envEndpoint().Source }

func (r *Resolver) probeEnabled() bool {
	switch strings.ToLower(strings.TrimSpace(r.getenv(EnvProbeOllama))) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}

func (r *Resolver) probeModel(base string) string {
	if m := r.probe(base); m.ok && len(m.models) > 0 {
		return m.models[0]
	}
	return ""
}

// OllamaURL turns an OLLAMA_HOST value (host, host:port, :port or an
// http(s) URL, as Ollama accepts it) into the base URL of its
// OpenAI-compatible API. A listen-on-all address (0.0.0.0, ::) is reached
// on localhost; the port defaults to 11434 (443 for https), as in Ollama.
func OllamaURL(host string) (string, error) {
	h := strings.TrimSpace(host)
	scheme := "http"
	if i := strings.Index(h, "://"); i >= 0 {
		scheme, h = strings.ToLower(h[:i]), h[i+3:]
	}
	if scheme != "http" && scheme != "https" {
		return "", fmt.Errorf("%s %q: not an http(s) address", EnvOllamaHost, host)
	}
	h, path, _ := strings.Cut(h, "/")
	name, port, err := net.SplitHostPort(h)
	if err != nil {
		name, port = strings.Trim(h, "[]"), ""
	}
	switch name {
	case "", "0.0.0.0", "::":
		name = "localhost"
	}
	if port == "" {
		port = "11434"
		if scheme == "https" {
			port = "443"
		}
	}
	u := url.URL{Scheme: scheme, Host: net.JoinHostPort(name, port), Path: "/" + strings.TrimSuffix(path, "/")}
	if !strings.HasSuffix(u.Path, "/v1") {
		u.Path = strings.TrimSuffix(u.Path, "/") + "/v1"
	}
	return u.String(), nil
}

// probeResult is what one probe found.
type probeResult struct {
	ok     bool
	models []string
}

// probes caches probe results per base URL for the life of the process:
// the answer does not change between the resolvers of one command, and
// a server that is absent costs the timeout once, not per role.
var probes sync.Map // base URL -> *probeEntry

type probeEntry struct {
	once sync.Once
	res  probeResult
}

func (r *Resolver) probe(base string) probeResult {
	v, _ := probes.LoadOrStore(base, &probeEntry{})
	e := v.(*probeEntry)
	e.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), ProbeTimeout)
		defer cancel()
		e.res = probeModels(ctx, base)
	})
	return e.res
}

// probeModels lists the models of an OpenAI-compatible server
// (GET {base}/models). Any failure, including a slow answer, means absent.
func probeModels(ctx context.Context, base string) probeResult {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimRight(base, "/")+"/models", nil)
	if err != nil {
		return probeResult{}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return probeResult{}
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return probeResult{}
	}
	var list struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&list); err != nil {
		return probeResult{}
	}
	res := probeResult{ok: true}
	for _, m := range list.Data {
		if m.ID != "" {
			res.models = append(res.models, m.ID)
		}
	}
	return res
}
