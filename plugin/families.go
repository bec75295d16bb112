package plugin

import (
	"context"
	"encoding/json"

	"github.com/mrpvm/mrpvm/kus"
)

// The five family interfaces (docs/contracts.md). Every method takes the call's
// context.Context (cancellation, deadline) and the read-only RunContext.
//
// Outcomes, including failures a plugin understands, travel in the result:
// a Status from the method's allowed set (SeedStatuses, ...) and, for status
// error or unsupported, an Error{Code, Message}. A non-nil Go error means no
// result could be produced at all (cancelled context, broken subprocess);
// it should be a *PluginError or *Error so the core can record its code, and
// the core records the call as status error. A plugin whose behaviour does
// not exist yet answers StatusUnsupported with CodeNotImplemented, never a
// fake success.

// Plugin is what every family has in common.
type Plugin interface {
	// Descriptor returns the plugin's descriptor.
	Descriptor() Descriptor
}

// SDPlugin detects seeds: intents and current-turn KUs from user input, and
// KUs for the knowledge base from persistent context.
type SDPlugin interface {
	Plugin
	DetectSeeds(ctx context.Context, rc RunContext, in *SeedInput) (*SeedResult, error)
	NormalizePersistentContext(ctx context.Context, rc RunContext, in *NormalizeInput) (*NormalizeResult, error)
}

// PlanPlugin orders the plugins of each stage and learns from outcomes.
type PlanPlugin interface {
	Plugin
	BuildPlan(ctx context.Context, rc RunContext, in *PlanInput) (*Plan, error)
	RecordOutcome(ctx context.Context, rc RunContext, o *Outcome) error
}

// KBPlugin retrieves KUs and keeps a private index fed by the ingest hook.
type KBPlugin interface {
	Plugin
	Retrieve(ctx context.Context, rc RunContext, in *RetrieveInput) (*RetrieveResult, error)
	// OnSourceText is the ingest hook (hookType "source-text"). It runs
	// inside the source's write transaction: st.KV writes land or roll back
	// with the source's KUs. A non-nil error aborts that source.
	OnSourceText(ctx context.Context, rc RunContext, st *SourceText) (*SourceTextResult, error)
	OnSessionEvent(ctx context.Context, rc RunContext, ev *SessionEvent) (*SessionEventResult, error)
}

// GSPlugin produces an answer from intents and evidence.
type GSPlugin interface {
	Plugin
	Solve(ctx context.Context, rc RunContext, in *SolveInput) (*SolveResult, error)
}

// ValPlugin checks a goal solver's answer.
type ValPlugin interface {
	Plugin
	Validate(ctx context.Context, rc RunContext, in *ValidateInput) (*ValidateResult, error)
}

// Implements reports whether p implements the interface of family t.
func Implements(p Plugin, t PluginType) bool {
	var ok bool
	switch t {
	case TypeSD:
		_, ok = p.(SDPlugin)
	case TypePlan:
		_, ok = p.(PlanPlugin)
	case TypeKB:
		_, ok = p.(KBPlugin)
	case TypeGS:
		_, ok = p.(GSPlugin)
	case TypeVal:
		_, ok = p.(ValPlugin)
	}
	return ok
}

// Metadata reports the LLM use of a call.
type Metadata struct {
	LLMCalls int            `json:"llmCalls"`
	Model    string         `json:"model,omitempty"` // empty: no model used (null in the contract)
	Extra    map[string]any `json:"extra,omitempty"`
}

// Intent is an admitted intent (SOP Lang Control `intent`).
type Intent struct {
	ID          string   `json:"id"`
	Act         string   `json:"act"` // one of kus.Acts
	Target      string   `json:"target"`
	Output      string   `json:"output"`
	Context     string   `json:"context,omitempty"`
	Criterion   string   `json:"criterion,omitempty"`
	Evidence    string   `json:"evidence,omitempty"`
	Constraints []string `json:"constraints,omitempty"`
	ParentID    string   `json:"parentId,omitempty"` // for decomposed intents
}

// KUReader reads committed KUs. The engine's knowledge base satisfies it.
type KUReader interface {
	// KU returns the unit with the given id, or nil.
	KU(id string) (*kus.KU, error)
}

// ---- sd-plugin -------------------------------------------------------------

// SeedInput is the input of DetectSeeds.
type SeedInput struct {
	Payload   Payload // prompt: the user's turn; context: relevant prior turn context
	SessionID string
	TurnID    string
}

// SeedResult is the result of DetectSeeds. Both CNL outputs are SOP
// Lang Control documents; empty means null.
type SeedResult struct {
	Status                Status   `json:"status"` // SeedStatuses
	IntentCNL             string   `json:"intentCNL"`
	CurrentTurnContextCNL string   `json:"currentTurnContextCNL"`
	Metadata              Metadata `json:"metadata"`
	Error                 *Error   `json:"error"`
}

// NormalizeInput is the input of NormalizePersistentContext: one source for
// the knowledge base.
type NormalizeInput struct {
	Source kus.SourceInfo
	Text   string
	Units  []*kus.KU // what the Markdown reader already made of it, if anything
}

// NormalizeResult is the result of NormalizePersistentContext.
type NormalizeResult struct {
	Status     Status   `json:"status"` // NormalizeStatuses
	ContextCNL string   `json:"contextCNL"`
	Metadata   Metadata `json:"metadata"`
	Error      *Error   `json:"error"`
	// Doc, set only by an in-process detector, is the source's KU
	// hierarchy itself (the Markdown reader's, with its sections), used in
	// place of ContextCNL: a hierarchy does not survive the flat contextCNL
	// document. A wrapper plugin cannot set it.
	Doc *kus.Document `json:"-"`
}

// ---- kb-plugin -------------------------------------------------------------

// Retrieval purposes.
const (
	PurposeTaskEvidence     = "task-evidence"
	PurposeStrategyGuidance = "strategy-guidance"
	PurposeMixed            = "mixed"
)

// RetrieveInput is the input of Retrieve.
type RetrieveInput struct {
	Payload    Payload
	Intents    []Intent
	TurnUnits  []*kus.KU // current-turn KUs staged in the session
	Purpose    string    // PurposeTaskEvidence (default), PurposeStrategyGuidance, PurposeMixed
	MaxResults int       // 0: the plugin's configured default
	SessionID  string
	KUs        KUReader // read access to committed KUs
}

// ScoredKU is a retrieved KU with its score and why it was chosen.
type ScoredKU struct {
	KU       *kus.KU `json:"ku"`
	Score    float64 `json:"score"`
	Level    string  `json:"level"`              // kus.LevelSummary, LevelSection, LevelLeaf
	Strategy string  `json:"strategy,omitempty"` // bm25, hdc, thinkingdb, ...
	Why      string  `json:"why,omitempty"`      // a short human-readable reason or proof
}

// ResolvedIntent separates evidence for the goal solver from phase-scoped
// guidance (KUs whose PhaseScopes name another phase).
type ResolvedIntent struct {
	IntentID   string     `json:"intentId"`
	Intent     string     `json:"intent"`
	Evidence   []ScoredKU `json:"evidence"`
	Guidance   []ScoredKU `json:"guidance"` // each KU's PhaseScopes say which phase it guides
	Sufficient bool       `json:"sufficient"`
}

// RetrievalTrace reports how a retrieval went.
type RetrievalTrace struct {
	Purpose            string   `json:"purpose"`
	KULevelsUsed       []string `json:"kuLevelsUsed"`
	TotalKUsConsidered int      `json:"totalKUsConsidered"`
	SelectedKUCount    int      `json:"selectedKUCount"`
	// SearchedFor is the query as the plugin searched it when that differs
	// from what was asked (words spelled as the knowledge base spells
	// them), so an answer can say what it looked for; "" otherwise.
	SearchedFor string `json:"searchedFor,omitempty"`
}

// RetrieveResult is the result of Retrieve.
type RetrieveResult struct {
	Status          Status           `json:"status"` // RetrieveStatuses
	ResolvedIntents []ResolvedIntent `json:"resolvedIntents"`
	Sufficient      bool             `json:"sufficient"`
	RetrievalTrace  RetrievalTrace   `json:"retrievalTrace"`
	Metadata        Metadata         `json:"metadata"`
	Error           *Error           `json:"error"`
}

// HookSourceText is the hookType of the ingest hook.
const HookSourceText = "source-text"

// SourceText is the ingest hook's input: one source committed or removed.
// It is built inside the source's write transaction and is valid only
// during the call: copy Text, Doc or KV values to keep them.
type SourceText struct {
	HookType   string        // always HookSourceText
	SourceID   string        // workspace-relative path, or plugin::<id>
	Path       string        // absolute file path; empty for built-in sources
	Text       []byte        // raw source text; nil when Removed
	Doc        *kus.Document // the KU hierarchy; nil when Removed
	OldUnitIDs []string      // the KUs the source had before this event
	Removed    bool          // the source was deleted: drop its entries
	KV         KV            // the plugin's private namespace, inside the source's transaction
	KUs        KUReader      // committed KUs, read inside the same transaction
}

// SourceTextResult is the result of OnSourceText.
type SourceTextResult struct {
	Status    Status           `json:"status"` // HookStatuses
	Artifacts []map[string]any `json:"artifacts"`
	Error     *Error           `json:"error"`
}

// Session event types.
const (
	EventSessionCreated  = "session-created"
	EventKBLoaded        = "kb-loaded"
	EventKBSaved         = "kb-saved"
	EventKBForked        = "kb-forked"
	EventSessionKUsAdded = "session-kus-added"
)

// SessionEvent is the onSessionEvent envelope (docs/contracts.md).
type SessionEvent struct {
	EventType      string          `json:"eventType"`
	SessionID      string          `json:"sessionId"`
	KBID           string          `json:"kbId,omitempty"`
	KBName         string          `json:"kbName,omitempty"`
	RequestedKBID  string          `json:"requestedKbId,omitempty"`
	PreviousKBID   string          `json:"previousKbId,omitempty"`
	PreviousKBName string          `json:"previousKbName,omitempty"`
	RepositoryMeta json.RawMessage `json:"repositoryMeta,omitempty"`
	WorkspaceStats map[string]int  `json:"workspaceStats"`
	Snapshot       json.RawMessage `json:"snapshot,omitempty"`
	Units          []*kus.KU       `json:"units"`
	Scope          string          `json:"scope,omitempty"` // "current-turn" or "committed-session"
	Reason         string          `json:"reason,omitempty"`
}

// SessionEventResult is the result of OnSessionEvent.
type SessionEventResult struct {
	Status Status `json:"status"` // HookStatuses
	Error  *Error `json:"error"`
}

// ---- gs-plugin -------------------------------------------------------------

// SolveInput is the input of Solve.
type SolveInput struct {
	Payload    Payload    // prompt: the task; context: the evidence as structured items
	Intents    []Intent   //
	Evidence   []ScoredKU // the evidence behind Payload.Context
	Guidance   []ScoredKU // gs-plugin-scoped guidance: answer shape, procedure
	FrameDepth int
	// Rejection is the reason a validator gave for a previous answer in
	// this frame, so a retry can address it.
	Rejection string
	// SearchedFor is the query the evidence was retrieved for when a
	// kb-plugin searched something other than what was asked
	// (RetrievalTrace.SearchedFor); "" otherwise.
	SearchedFor string
}

// SolveResult is the result of Solve.
type SolveResult struct {
	Status           Status          `json:"status"` // SolveStatuses
	ResponseMarkdown string          `json:"responseMarkdown"`
	ResponseDocument json.RawMessage `json:"responseDocument,omitempty"`
	// EvidenceIDs lists the KUs the answer rests on.
	EvidenceIDs []string `json:"evidenceIds,omitempty"`
	Metadata    Metadata `json:"metadata"`
	Error       *Error   `json:"error"`
}

// ---- val-plugin ------------------------------------------------------------

// ValidateInput is the input of Validate.
type ValidateInput struct {
	Payload  Payload // the question and the evidence
	Intents  []Intent
	Answer   string // the goal solver's responseMarkdown
	SolverID string
	Evidence []ScoredKU
	Guidance []ScoredKU // val-plugin-scoped guidance: validation rules
	// SearchedFor is the query the evidence was retrieved for when it
	// differs from the question (a spelling-corrected or follow-up-
	// completed query, as SolveInput.SearchedFor); "" otherwise.
	SearchedFor string
}

// ValidateResult is the result of Validate. Verdict equals Status for
// accepted and rejected and is empty otherwise; an unsupported validator
// neither accepts nor rejects.
type ValidateResult struct {
	Status   Status   `json:"status"` // ValidateStatuses
	Verdict  Status   `json:"verdict"`
	Reason   string   `json:"reason"`
	Metadata Metadata `json:"metadata"`
	Error    *Error   `json:"error"`
}

// ---- mrp-plan-plugin -------------------------------------------------------

// Frame purposes.
const (
	FrameStrategyGuidance     = "strategy-guidance"
	FrameSubtaskDecomposition = "subtask-decomposition"
)

// PlanInput is the input of BuildPlan.
type PlanInput struct {
	Payload           Payload
	Intents           []Intent
	DecomposedIntents []Intent
	TurnUnits         []*kus.KU
	KBID              string
	KBName            string
	// KBStats is the mounted knowledge base's metadata for the session
	// (sources, kus).
	KBStats map[string]int
	// StrategyGuidance holds the KUs retrieved with purpose
	// strategy-guidance whose PhaseScopes name the planner.
	StrategyGuidance []ScoredKU
	// Guidance holds phase-scoped guidance by phase scope
	// (mrp-plan-plugin, gs-plugin, frame, val-plugin, sd-plugin).
	Guidance map[string][]ScoredKU
	// Pins maps a loop stage to the plugin id the request pinned there.
	Pins map[string]string
	// Preferences maps a loop stage to the session's preferred plugin.
	Preferences map[string]string
	// Candidates lists the enabled plugins of each family, in the
	// configured default order.
	Candidates map[PluginType][]Descriptor
	FrameDepth int
	// PreviousAttempts names the planners that already failed this request.
	PreviousAttempts []string
}

// Plan is the result of BuildPlan, plus a status so a planner can
// answer unsupported honestly.
type Plan struct {
	Status          Status `json:"status"` // PlanStatuses
	PlannerPluginID string `json:"plannerPluginId"`
	// SeedDetectorOrder orders the seed detectors; it is read from a plan
	// built on the question alone, before seed detection.
	SeedDetectorOrder []string `json:"seedDetectorOrder,omitempty"`
	KBPluginOrder     []string `json:"kbPluginOrder"`
	GoalSolverOrder   []string `json:"goalSolverOrder"`
	ValidatorOrder    []string `json:"validatorOrder,omitempty"`
	Decompose         bool     `json:"decompose"`
	FramePurpose      string   `json:"framePurpose,omitempty"` // empty: null
	Notes             []string `json:"notes"`
	Metadata          Metadata `json:"metadata"`
	Error             *Error   `json:"error,omitempty"`
}

// StageOutcome is one stage attempt of the Planner Outcome Schema.
type StageOutcome struct {
	PlannerPluginID string `json:"plannerPluginId"`
	Stage           string `json:"stage"` // LoopSeedDetector, LoopKB, LoopGoalSolver, LoopValidation
	PluginID        string `json:"pluginId"`
	Status          Status `json:"status"`
	DurationMs      int64  `json:"durationMs"`
	LLMCalls        int    `json:"llmCalls"`
	Sufficient      *bool  `json:"sufficient"`
	Model           string `json:"model,omitempty"`
	ModelRole       string `json:"modelRole,omitempty"`
}

// Outcome is the planner outcome (docs/contracts.md), given to RecordOutcome.
type Outcome struct {
	RequestID         string         `json:"requestId"`
	SessionID         string         `json:"sessionId"`
	PlannerPluginID   string         `json:"plannerPluginId"`
	PlannerAttempts   []string       `json:"plannerAttempts"`
	Stages            []StageOutcome `json:"stages"`
	FinalStatus       string         `json:"finalStatus"`       // "success" or "failure"
	FinalAnswerStatus string         `json:"finalAnswerStatus"` // "answered", "no-context" or empty
	FrameDepth        int            `json:"frameDepth"`
	FramePurpose      string         `json:"framePurpose,omitempty"`
}
