// Package llmtest is a local OpenAI-compatible chat-completions server for
// tests: scripted replies (plain or streamed as server-sent events), any
// HTTP status with headers such as Retry-After, delays, hangs until the
// client gives up, malformed bodies, and a handler for replies that depend
// on the prompt. It records every request it receives so tests can check
// what the bridge sent, and lists its models (GET …/models) for probes.
// Tests never talk to a hosted model.
//
//	srv := llmtest.New(t, llmtest.Text("Paris is the capital of France [1]."))
//	t.Setenv(llm.EnvBaseURL, srv.BaseURL())
//	t.Setenv(llm.EnvModel, srv.Model)
//
// Replies are served in the order given (Script appends more); once the
// script is used up, the Handler answers; without one the server answers
// 500 and records the problem in Problems.
package llmtest
