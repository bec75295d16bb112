package plugin

import (
	"context"
	"io"
	"log/slog"
	"time"

	"github.com/mrpvm/mrpvm/kus"
)

// RunContext is the shared execution context the core passes to every
// plugin call: requestId, session, conversation, parser,
// decomposer, externalHelpers, modelSettings, logger, budgets. It is passed
// by value and plugins must treat it, and everything it points to, as
// read-only; the only callback surfaces are LLM, Helpers, Parser and
// Decomposer. Any interface field may be nil where the service does not
// exist (Parser and Decomposer are nil in the source-text hook).
type RunContext struct {
	RequestID     string
	Session       Session
	Conversation  []Turn
	Parser        Parser
	Decomposer    Decomposer
	Helpers       Helpers // externalHelpers: allowlisted wrapper plugins
	ModelSettings ModelSettings
	Logger        *slog.Logger
	Budgets       Budgets
	LLM           LLM // the LLM bridge; nil when no model endpoint is configured
	// Corpus reads statistics and source text of the whole knowledge
	// base; nil where there is none (and in the source-text hook).
	Corpus Corpus
	// HookType is "source-text" in the ingest hook and empty otherwise.
	HookType string
}

// Log returns the logger, or one that discards everything.
func (rc *RunContext) Log() *slog.Logger {
	if rc.Logger != nil {
		return rc.Logger
	}
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

// Corpus is a read-only view of the knowledge base as a whole, for
// plugins that weigh words by how rare they are or quote the Markdown of a
// passage as written.
type Corpus interface {
	// Documents is the number of sources the knowledge base indexes (0:
	// no statistics).
	Documents() int
	// DocFreq is the number of those sources holding term, a term as
	// text.Terms analyses it (lower-cased, stemmed).
	DocFreq(term string) int
	// SourceText is the Markdown of a source as ingested (a KU's
	// CharStart:CharEnd index into it), or nil when it is no longer
	// available unchanged. It is read once per request and shared between
	// calls: callers must not modify it.
	SourceText(sourceID string) []byte
}

// Session is a read-only view of the current session.
type Session struct {
	ID     string
	KBID   string
	KBName string
	// Preferences maps a loop stage (LoopKB, ...) to the plugin id the
	// session prefers there: a strong prior, not a pin.
	Preferences map[string]string
	// Pins maps a loop stage to the plugin id the request pinned there.
	Pins map[string]string
}

// Turn is one message of the conversation so far.
type Turn struct {
	ID   string    `json:"id"`
	Role string    `json:"role"` // "user" or "assistant"
	Text string    `json:"text"`
	At   time.Time `json:"at"`
}

// Budgets is a snapshot of the request's remaining budgets when the call
// began. LLM calls are charged by the bridge, not by the plugin.
type Budgets struct {
	MaxLLMCalls        int       // per request
	RemainingLLMCalls  int       // what is left of MaxLLMCalls
	Deadline           time.Time // zero when the request has no deadline
	FrameDepth         int       // depth of the current execution frame (0 = root)
	MaxFrameDepth      int
	MaxPluginsPerStage int
}

// Parser admits SOP Lang Control documents.
type Parser interface {
	// Check parses and validates a document and returns its problems; a
	// document with no error diagnostics would be admitted.
	Check(ctx context.Context, cnl string) []kus.Diagnostic
}

// Decomposer splits a task into subtasks for child frames.
type Decomposer interface {
	// Decompose returns the intent CNL of each subtask of intentCNL.
	Decompose(ctx context.Context, intentCNL string) ([]string, error)
}

// Helpers calls external wrapper helpers by id.
type Helpers interface {
	// IDs lists the helpers that may be called.
	IDs() []string
	// Call runs one helper on a payload and returns its parsed result.
	Call(ctx context.Context, id string, p Payload) (*WrapperResult, error)
}

// WrapperResult is the parsed `## Plugin Result` block of a wrapper
// (docs/wrappers.md).
type WrapperResult struct {
	Status     Status   `json:"status"`
	Plugin     string   `json:"plugin"`
	Confidence *float64 `json:"confidence,omitempty"`
	Result     string   `json:"result"`
	Evidence   []string `json:"evidence"`
	// Warnings lists what the parser ignored (an unreadable Confidence).
	Warnings []string `json:"warnings,omitempty"`
}

// RoleSetting says which model serves a role and how. Zero fields are unset
// and fall through to the next level of resolution.
type RoleSetting struct {
	Model       string   `json:"model,omitempty"`
	BaseURL     string   `json:"baseURL,omitempty"`   // OpenAI-compatible endpoint, e.g. http://localhost:11434/v1
	APIKeyEnv   string   `json:"apiKeyEnv,omitempty"` // name of the environment variable holding the key
	Temperature *float64 `json:"temperature,omitempty"`
	MaxTokens   int      `json:"maxTokens,omitempty"`
	TimeoutMs   int      `json:"timeoutMs,omitempty"`
}

// Over returns s with the set fields of o laid over it.
func (s RoleSetting) Over(o RoleSetting) RoleSetting {
	if o.Model != "" {
		s.Model = o.Model
	}
	if o.BaseURL != "" {
		s.BaseURL = o.BaseURL
	}
	if o.APIKeyEnv != "" {
		s.APIKeyEnv = o.APIKeyEnv
	}
	if o.Temperature != nil {
		t := *o.Temperature
		s.Temperature = &t
	}
	if o.MaxTokens != 0 {
		s.MaxTokens = o.MaxTokens
	}
	if o.TimeoutMs != 0 {
		s.TimeoutMs = o.TimeoutMs
	}
	return s
}

// ModelSettings are the shared LLM role settings as seen by one call.
type ModelSettings struct {
	Default         RoleSetting
	Roles           map[string]RoleSetting
	PluginOverrides map[string]RoleSetting // by plugin id
	Request         RoleSetting            // request or session override
}

// Resolve returns the setting for a plugin's role. Priority, highest first:
// plugin override, role, request/session override, default.
func (m ModelSettings) Resolve(pluginID, role string) RoleSetting {
	s := m.Default.Over(m.Request)
	if r, ok := m.Roles[role]; ok {
		s = s.Over(r)
	}
	if p, ok := m.PluginOverrides[pluginID]; ok {
		s = s.Over(p)
	}
	return s
}

// Configured reports whether the role resolves to a model and an endpoint.
func (m ModelSettings) Configured(pluginID, role string) bool {
	s := m.Resolve(pluginID, role)
	return s.Model != "" && s.BaseURL != ""
}

// LLM is the bridge to a chat-completions model. The core charges each call
// against the request budget and fails with CodeLLMUnavailable or a budget
// error when it cannot be made.
type LLM interface {
	Complete(ctx context.Context, req LLMRequest) (*LLMResponse, error)
}

// Message is one chat message.
type Message struct {
	Role    string `json:"role"` // system, user, assistant
	Content string `json:"content"`
}

// LLMRequest is one completion request made on behalf of a plugin and role.
type LLMRequest struct {
	PluginID    string
	Role        string // a model role (RoleGoalFast, ...)
	Messages    []Message
	MaxTokens   int      // 0: the role's setting
	Temperature *float64 // nil: the role's setting
	JSON        bool     // ask for a JSON object reply
}

// LLMResponse is the model's reply.
type LLMResponse struct {
	Text             string
	Model            string
	PromptTokens     int
	CompletionTokens int
}

// Env is what a built-in's factory receives: services injected by the core
// at boot, never looked up by the plugin.
type Env struct {
	PluginID      string
	Workspace     string // absolute workspace folder; may be empty
	Store         Store  // the plugin's private namespace; nil without a knowledge base
	LLM           LLM    // nil when no model endpoint is configured
	ModelSettings ModelSettings
	Logger        *slog.Logger // nil: discard
}

// Closer is implemented by plugins holding resources; the catalog calls it
// on shutdown.
type Closer interface {
	Close() error
}

// IndexVersioner is implemented by kb-plugins whose private index format can
// change: when the version differs from the one the index was built with,
// the core drops the plugin's namespace and replays OnSourceText for every
// stored source.
type IndexVersioner interface {
	IndexVersion() string
}
