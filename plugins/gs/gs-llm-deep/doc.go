// Package gsllmdeep is the built-in gs-plugin gs-llm-deep: a thorough
// answer written by the goal-deep model role from the structured payload
// (intents with their context, criteria and constraints, more evidence KUs
// with the retrievers' proof chains, gs-plugin guidance KUs), grounded in
// the evidence with [n] citations that map back to KUs (responseDocument
// lists them, evidenceIds names the cited KUs). It answers `no-context`
// without calling the model when there is no evidence and when the model
// says the evidence does not answer, and `needs-decomposition` when the
// model says the task is too broad (the decomposition signal). An answer
// that cites no source gets one corrective call (maxLLMCalls 2), then is
// an error (llm_uncited). With no model endpoint configured it answers
// `unsupported` (code llm_not_configured) and the planner falls back to
// gs-llm-fast or gs-symbolic. The prompt is prompts/solve.tmpl, embedded.
//
// It is the variant llmplug.DeepGoalSolver of the shared implementation in
// plugins/internal/llmplug; this folder holds its descriptor (plugin.json),
// the KUs describing it (plugin.kus.md) and its prompts (prompts/).
package gsllmdeep
