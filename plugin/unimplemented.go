package plugin

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// The Unimplemented* types answer every method of one family honestly with
// StatusUnsupported and CodeNotImplemented. A plugin embeds the one of its
// family and overrides the methods it implements, so a method it has not
// written yet can never report a fake success. Ingest and session hooks
// answer StatusSkipped: doing nothing with a notification is not a failure.

// UnimplementedSD is embedded by sd-plugins.
type UnimplementedSD struct{ ID string }

// DetectSeeds answers unsupported.
func (u UnimplementedSD) DetectSeeds(ctx context.Context, rc RunContext, in *SeedInput) (*SeedResult, error) {
	return &SeedResult{Status: StatusUnsupported, Error: NotImplemented(u.ID, "detectSeeds")}, nil
}

// NormalizePersistentContext answers unsupported.
func (u UnimplementedSD) NormalizePersistentContext(ctx context.Context, rc RunContext, in *NormalizeInput) (*NormalizeResult, error) {
	return &NormalizeResult{Status: StatusUnsupported, Error: NotImplemented(u.ID, "normalizePersistentContext")}, nil
}

// UnimplementedPlan is embedded by mrp-plan-plugins.
type UnimplementedPlan struct{ ID string }

// BuildPlan answers unsupported.
func (u UnimplementedPlan) BuildPlan(ctx context.Context, rc RunContext, in *PlanInput) (*Plan, error) {
	return &Plan{Status: StatusUnsupported, PlannerPluginID: u.ID, KBPluginOrder: []string{},
		GoalSolverOrder: []string{}, Notes: []string{}, Error: NotImplemented(u.ID, "buildPlan")}, nil
}

// RecordOutcome learns nothing and says so.
func (u UnimplementedPlan) RecordOutcome(ctx context.Context, rc RunContext, o *Outcome) error {
	return NotImplemented(u.ID, "recordOutcome")
}

// UnimplementedKB is embedded by kb-plugins.
type UnimplementedKB struct{ ID string }

// Retrieve answers unsupported.
func (u UnimplementedKB) Retrieve(ctx context.Context, rc RunContext, in *RetrieveInput) (*RetrieveResult, error) {
	return &RetrieveResult{Status: StatusUnsupported, ResolvedIntents: []ResolvedIntent{},
		RetrievalTrace: RetrievalTrace{Purpose: purposeOf(in), KULevelsUsed: []string{}},
		Error:          NotImplemented(u.ID, "retrieve")}, nil
}

// OnSourceText indexes nothing.
func (u UnimplementedKB) OnSourceText(ctx context.Context, rc RunContext, st *SourceText) (*SourceTextResult, error) {
	return &SourceTextResult{Status: StatusSkipped, Artifacts: []map[string]any{}}, nil
}

// OnSessionEvent ignores the event.
func (u UnimplementedKB) OnSessionEvent(ctx context.Context, rc RunContext, ev *SessionEvent) (*SessionEventResult, error) {
	return &SessionEventResult{Status: StatusSkipped}, nil
}

func purposeOf(in *RetrieveInput) string {
	if in == nil || in.Purpose == "" {
		return PurposeTaskEvidence
	}
	return in.Purpose
}

// UnimplementedGS is embedded by gs-plugins.
type UnimplementedGS struct{ ID string }

// Solve answers unsupported.
func (u UnimplementedGS) Solve(ctx context.Context, rc RunContext, in *SolveInput) (*SolveResult, error) {
	return &SolveResult{Status: StatusUnsupported, Error: NotImplemented(u.ID, "solve")}, nil
}

// UnimplementedVal is embedded by val-plugins.
type UnimplementedVal struct{ ID string }

// Validate answers unsupported: it neither accepts nor rejects.
func (u UnimplementedVal) Validate(ctx context.Context, rc RunContext, in *ValidateInput) (*ValidateResult, error) {
	return &ValidateResult{Status: StatusUnsupported, Reason: "validation is not implemented yet",
		Error: NotImplemented(u.ID, "validate")}, nil
}

// DecodeOptions decodes a plugin's options object into the struct dst
// points to, strictly: keys match exactly, and unknown keys or values of
// the wrong type fail with CodeOptionsInvalid. Empty or null options leave
// dst unchanged (its defaults).
func DecodeOptions(raw json.RawMessage, dst any) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil
	}
	if raw[0] != '{' {
		return &Error{Code: CodeOptionsInvalid, Message: "options must be a JSON object"}
	}
	extra, err := decodeExtra(raw, dst, CodeOptionsInvalid)
	if err != nil {
		return &Error{Code: CodeOptionsInvalid, Message: "options: " + err.Error()}
	}
	if len(extra) > 0 {
		keys := make([]string, 0, len(extra))
		for k := range extra {
			keys = append(keys, strconv.Quote(k))
		}
		slices.Sort(keys)
		return &Error{Code: CodeOptionsInvalid, Message: fmt.Sprintf("options: unknown key %s", strings.Join(keys, ", "))}
	}
	return nil
}

// Base carries a plugin's descriptor; built-ins embed it for Descriptor().
type Base struct{ desc Descriptor }

// Setup is the common start of a plugin factory: it parses the embedded
// descriptor, decodes the plugins.json options over opts (which holds the
// defaults; unknown keys are an error) and runs check on the result.
func Setup[O any](pluginJSON []byte, raw json.RawMessage, opts *O, check func(*O) error) (Base, error) {
	base, err := NewBase(pluginJSON)
	if err != nil {
		return Base{}, err
	}
	if err := DecodeOptions(raw, opts); err != nil {
		return Base{}, err
	}
	if check != nil {
		if err := check(opts); err != nil {
			return Base{}, err
		}
	}
	return base, nil
}

// NewBase parses and validates an embedded plugin.json.
func NewBase(pluginJSON []byte) (Base, error) {
	d, errs := ParseDescriptor(pluginJSON, "plugin.json")
	if len(errs) > 0 {
		return Base{}, errs[0]
	}
	return Base{desc: *d}, nil
}

// Descriptor returns a copy of the descriptor.
func (b Base) Descriptor() Descriptor { return b.desc.Clone() }

// PluginID returns the plugin id.
func (b Base) PluginID() string { return b.desc.ID }
