package llm_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"

	"github.com/mrpvm/mrpvm/config"
	"github.com/mrpvm/mrpvm/llm"
	"github.com/mrpvm/mrpvm/plugin"
)

// A local stand-in for Ollama's OpenAI-compatible endpoint.
func localModel() *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"model":"llama3.2","choices":[{"message":{"role":"assistant","content":"Paris."},"finish_reason":"stop"}],`+
			`"usage":{"prompt_tokens":12,"completion_tokens":2,"total_tokens":14}}`)
	}))
}

// How the engine wires the bridge: one Bridge per process from the merged
// configuration and the environment, one Meter per request with the
// engine.json budget, one StageMeter per plugin call.
func Example() {
	srv := localModel()
	defer srv.Close()
	os.Setenv(llm.EnvBaseURL, srv.URL+"/v1") // normally: export MRPVM_LLM_BASE_URL=http://localhost:11434/v1
	os.Setenv(llm.EnvModel, "llama3.2")
	defer os.Unsetenv(llm.EnvBaseURL)
	defer os.Unsetenv(llm.EnvModel)

	cfg := config.Default()
	bridge := llm.NewBridge(cfg.ModelSettings(), llm.Options{})
	if !bridge.AnyConfigured() {
		fmt.Println(llm.Hint)
		return
	}

	meter := llm.NewMeter(bridge, cfg.Engine.MaxLLMAttemptsPerRequest)
	stage := meter.Stage("gs-llm-fast", 2) // the descriptor's maxLLMCalls
	resp, err := stage.Complete(context.Background(), plugin.LLMRequest{
		Role:     plugin.RoleGoalFast,
		Messages: []plugin.Message{{Role: "user", Content: "Capital of France?"}},
	})
	if err != nil {
		fmt.Println(llm.CodeOf(err), err)
		return
	}
	st := stage.Stats()
	fmt.Println(resp.Text, resp.PromptTokens, resp.CompletionTokens)
	fmt.Println(st.PluginID, st.Model, st.Role, st.Calls, meter.Remaining())
	// Output:
	// Paris. 12 2
	// gs-llm-fast llama3.2 goal-fast 1 4
}

// Building a client for one plugin and role, e.g. for a tool that calls the
// model directly.
func ExampleBridge_Client() {
	srv := localModel()
	defer srv.Close()
	res := &llm.Resolver{
		Settings: plugin.ModelSettings{Roles: map[string]plugin.RoleSetting{plugin.RoleValidation: {MaxTokens: 400}}},
		Getenv: func(k string) string {
			return map[string]string{llm.EnvBaseURL: srv.URL + "/v1", llm.EnvModel: "llama3.2"}[k]
		},
	}
	c, err := llm.NewBridgeWith(res, llm.Options{}).Client("val-llm", plugin.RoleValidation)
	if err != nil {
		fmt.Println(err)
		return
	}
	r, err := c.Chat(context.Background(), llm.ChatRequest{Messages: []plugin.Message{{Role: "user", Content: "Capital of France?"}}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(c.Endpoint().MaxTokens, r.Text, r.Usage.TotalTokens)
	// Output: 400 Paris. 14
}

// With nothing configured, plugins step aside and the user gets one hint.
func ExampleResolver_Resolve() {
	res := &llm.Resolver{Getenv: func(string) string { return "" }}
	_, err := res.Resolve("gs-llm-fast", plugin.RoleGoalFast)
	fmt.Println(llm.IsNotConfigured(err), plugin.ErrorOf(err).Code)
	// Output: true llm_not_configured
}
