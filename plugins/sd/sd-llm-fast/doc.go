// Package sdllmfast is the built-in sd-plugin sd-llm-fast: lightweight
// LLM-backed seed detection. DetectSeeds makes one call to the seed-fast
// model role that returns both SOP Lang documents (intentCNL and
// currentTurnContextCNL); the SOP interpreter validates them and, when they
// do not validate, one corrective call quotes the errors (maxLLMCalls 2).
// NormalizePersistentContext turns source text into a contextCNL document
// the same way. With no model endpoint configured both answer
// `unsupported` (code llm_not_configured) and the planner routes to
// sd-symbolic. The prompts are the files in prompts/, embedded.
//
// It is the variant llmplug.FastSeedDetector of the shared implementation in
// plugins/internal/llmplug; this folder holds its descriptor (plugin.json),
// the KUs describing it (plugin.kus.md) and its prompts (prompts/).
package sdllmfast
