// Package gsllmfast is the built-in gs-plugin gs-llm-fast: a fluent answer
// written by the goal-fast model role from the structured payload
// (intents, evidence KUs, gs-plugin guidance KUs), grounded in the evidence
// with [n] citations that map back to KUs (responseDocument lists them,
// evidenceIds names the cited KUs). It makes one call (maxLLMCalls 1),
// answers `no-context` without calling the model when there is no
// evidence and when the model says the evidence does not answer, and
// `needs-decomposition` when the model says the task is too broad. An
// answer that cites no source is an error (llm_uncited). With no model
// endpoint configured it answers `unsupported` (code llm_not_configured)
// and the planner falls back to gs-symbolic. The prompt is prompts/solve.tmpl,
// embedded.
//
// It is the variant llmplug.FastGoalSolver of the shared implementation in
// plugins/internal/llmplug; this folder holds its descriptor (plugin.json),
// the KUs describing it (plugin.kus.md) and its prompts (prompts/).
package gsllmfast
