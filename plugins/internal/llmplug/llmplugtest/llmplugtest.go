package llmplugtest

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/llm"
	"github.com/mrpvm/mrpvm/llm/llmtest"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins"
	"github.com/mrpvm/mrpvm/plugins/internal/plugintest"
)

// Setup says how to reach the server.
type Setup struct {
	// Budget is the request's LLM budget; 0: 5 (engine.json's default).
	Budget int
	// MaxCalls is the plugin's per-stage cap (its descriptor's maxLLMCalls).
	MaxCalls int
	// Stream asks the bridge for server-sent events.
	Stream bool
	// TimeoutMs is the role's timeout; 0: 5000.
	TimeoutMs int
	// Key is sent as the bearer key (MRPVM_LLM_API_KEY).
	Key string
}

// Env is a plugin's run context wired to a server.
type Env struct {
	RC    plugin.RunContext
	Meter *llm.Meter
	Stage *llm.StageMeter
}

// Connect returns the run context of one stage call of plugin id against
// srv, as the VM builds it: the bridge resolves the role from the
// MRPVM_LLM_* variables the server names, the meter charges the request's
// budget, and the stage meter caps the plugin's calls.
func Connect(t testing.TB, srv *llmtest.Server, pluginID string, s Setup) Env {
	t.Helper()
	env := srv.Env()
	if s.Key != "" {
		env[llm.EnvAPIKey] = s.Key
	}
	timeout := s.TimeoutMs
	if timeout == 0 {
		timeout = 5000
	}
	res := llm.NewResolver(plugin.ModelSettings{Default: plugin.RoleSetting{TimeoutMs: timeout}})
	res.Getenv = func(k string) string { return env[k] }
	res.ReadFile = func(string) ([]byte, error) { t.Fatal("no key file expected"); return nil, nil }
	b := llm.NewBridgeWith(res, llm.Options{Stream: s.Stream,
		Retry: llm.RetryPolicy{MaxAttempts: 3, BaseDelay: time.Millisecond, MaxDelay: 5 * time.Millisecond}})
	budget := s.Budget
	if budget == 0 {
		budget = 5
	}
	m := llm.NewMeter(b, budget)
	st := m.Stage(pluginID, s.MaxCalls)
	rc := plugin.RunContext{RequestID: "r-test", LLM: st, Budgets: m.Budgets(plugin.Budgets{MaxFrameDepth: 3})}
	return Env{RC: rc, Meter: m, Stage: st}
}

// Offline is the run context of a process with no model configured: the
// VM hands plugins no LLM at all.
func Offline() plugin.RunContext {
	return plugin.RunContext{RequestID: "r-test", Budgets: plugin.Budgets{MaxLLMCalls: 5, RemainingLLMCalls: 5, MaxFrameDepth: 3}}
}

// Unavailable fails the test unless a call made with the Offline run
// context ended as a call without a model must: no error, status
// unsupported and error code llm_unavailable.
func Unavailable(t testing.TB, err error, status plugin.Status, e *plugin.Error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	if status != plugin.StatusUnsupported {
		t.Errorf("status %s, want %s", status, plugin.StatusUnsupported)
	}
	if e == nil || e.Code != plugin.CodeLLMUnavailable {
		t.Errorf("error %+v, want code %s", e, plugin.CodeLLMUnavailable)
	}
}

// Context is a context with a generous test deadline.
func Context(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// Evidence builds evidence KUs from (id, title, claim) triples.
func Evidence(triples ...[3]string) []plugin.ScoredKU {
	var out []plugin.ScoredKU
	for i, tr := range triples {
		k := &kus.KU{ID: tr[0], KUType: kus.TypeAtomic, SourceID: "notes/facts.md", ChunkID: "notes/facts.md::chunk-000",
			Role: "Definition", Title: tr[1], Topic: tr[1], Claim: tr[2], Range: kus.Range{StartLine: 10 * (i + 1)}}
		out = append(out, plugin.ScoredKU{KU: k, Score: 1 - float64(i)*0.1, Level: kus.LevelLeaf, Strategy: "bm25"})
	}
	return out
}

// Factory returns the factory of the registered built-in id, the one the
// catalog calls, looked up when it is called (after the package's init has
// registered it); a missing registration is an error.
func Factory(id string) func(json.RawMessage, plugin.Env) (plugin.Plugin, error) {
	return func(raw json.RawMessage, env plugin.Env) (plugin.Plugin, error) {
		b, ok := plugins.LookupBuiltin(id)
		if !ok {
			return nil, fmt.Errorf("built-in %s is not registered: %v", id, plugins.BuiltinProblems())
		}
		return b.New(raw, env)
	}
}

// New builds the registered built-in id with no options and the
// environment naming it, as the catalog does, and returns it as T (the
// plugin's concrete type or a family interface); it fails the test when
// the build fails or the plugin is not a T.
func New[T any](t testing.TB, id string) T {
	t.Helper()
	return plugintest.New[T](t, Factory(id), plugin.Env{PluginID: id})
}
