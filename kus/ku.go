package kus

import "time"

// KU types.
const (
	TypeAtomic    = "atomic"
	TypeComposite = "composite"
	TypeAggregate = "aggregate"
)

// Retrieval levels of the hierarchy.
const (
	LevelSummary = "summary" // one per source (the source aggregate)
	LevelSection = "section" // section aggregates following the heading tree
	LevelLeaf    = "leaf"    // atomic or composite units grouping blocks
)

// Source types.
const (
	SourceMarkdown  = "markdown"
	SourcePlainText = "plain-text"
	SourceLegal     = "legal"
	SourceLiterary  = "literary"
	SourceTechnical = "technical"
	SourceChatTurn  = "chat-turn"
)

// Roles lists the legal KU roles.
var Roles = []string{"Comparison", "Explanation", "Procedure", "Definition", "Evaluation",
	"Diagnostic", "Constraint", "Narrative", "Description"}

// PhaseScopeValues lists the legal phase scopes; the default is kb-plugin.
var PhaseScopeValues = []string{"sd-plugin", "mrp-plan-plugin", "kb-plugin", "gs-plugin", "frame", "val-plugin"}

// Relations lists the relation atoms of symbolic facts.
var Relations = []string{"uses", "provides", "has_capability", "depends_on", "part_of",
	"instance_of", "relevant_for", "supports", "mentions", "about", "causes"}

// Acts lists the utility acts (also the intent acts of SOP Lang).
var Acts = []string{"compare", "explain", "recommend", "diagnose", "implement", "verify",
	"define", "evaluate", "identify", "describe"}

// Range is a KU's position in its file. Lines and columns are 1-based;
// EndLine is inclusive and EndCol is the column just past the last byte.
type Range struct {
	StartLine int `json:"startLine"`
	StartCol  int `json:"startCol"`
	EndLine   int `json:"endLine"`
	EndCol    int `json:"endCol"`
}

// KU is one Knowledge Unit with every field of the contract (docs/contracts.md) plus what an editor needs.
type KU struct {
	// Identity.
	ID     string `json:"id"`
	KUType string `json:"kuType"`
	Level  string `json:"level"`

	// Content.
	Title     string   `json:"title"`
	Role      string   `json:"role"`
	Topic     string   `json:"topic"`
	Claim     string   `json:"claim,omitempty"`
	Procedure string   `json:"procedure,omitempty"`
	Condition string   `json:"condition,omitempty"`
	TextBody  string   `json:"textBody,omitempty"`
	Tags      []string `json:"tags,omitempty"`

	// Symbolic fact (atomic only, all or nothing).
	SymbolicSubject  string   `json:"symbolicSubject,omitempty"`
	SymbolicRelation string   `json:"symbolicRelation,omitempty"`
	SymbolicObject   string   `json:"symbolicObject,omitempty"`
	Confidence       *float64 `json:"confidence,omitempty"`

	// Hierarchy.
	ParentUnitIDs      []string `json:"parentUnitIds,omitempty"`
	ChildUnitIDs       []string `json:"childUnitIds,omitempty"`
	DerivedFromUnitIDs []string `json:"derivedFromUnitIds,omitempty"`

	// Provenance.
	SourceID   string    `json:"sourceId"`
	SourceName string    `json:"sourceName"`
	SourceType string    `json:"sourceType"`
	ChunkID    string    `json:"chunkId"`
	ChunkIndex int       `json:"chunkIndex"`
	UnitIndex  int       `json:"unitIndex"`
	CharStart  int       `json:"charStart"`
	CharEnd    int       `json:"charEnd"`
	IngestedAt time.Time `json:"ingestedAt"`
	Range      Range     `json:"range"`

	// Utility.
	UtilityActs []string `json:"utilityActs,omitempty"`
	PhaseScopes []string `json:"phaseScopes,omitempty"`
	UtilityNote string   `json:"utilityNote,omitempty"`

	// Integrity: hex SHA-256 of the KU's content fields.
	Hash string `json:"hash"`
}

// HasFact reports whether the KU carries a complete symbolic fact.
func (k *KU) HasFact() bool {
	return k.SymbolicSubject != "" && k.SymbolicRelation != "" && k.SymbolicObject != ""
}

// Text returns the KU's main statement: the claim, else the procedure, else the body.
func (k *KU) Text() string {
	switch {
	case k.Claim != "":
		return k.Claim
	case k.Procedure != "":
		return k.Procedure
	default:
		return k.TextBody
	}
}

// SourceInfo describes the source a document is read from.
type SourceInfo struct {
	SourceID   string    `json:"sourceId"`             // workspace-relative path with forward slashes, or plugin::<id>
	SourceName string    `json:"sourceName,omitempty"` // a display name, usually the file's base name
	SourceType string    `json:"sourceType,omitempty"` // one of the Source* constants; markdown when empty
	IngestedAt time.Time `json:"ingestedAt,omitzero"`  // stamped on every KU
}

// Severity of a Diagnostic.
type Severity int

// Diagnostic severities, numbered as in LSP.
const (
	SeverityError   Severity = 1
	SeverityWarning Severity = 2
	SeverityInfo    Severity = 3
	SeverityHint    Severity = 4
)

// Diagnostic is a problem found while reading a source, with a stable code.
type Diagnostic struct {
	Line     int      `json:"line"` // 1-based
	Col      int      `json:"col"`  // 1-based
	EndLine  int      `json:"endLine,omitempty"`
	EndCol   int      `json:"endCol,omitempty"`
	Severity Severity `json:"severity"`
	Code     string   `json:"code"`
	Message  string   `json:"message"`
}

// Document is the result of reading one source: its KUs in document order
// (the source summary first) and any diagnostics.
type Document struct {
	Source      SourceInfo   `json:"source"`
	Title       string       `json:"title"`
	Tags        []string     `json:"tags,omitempty"`
	Units       []*KU        `json:"units"`
	Diagnostics []Diagnostic `json:"diagnostics,omitempty"`
}
