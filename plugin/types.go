package plugin

import "slices"

// PluginType is one of the five plugin families.
type PluginType string

// The plugin families.
const (
	TypeSD   PluginType = "sd-plugin"       // seed detection
	TypePlan PluginType = "mrp-plan-plugin" // planning
	TypeKB   PluginType = "kb-plugin"       // knowledge retrieval, ingest hooks
	TypeGS   PluginType = "gs-plugin"       // goal solving
	TypeVal  PluginType = "val-plugin"      // validation
)

// PluginTypes lists the families in the order of the VM loop.
var PluginTypes = []PluginType{TypeSD, TypePlan, TypeKB, TypeGS, TypeVal}

// Valid reports whether t is one of the five families.
func (t PluginType) Valid() bool { return slices.Contains(PluginTypes, t) }

// NeedsPlannerHints reports whether descriptors of this family must carry
// plannerHints (sd-, kb- and gs-plugins are planner-facing).
func (t PluginType) NeedsPlannerHints() bool { return t == TypeSD || t == TypeKB || t == TypeGS }

// Loop stage names (Planner Outcome Schema) and the family each runs.
const (
	LoopSeedDetector = "seed-detector"
	LoopPlanner      = "planner"
	LoopKB           = "kb"
	LoopGoalSolver   = "goal-solver"
	LoopValidation   = "validation"
)

// LoopStages lists the loop stages in order.
var LoopStages = []string{LoopSeedDetector, LoopPlanner, LoopKB, LoopGoalSolver, LoopValidation}

// TypeOfLoopStage returns the family a loop stage runs, or "".
func TypeOfLoopStage(stage string) PluginType {
	switch stage {
	case LoopSeedDetector:
		return TypeSD
	case LoopPlanner:
		return TypePlan
	case LoopKB:
		return TypeKB
	case LoopGoalSolver:
		return TypeGS
	case LoopValidation:
		return TypeVal
	}
	return ""
}

// CostClass values of a descriptor.
const (
	CostCheap     = "cheap"
	CostModerate  = "moderate"
	CostExpensive = "expensive"
)

// CostClasses lists the legal cost classes, cheapest first.
var CostClasses = []string{CostCheap, CostModerate, CostExpensive}

// Model roles a plugin may name in modelRoles.
const (
	RoleSeedFast   = "seed-fast"
	RoleSeedDeep   = "seed-deep"
	RoleGoalFast   = "goal-fast"
	RoleGoalDeep   = "goal-deep"
	RoleKBIngest   = "kb-ingest"
	RoleKBDerive   = "kb-derive"
	RoleValidation = "validation"
	RolePlanner    = "planner"
)

// ModelRoles lists the legal model roles.
var ModelRoles = []string{RoleSeedFast, RoleSeedDeep, RoleGoalFast, RoleGoalDeep, RoleKBIngest,
	RoleKBDerive, RoleValidation, RolePlanner}

// Depth values of plannerHints.preferredDepth.
var Depths = []string{"shallow", "medium", "deep"}

// Status is the outcome of a plugin call. Each family accepts a
// subset; see the result types. `unsupported` is accepted from every
// family: it is the weak, non-terminal outcome that lets the core
// move on to the next candidate.
type Status string

// Status values.
const (
	StatusSuccess            Status = "success"
	StatusUnsupported        Status = "unsupported"
	StatusError              Status = "error"
	StatusInsufficient       Status = "insufficient"
	StatusNoContext          Status = "no-context"
	StatusNeedsDecomposition Status = "needs-decomposition"
	StatusAccepted           Status = "accepted"
	StatusRejected           Status = "rejected"
	StatusSkipped            Status = "skipped"
	StatusSkippedBudget      Status = "skipped-budget" // recorded by the core, never returned by a plugin
)

// Statuses accepted from each call, by method name.
var (
	SeedStatuses      = []Status{StatusSuccess, StatusUnsupported, StatusError}
	NormalizeStatuses = []Status{StatusSuccess, StatusUnsupported, StatusError}
	RetrieveStatuses  = []Status{StatusSuccess, StatusInsufficient, StatusUnsupported, StatusError}
	HookStatuses      = []Status{StatusAccepted, StatusSkipped, StatusUnsupported, StatusError}
	SolveStatuses     = []Status{StatusSuccess, StatusNoContext, StatusNeedsDecomposition, StatusUnsupported, StatusError}
	ValidateStatuses  = []Status{StatusAccepted, StatusRejected, StatusUnsupported, StatusError}
	PlanStatuses      = []Status{StatusSuccess, StatusUnsupported, StatusError}
)

// In reports whether s is one of allowed.
func (s Status) In(allowed []Status) bool { return slices.Contains(allowed, s) }

// Weak reports whether s is a non-terminal outcome after which the core
// continues with the next candidate of the stage.
func (s Status) Weak() bool {
	return s == StatusUnsupported || s == StatusInsufficient || s == StatusNoContext || s == StatusSkipped
}
