// Package llmplug holds what the LLM-backed built-ins (sd-llm-*, gs-llm-*,
// val-llm) share: a Caller that makes a plugin's chat calls through the
// run context's metered plugin.LLM and reports them as plugin.Metadata, the
// mapping of bridge errors to plugin statuses (no endpoint: unsupported;
// budget spent: unsupported with llm_budget, which the core records as
// skipped-budget; anything else: error), prompt templates embedded in each
// plugin folder, numbered evidence, citation parsing, the reply markers of
// the goal solvers and the validator, and extraction of SOP Lang documents
// from a model's reply.
//
// The package depends on the SDK only: the bridge's error codes are read
// through plugin.ErrorOf, never by importing the engine.
package llmplug

import (
	"context"
	"fmt"
	"strings"

	"github.com/mrpvm/mrpvm/plugin"
)

// Caller makes the LLM calls of one plugin method call. It is not safe for
// concurrent use.
type Caller struct {
	pluginID string
	role     string
	llm      plugin.LLM
	calls    int
	model    string
	prompt   int
	complete int
}

// NewCaller returns the caller of a plugin for one model role. It uses the
// run context's LLM, which the core meters against the request's budget;
// the plugin.Env's LLM is never used for calls, so no call escapes the budget.
func NewCaller(rc plugin.RunContext, pluginID, role string) *Caller {
	return &Caller{pluginID: pluginID, role: role, llm: rc.LLM}
}

// Available reports whether a model can be asked at all; when it is false
// the plugin answers NotConfigured.
func (c *Caller) Available() bool { return c.llm != nil }

// Options tune one call. Zero fields take the role's settings.
type Options struct {
	MaxTokens   int
	Temperature *float64
	JSON        bool
}

// Complete sends msgs and returns the reply text. Errors keep the bridge's
// stable code (read it with plugin.ErrorOf).
func (c *Caller) Complete(ctx context.Context, msgs []plugin.Message, o Options) (string, error) {
	if c.llm == nil {
		return "", NotConfiguredError(c.pluginID, c.role)
	}
	r, err := c.llm.Complete(ctx, plugin.LLMRequest{PluginID: c.pluginID, Role: c.role, Messages: msgs,
		MaxTokens: o.MaxTokens, Temperature: o.Temperature, JSON: o.JSON})
	if err != nil {
		if code := plugin.ErrorOf(err).Code; code != plugin.CodeLLMUnavailable && code != plugin.CodeLLMBudget {
			c.calls++ // it reached the model (or its cache) and failed
		}
		return "", err
	}
	if r == nil {
		c.calls++
		return "", &plugin.Error{Code: CodeBadReply, Message: "the model bridge returned no reply"}
	}
	c.calls++
	if r.Model != "" {
		c.model = r.Model
	}
	c.prompt += r.PromptTokens
	c.complete += r.CompletionTokens
	return r.Text, nil
}

// Calls returns the calls that reached the model.
func (c *Caller) Calls() int { return c.calls }

// Metadata reports the calls for a plugin result: llmCalls, the model as
// the server named it, and the role and token counts in Extra.
func (c *Caller) Metadata() plugin.Metadata {
	m := plugin.Metadata{LLMCalls: c.calls, Model: c.model}
	if c.calls > 0 {
		m.Extra = map[string]any{"modelRole": c.role, "promptTokens": c.prompt, "completionTokens": c.complete}
	}
	return m
}

// Error codes of the LLM plugins (besides the bridge's llm_* codes).
const (
	// CodeBadReply: the model's reply could not be used (no SOP document,
	// no verdict, an empty answer).
	CodeBadReply = "llm_bad_reply"
	// CodeSOPInvalid: the SOP documents failed validation, also after the
	// corrective retry.
	CodeSOPInvalid = "sop_invalid"
	// CodeUncited: the answer cites none of the evidence.
	CodeUncited = "llm_uncited"
)

// NotConfiguredError is the error of a plugin with no model to ask.
func NotConfiguredError(pluginID, role string) *plugin.Error {
	return &plugin.Error{Code: plugin.CodeLLMUnavailable, Message: fmt.Sprintf(
		"%s needs a model for role %s and none is configured; set MRPVM_LLM_BASE_URL and MRPVM_LLM_MODEL "+
			"(e.g. http://localhost:11434/v1 and llama3.2) or the role in llm-role-settings.json", pluginID, role)}
}

// StatusOf maps a failed call to the status a plugin answers: no endpoint
// configured and a spent budget are `unsupported` (the planner routes
// around the plugin; the core records a budget refusal as skipped-budget),
// everything else is `error`. The error keeps the bridge's code.
func StatusOf(err error) (plugin.Status, *plugin.Error) {
	e := plugin.ErrorOf(err)
	if e == nil {
		return plugin.StatusSuccess, nil
	}
	switch e.Code {
	case plugin.CodeLLMUnavailable, plugin.CodeLLMBudget:
		return plugin.StatusUnsupported, e
	}
	return plugin.StatusError, e
}

// Truncate shortens s to at most n bytes at a rune boundary, marking the
// cut with an ellipsis.
func Truncate(s string, n int) string {
	if n <= 0 || len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !isRuneStart(s[cut]) {
		cut--
	}
	return strings.TrimSpace(s[:cut]) + " …"
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }
