// Package sdllmdeep is the built-in sd-plugin sd-llm-deep: thorough
// LLM-backed seed detection for ambiguous, multi-part or
// context-dependent turns. Its prompt asks for one intent per sub-task,
// resolves references from the last conversation turns and classifies
// stated instructions and facts by phase. DetectSeeds makes one call to
// the seed-deep model role that returns both SOP Lang documents (intentCNL
// and currentTurnContextCNL); the SOP interpreter validates them and, when
// they do not validate, one corrective call quotes the errors
// (maxLLMCalls 2). NormalizePersistentContext turns source text into a
// contextCNL document the same way. With no model endpoint configured
// both answer `unsupported` (code llm_not_configured) and the planner
// routes to sd-llm-fast or sd-symbolic. The prompts are the files in
// prompts/, embedded.
//
// It is the variant llmplug.DeepSeedDetector of the shared implementation in
// plugins/internal/llmplug; this folder holds its descriptor (plugin.json),
// the KUs describing it (plugin.kus.md) and its prompts (prompts/).
package sdllmdeep
