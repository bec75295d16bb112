// Package livellm asks a real model: its tests run only when
// MRPVM_LLM_BASE_URL and MRPVM_LLM_MODEL name an OpenAI-compatible
// endpoint, and are skipped otherwise.
package livellm
