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
