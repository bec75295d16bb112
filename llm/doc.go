// Package llm is mrpvm's bridge to chat-completions models, resolved per
// model role (docs/configuration.md). It speaks the OpenAI-compatible protocol
// (POST {baseURL}/chat/completions with a bearer key, model, messages,
// temperature, max_tokens and optional SSE streaming), so one client serves
// OpenAI, Ollama (http://localhost:11434/v1), llama.cpp's server, vLLM and
// LM Studio.
//
// The pieces, from the wire up:
//
//   - Client talks to one resolved Endpoint: timeouts through the context
//     and the role's timeoutMs, retries with exponential backoff and jitter
//     on 408/409/429/5xx and connection errors (honouring Retry-After),
//     typed errors with stable codes (Error, Code*), token usage, an
//     optional response Cache.
//   - Resolver turns plugin.ModelSettings plus the environment
//     into an Endpoint for a plugin id and a model role. Resolution order,
//     highest first: plugin override, role, request/session override,
//     default, environment.
//   - Bridge implements plugin.LLM for the whole process: it resolves each
//     request's plugin and role, and keeps one Client per endpoint.
//   - Meter implements plugin.LLM for one request: it charges every call to
//     the request's LLM budget, refuses with CodeBudget when it is spent,
//     and reports calls, models, roles and tokens per plugin and per stage.
//
// API keys are held in Secret values that render as [REDACTED] in every
// fmt verb, in JSON and in slog; they never appear in errors, logs or
// traces. Keys come from the environment (MRPVM_LLM_API_KEY, a role's
// apiKeyEnv) or from a file (MRPVM_LLM_API_KEY_FILE), never from a
// configuration file.
//
// # Configuring a model
//
// A local Ollama (after `ollama pull llama3.2`):
//
//	export MRPVM_LLM_BASE_URL=http://localhost:11434/v1 MRPVM_LLM_MODEL=llama3.2
//
// llama.cpp's server (`llama-server -m model.gguf --port 8080`), vLLM and LM
// Studio are the same with their own base URL (http://localhost:8080/v1,
// http://localhost:8000/v1, http://localhost:1234/v1). An OpenAI-compatible
// service also needs a key:
//
//	export MRPVM_LLM_BASE_URL=https://api.openai.com/v1 MRPVM_LLM_MODEL=gpt-4o-mini
//	export MRPVM_LLM_API_KEY_FILE=~/.config/mrpvm/openai.key   # or MRPVM_LLM_API_KEY=...
//
// Per-role models go in the user's llm-role-settings.json; a role with its
// own service names the variable holding its key:
//
//	{"roles": {"goal-deep": {"model": "gpt-4o", "baseURL": "https://api.openai.com/v1",
//	                         "apiKeyEnv": "OPENAI_API_KEY", "timeoutMs": 120000}}}
//
// Roles the files leave without a base URL, model or key take them from
// the environment, highest first: the MRPVM_LLM_* variables;
// OPENAI_BASE_URL with OPENAI_API_KEY (OPENAI_API_KEY alone means
// https://api.openai.com/v1); OLLAMA_HOST (http://HOST/v1, no key); and,
// only when MRPVM_LLM_PROBE_OLLAMA=1, a local Ollama at localhost:11434
// found by a short probe that also picks its first model when
// MRPVM_LLM_MODEL is unset. The OPENAI_API_KEY is sent only to the
// endpoint the OPENAI_* variables chose. With nothing configured, Resolve and Complete fail
// with CodeNotConfigured and the LLM plugins answer `unsupported`; Hint is
// the one line that tells the user what to set.
package llm
