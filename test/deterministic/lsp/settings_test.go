package lsp_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/mrpvm/mrpvm/engine/llm/llmtest"
)

var sourceLine = regexp.MustCompile(`(?m)^\[(\d+)\][^\n]*?\n?([^\[]*)`)

// TestLLMEndpointFromSettings configures the model endpoint through
// initializationOptions only (no configuration file, no environment): the
// pinned LLM goal solver reaches the local test server and its answer comes
// back through mrpvm.ask.
func TestLLMEndpointFromSettings(t *testing.T) {
	for _, k := range []string{"MRPVM_LLM_BASE_URL", "MRPVM_LLM_MODEL", "MRPVM_LLM_API_KEY", "MRPVM_LLM_API_KEY_FILE"} {
		t.Setenv(k, "")
	}
	srv := llmtest.New(t)
	srv.Handle(func(r llmtest.Request) llmtest.Reply {
		if strings.Contains(r.System(), "numbered sources") {
			for _, m := range sourceLine.FindAllStringSubmatch(r.LastUser(), -1) {
				if strings.Contains(m[2], "Zeppelinite") {
					return llmtest.Text("Zeppelinite is the caching tier [" + m[1] + "].")
				}
			}
			return llmtest.Text("NO_CONTEXT: nothing about Zeppelinite")
		}
		return llmtest.Status(400, "unexpected prompt")
	})
	e := start(t, "basic.txtar", editorOptions{initOpts: map[string]any{
		"noLLM": false,
		"llm":   map[string]any{"baseURL": srv.BaseURL(), "model": "settings-model"},
	}})
	var r struct {
		Status         string `json:"status"`
		AnswerMarkdown string `json:"answerMarkdown"`
	}
	if err := e.command("mrpvm.ask", map[string]any{"question": "What is Zeppelinite?", "pins": map[string]string{"gs": "gs-llm-fast"}}, &r); err != nil {
		t.Fatal(err)
	}
	if srv.Hits() == 0 {
		t.Fatalf("the endpoint from the settings was not called; answer %s: %s", r.Status, r.AnswerMarkdown)
	}
	for _, q := range srv.Requests() {
		if q.Model != "settings-model" {
			t.Errorf("request for model %q, want settings-model", q.Model)
		}
	}
	if !strings.Contains(r.AnswerMarkdown, "caching tier") {
		t.Errorf("answer %s: %s", r.Status, r.AnswerMarkdown)
	}
	if p := srv.Problems(); len(p) > 0 {
		t.Errorf("server problems: %v", p)
	}
}
