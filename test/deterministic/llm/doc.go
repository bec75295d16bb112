// Package llm tests the LLM plugins and the LLM bridge end to end against
// a scripted local OpenAI-compatible server (llm/llmtest): real HTTP, real
// requests and replies, no model; it runs offline in every test run.
package llm
