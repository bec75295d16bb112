package llm

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/mrpvm/mrpvm/plugin"
)

// Stable error codes of the bridge. They reach plugin results and traces
// through plugin.ErrorOf, which recognises *Error.
const (
	// CodeNotConfigured: no endpoint (baseURL and model) is configured for
	// the plugin and role, or its key cannot be read. Plugins answer
	// `unsupported`.
	CodeNotConfigured = "llm_not_configured"
	// CodeAuth: the endpoint answered 401 or 403; the API key is missing,
	// wrong or lacks access to the model.
	CodeAuth = "llm_auth"
	// CodeNotFound: the endpoint answered 404; the model name or the base
	// URL is wrong.
	CodeNotFound = "llm_not_found"
	// CodeBadRequest: the endpoint rejected the request (400, 413, 422, ...),
	// e.g. a context window overflow or an unsupported parameter.
	CodeBadRequest = "llm_bad_request"
	// CodeRateLimited: 429 persisted through every retry, or the server asked
	// for a wait longer than allowed.
	CodeRateLimited = "llm_rate_limited"
	// CodeServer: a 5xx persisted through every retry.
	CodeServer = "llm_server_error"
	// CodeUnreachable: the endpoint could not be reached (connection
	// refused, reset, DNS) through every retry.
	CodeUnreachable = "llm_unreachable"
	// CodeBadReply: the reply is not a chat completion (malformed JSON, no
	// choices, a broken stream, an oversize body).
	CodeBadReply = "llm_bad_reply"
	// CodeTimeout: the call ran past the role's timeoutMs or the context's
	// deadline. The error wraps context.DeadlineExceeded.
	CodeTimeout = "llm_timeout"
	// CodeCanceled: the caller canceled the context. The error wraps
	// context.Canceled.
	CodeCanceled = "llm_canceled"
	// CodeBudget: the request's (or the plugin's) LLM call budget is spent;
	// the call was not made. Stages report `skipped-budget`.
	CodeBudget = "llm_budget"
)

// Error is a failed LLM call. Its text never holds an API key: messages
// quoted from the server are redacted and URLs lose their user info.
type Error struct {
	Code     string // one of the Code* constants
	Model    string // the model requested; may be empty
	URL      string // the endpoint called, redacted; may be empty
	Status   int    // HTTP status; 0 when no reply was received
	Attempts int    // HTTP attempts made; 0 when none was made
	Message  string // what went wrong and, where useful, how to fix it
	Err      error  // the underlying cause, if any
}

// Error renders "code: message (model m at url, HTTP s, after n attempts)".
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Code)
	b.WriteString(": ")
	b.WriteString(e.Message)
	var ctx []string
	if e.Model != "" && e.URL != "" {
		ctx = append(ctx, fmt.Sprintf("model %q at %s", e.Model, e.URL))
	} else if e.Model != "" {
		ctx = append(ctx, fmt.Sprintf("model %q", e.Model))
	} else if e.URL != "" {
		ctx = append(ctx, e.URL)
	}
	if e.Status != 0 {
		ctx = append(ctx, fmt.Sprintf("HTTP %d", e.Status))
	}
	if e.Attempts > 1 {
		ctx = append(ctx, fmt.Sprintf("after %d attempts", e.Attempts))
	}
	if len(ctx) > 0 {
		b.WriteString(" (")
		b.WriteString(strings.Join(ctx, ", "))
		b.WriteString(")")
	}
	return b.String()
}

// Unwrap returns the cause, so errors.Is(err, context.DeadlineExceeded)
// holds for timeouts and errors.Is(err, context.Canceled) for cancellation.
func (e *Error) Unwrap() error { return e.Err }

// Is matches another *Error by code, so errors.Is(err, &llm.Error{Code:
// llm.CodeBudget}) works; the sentinels ErrBudget and friends rely on it.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code && t.Message == "" && t.Model == "" && t.URL == ""
}

// As lets plugin.ErrorOf (errors.As with **plugin.Error) turn a bridge error into
// plugin error value (docs/contracts.md) that keeps the stable code.
func (e *Error) As(target any) bool {
	if t, ok := target.(**plugin.Error); ok {
		*t = &plugin.Error{Code: e.Code, Message: e.Error()}
		return true
	}
	return false
}

// Sentinels for errors.Is. They match any *Error with the same code.
var (
	ErrNotConfigured = &Error{Code: CodeNotConfigured}
	ErrBudget        = &Error{Code: CodeBudget}
	ErrTimeout       = &Error{Code: CodeTimeout}
	ErrCanceled      = &Error{Code: CodeCanceled}
)

// CodeOf returns the bridge code of err, "" when err is nil or did not come
// from the bridge.
func CodeOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// IsBudget reports whether err is a refusal for lack of LLM budget; the
// stage that got it is reported as `skipped-budget`.
func IsBudget(err error) bool { return CodeOf(err) == CodeBudget }

// IsNotConfigured reports whether err says that no endpoint is configured;
// the plugin that got it answers `unsupported`.
func IsNotConfigured(err error) bool { return CodeOf(err) == CodeNotConfigured }

// ctxError turns a context failure into a timeout or cancellation error.
func ctxError(ctx context.Context, base Error) *Error {
	cause := context.Cause(ctx)
	if cause == nil {
		cause = ctx.Err()
	}
	e := base
	if errors.Is(cause, context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded) {
		e.Code = CodeTimeout
		if e.Message == "" {
			e.Message = "the model did not answer in time: " + cause.Error()
		}
		if !errors.Is(cause, context.DeadlineExceeded) {
			cause = fmt.Errorf("%w: %w", context.DeadlineExceeded, cause)
		}
	} else {
		e.Code = CodeCanceled
		if e.Message == "" {
			e.Message = "the call was canceled: " + cause.Error()
		}
		if !errors.Is(cause, context.Canceled) {
			cause = fmt.Errorf("%w: %w", context.Canceled, cause)
		}
	}
	e.Err = cause
	return &e
}
