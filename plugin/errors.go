package plugin

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/mrpvm/mrpvm/plugin/text"
)

// Stage names the step of a plugin's life where a failure happened.
type Stage string

// Plugin life stages.
const (
	StageNormalize Stage = "normalize" // filling defaults (legacy manifest keys, implied plannerHints)
	StageLoad      Stage = "load"      // reading plugin.json, manifest.json, config, calling the factory
	StageValidate  Stage = "validate"  // descriptor and manifest validation
	StageRegister  Stage = "register"  // registry insertion
	StageRun       Stage = "run"       // a family method call
)

// Stable error codes. Descriptor codes name the failing descriptor rule
// (docs/contracts.md).
const (
	CodeUnknownPluginType          = "unknown_plugin_type"
	CodeDuplicatePluginID          = "duplicate_plugin_id"
	CodePluginTypeMismatch         = "plugin_type_mismatch" // the value does not implement its declared family
	CodeManifestInvalid            = "manifest_invalid"
	CodeNotAllowlisted             = "not_allowlisted"
	CodeWrapperIDTaken             = "wrapper_id_taken" // a workspace wrapper with the id of a wrapper in the user's folder
	CodePathSandboxViolation       = "path_sandbox_violation"
	CodeUnsupportedProtocolVersion = "unsupported_protocol_version"
	CodeWrapperTimeout             = "wrapper_timeout"
	CodeWrapperBadOutput           = "wrapper_bad_output"
	CodeWrapperExit                = "wrapper_exit"
	CodeWrapperInputTooLarge       = "wrapper_input_too_large"
	CodeWrapperStart               = "wrapper_start_failed"
	CodeUnknownPlugin              = "unknown_plugin"        // a configured id that no built-in or wrapper provides
	CodePluginFactory              = "plugin_factory_failed" // a built-in's New returned an error
	CodeOptionsInvalid             = "plugin_options_invalid"
	CodeKUsInvalid                 = "plugin_kus_invalid"

	CodeNotImplemented = "not_implemented"    // behaviour arrives in a later version
	CodeLLMUnavailable = "llm_not_configured" // no model endpoint configured (llm's code)
	CodeLLMBudget      = "llm_budget"         // the request's LLM budget is spent
	// CodeIndexCorrupt reports a plugin-private index that cannot be read;
	// the core rebuilds the plugin's namespace from the stored KUs and
	// retries once.
	CodeIndexCorrupt = "index_corrupt"
	CodePluginFailed = "plugin_failed" // a call failed without a more specific code
	// CodeKBCorrupt reports that the knowledge base file itself is damaged
	// (a page or a stored KU cannot be read): the request cannot be
	// answered and the file has to be rebuilt from the workspace.
	CodeKBCorrupt = "kb_corrupt"
	CodeCanceled  = "canceled"
	CodeTimeout   = "timeout"

	CodeDescriptorSyntax         = "descriptor_syntax"
	CodeDescriptorBadField       = "descriptor_bad_field" // a value of the wrong JSON type
	CodeDescriptorMissingID      = "descriptor_missing_id"
	CodeDescriptorBadID          = "descriptor_bad_id"
	CodeDescriptorMissingType    = "descriptor_missing_type"
	CodeDescriptorBadType        = "descriptor_bad_type"
	CodeDescriptorBadVersion     = "descriptor_bad_version"
	CodeDescriptorMissingDesc    = "descriptor_missing_description"
	CodeDescriptorBadDesc        = "descriptor_bad_description"
	CodeDescriptorMissingCost    = "descriptor_missing_cost_class"
	CodeDescriptorBadCost        = "descriptor_bad_cost_class"
	CodeDescriptorBadMaxLLMCalls = "descriptor_bad_max_llm_calls"
	CodeDescriptorBadModelRole   = "descriptor_bad_model_role"
	CodeDescriptorBadTimeout     = "descriptor_bad_timeout"
	CodeDescriptorBadList        = "descriptor_bad_list"
	CodeDescriptorMissingHints   = "descriptor_missing_planner_hints"
	CodeDescriptorBadHint        = "descriptor_bad_planner_hint"
)

// ErrKBCorrupt matches (errors.Is) the errors a Store or KUReader returns
// when the knowledge base file is damaged. A plugin passes such an error
// on with CodeKBCorrupt rather than its own codes: rebuilding the plugin's
// index cannot help.
var ErrKBCorrupt = errors.New(CodeKBCorrupt)

// Error is the structured error of a plugin result (`error{code,
// message}`). It is also a Go error.
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// Errorf builds an Error with a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// NotImplemented is the honest answer of a method whose behaviour has not
// been written yet.
func NotImplemented(pluginID, method string) *Error {
	return Errorf(CodeNotImplemented, "%s: %s is not implemented yet", pluginID, method)
}

// PluginError is a load, validation, registration or run failure. It names
// the plugin (reference and id), the stage and a stable code, and where a
// file is at fault, its position.
type PluginError struct {
	Ref     string `json:"ref,omitempty"` // the plugin reference: "builtin:<id>" or the manifest path
	ID      string `json:"id,omitempty"`
	Stage   Stage  `json:"stage,omitempty"`
	Code    string `json:"code"`
	Message string `json:"message"`
	Field   string `json:"field,omitempty"` // dotted path of the offending key ("plannerHints.relativeCost")
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"` // 1-based; 0 when unknown
	Col     int    `json:"col,omitempty"`
	Warning bool   `json:"warning,omitempty"` // the plugin was skipped, nothing is broken
	Err     error  `json:"-"`
}

// Error renders "file:line:col: code: message (plugin id, stage)".
func (e *PluginError) Error() string {
	var b strings.Builder
	if loc := e.Location(); loc != "" {
		b.WriteString(loc)
		b.WriteString(": ")
	}
	b.WriteString(e.Code)
	b.WriteString(": ")
	b.WriteString(e.Message)
	if e.ID != "" || e.Stage != "" {
		b.WriteString(" (")
		if e.ID != "" {
			b.WriteString("plugin ")
			b.WriteString(e.ID)
		}
		if e.Stage != "" {
			if e.ID != "" {
				b.WriteString(", ")
			}
			b.WriteString("stage ")
			b.WriteString(string(e.Stage))
		}
		b.WriteString(")")
	}
	return b.String()
}

// Location renders "file:line:col", "file:line", "file" or, without a file,
// the plugin reference.
func (e *PluginError) Location() string {
	f := e.File
	if f == "" {
		f = e.Ref
	}
	if f == "" {
		return ""
	}
	if e.Line > 0 {
		f += ":" + strconv.Itoa(e.Line)
		if e.Col > 0 {
			f += ":" + strconv.Itoa(e.Col)
		}
	}
	return f
}

func (e *PluginError) Unwrap() error { return e.Err }

// Result returns the error carried in a result for this failure.
func (e *PluginError) Result() *Error { return &Error{Code: e.Code, Message: e.Error()} }

// FieldErrors is returned by descriptor and manifest decoding when values
// have the wrong JSON type; each element names its field.
type FieldErrors []*PluginError

func (fe FieldErrors) Error() string { return text.JoinFunc(fe, "; ", (*PluginError).Error) }

// ErrorOf turns any error into an error value with a stable code.
func ErrorOf(err error) *Error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	var pe *PluginError
	if errors.As(err, &pe) {
		return pe.Result()
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return &Error{Code: CodeTimeout, Message: err.Error()}
	case errors.Is(err, context.Canceled):
		return &Error{Code: CodeCanceled, Message: err.Error()}
	}
	return &Error{Code: CodePluginFailed, Message: err.Error()}
}
