// Package llm is mrpvm's bridge to chat-completions models (design notes
// section 10, DS028). It speaks the OpenAI-compatible protocol
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
//   - Resolver turns sdk.ModelSettings plus the MRPVM_LLM_* environment
//     into an Endpoint for a plugin id and a model role. Resolution order,
//     highest first: plugin override, role, request/session override,
//     default, environment.
//   - Bridge implements sdk.LLM for the whole process: it resolves each
//     request's plugin and role, and keeps one Client per endpoint.
//   - Meter implements sdk.LLM for one request: it charges every call to
//     the request's LLM budget, refuses with CodeBudget when it is spent,
//     and reports calls, models, roles and tokens per plugin and per stage.
//
// API keys are held in Secret values that render as [REDACTED] in every
// fmt verb, in JSON and in slog; they never appear in errors, logs or
// traces. Keys come from the environment (MRPVM_LLM_API_KEY, a role's
// apiKeyEnv) or from a file (MRPVM_LLM_API_KEY_FILE), never from a
// configuration file.
package llm
