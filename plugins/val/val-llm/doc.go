// Package valllm is the built-in val-plugin val-llm: one call to the
// validation model role checks that a goal solver's answer is grounded in
// the retrieved evidence, addresses the question and follows the
// val-plugin guidance (validation rules stated by the user or the
// knowledge base). It answers `accepted` or `rejected` with a reason; a
// rejection makes the core raise VALIDATION_REJECTED and backtrack (next
// solver, next evidence view, next decomposition branch, heavier planner),
// and the reason reaches the next solver. An empty answer is rejected
// without a call. With no model endpoint configured it answers
// `unsupported` (code llm_not_configured), which neither accepts nor
// rejects. The prompt is prompts/validate.tmpl, embedded.
//
// It is the variant llmplug.LLMValidator of the shared implementation in
// plugins/internal/llmplug; this folder holds its descriptor (plugin.json),
// the KUs describing it (plugin.kus.md) and its prompts (prompts/).
package valllm
