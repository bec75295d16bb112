package plugin

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/mrpvm/mrpvm/kus"
)

// Descriptor is the common plugin descriptor (docs/contracts.md). JSON names are those
// of the seed. Keys it does not know are kept in Extra and written back, so
// a descriptor read and written again loses nothing.
type Descriptor struct {
	ID           string        `json:"id"`
	Type         PluginType    `json:"type"`
	Name         string        `json:"name"`
	Version      string        `json:"version"`
	Description  string        `json:"description"`
	CostClass    string        `json:"costClass"`
	UsesLLM      bool          `json:"usesLLM"`
	ModelRoles   []string      `json:"modelRoles"`
	MaxLLMCalls  int           `json:"maxLLMCalls"`
	Tags         []string      `json:"tags"`
	TimeoutMs    int           `json:"timeoutMs"`
	PlannerHints *PlannerHints `json:"plannerHints,omitempty"`
	Provides     []string      `json:"provides"`
	Accepts      []string      `json:"accepts"`

	// Extra holds the keys this version does not know, as read.
	Extra map[string]json.RawMessage `json:"-"`
}

// PlannerHints are the cost/performance priors a planner uses before it has
// learned from outcomes.
type PlannerHints struct {
	ExpectedLatencyMs     int      `json:"expectedLatencyMs"`
	ExpectedLLMCalls      int      `json:"expectedLLMCalls"`
	RelativeCost          float64  `json:"relativeCost"`
	SupportedActs         []string `json:"supportedActs"`
	TopicTags             []string `json:"topicTags"`
	PreferredDepth        string   `json:"preferredDepth,omitempty"`
	FallbackRole          string   `json:"fallbackRole,omitempty"`
	ConfidenceWhenMatched float64  `json:"confidenceWhenMatched"`

	Extra map[string]json.RawMessage `json:"-"`
}

type plainDescriptor Descriptor
type plainHints PlannerHints

// UnmarshalJSON decodes a descriptor, keeping unknown keys. Values of the
// wrong type are reported together as FieldErrors (code
// descriptor_bad_field); the other fields are still decoded.
func (d *Descriptor) UnmarshalJSON(b []byte) error {
	var p plainDescriptor
	extra, err := decodeExtra(b, &p, CodeDescriptorBadField)
	p.Extra = extra
	*d = Descriptor(p)
	return err
}

// MarshalJSON writes the known fields (lists as [] rather than null) and
// then the preserved unknown keys in key order.
func (d Descriptor) MarshalJSON() ([]byte, error) {
	p := plainDescriptor(d)
	p.ModelRoles = nonNil(p.ModelRoles)
	p.Tags = nonNil(p.Tags)
	p.Provides = nonNil(p.Provides)
	p.Accepts = nonNil(p.Accepts)
	return encodeExtra(p, d.Extra)
}

// UnmarshalJSON decodes plannerHints, keeping unknown keys.
func (h *PlannerHints) UnmarshalJSON(b []byte) error {
	var p plainHints
	extra, err := decodeExtra(b, &p, CodeDescriptorBadField)
	p.Extra = extra
	*h = PlannerHints(p)
	return err
}

// MarshalJSON writes plannerHints with its unknown keys.
func (h PlannerHints) MarshalJSON() ([]byte, error) {
	p := plainHints(h)
	p.SupportedActs = nonNil(p.SupportedActs)
	p.TopicTags = nonNil(p.TopicTags)
	return encodeExtra(p, h.Extra)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// Clone returns a deep copy, so a registry can hand descriptors out without
// sharing slices or maps.
func (d Descriptor) Clone() Descriptor {
	c := d
	c.ModelRoles = slices.Clone(d.ModelRoles)
	c.Tags = slices.Clone(d.Tags)
	c.Provides = slices.Clone(d.Provides)
	c.Accepts = slices.Clone(d.Accepts)
	c.Extra = cloneExtra(d.Extra)
	if d.PlannerHints != nil {
		h := *d.PlannerHints
		h.SupportedActs = slices.Clone(h.SupportedActs)
		h.TopicTags = slices.Clone(h.TopicTags)
		h.Extra = cloneExtra(h.Extra)
		c.PlannerHints = &h
	}
	return c
}

// ParseDescriptor decodes and validates a plugin.json. file names the
// source in errors; every error carries the line and column of the key at
// fault. The descriptor is nil only when the text is not a JSON object.
func ParseDescriptor(data []byte, file string) (*Descriptor, []*PluginError) {
	loc := NewLocator(data, file)
	if pe := loc.Syntax(CodeDescriptorSyntax); pe != nil {
		return nil, []*PluginError{pe}
	}
	trimmed := strings.TrimSpace(string(data))
	if !strings.HasPrefix(trimmed, "{") {
		pe := &PluginError{Code: CodeDescriptorSyntax, Stage: StageLoad, Message: "a descriptor must be a JSON object"}
		loc.Place(pe)
		return nil, []*PluginError{pe}
	}
	var d Descriptor
	var errs []*PluginError
	if err := json.Unmarshal(data, &d); err != nil {
		if fe, ok := err.(FieldErrors); ok {
			errs = append(errs, fe...)
		} else {
			errs = append(errs, &PluginError{Code: CodeDescriptorBadField, Stage: StageLoad, Message: err.Error()})
		}
	}
	errs = append(errs, d.Validate()...)
	for _, e := range errs {
		e.ID = d.ID
		loc.Place(e)
	}
	return &d, errs
}

var (
	idPattern      = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)
	versionPattern = regexp.MustCompile(`^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.+-]+)?$`)
)

// MaxDescriptionLen bounds a description; the contract asks for 1-3 sentences.
const MaxDescriptionLen = 400

// Validate checks the descriptor rules and returns every problem found, each with
// a stable code and the dotted field name. Stage is validate.
func (d *Descriptor) Validate() []*PluginError {
	var errs []*PluginError
	add := func(code, field, format string, args ...any) {
		errs = append(errs, &PluginError{ID: d.ID, Stage: StageValidate, Code: code, Field: field,
			Message: fmt.Sprintf(format, args...)})
	}
	switch {
	case d.ID == "":
		add(CodeDescriptorMissingID, "id", "id is required")
	case !idPattern.MatchString(d.ID):
		add(CodeDescriptorBadID, "id", "id %q must be 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit", d.ID)
	}
	switch {
	case d.Type == "":
		add(CodeDescriptorMissingType, "type", "type is required (one of %s)", typeList())
	case !d.Type.Valid():
		add(CodeDescriptorBadType, "type", "type %q is not one of %s", d.Type, typeList())
	}
	if d.Version != "" && !versionPattern.MatchString(d.Version) {
		add(CodeDescriptorBadVersion, "version", "version %q is not a semantic version (1.2.3)", d.Version)
	}
	desc := strings.TrimSpace(d.Description)
	switch n := SentenceCount(desc); {
	case desc == "":
		add(CodeDescriptorMissingDesc, "description", "description is required: 1-3 sentences on what the plugin does and when to use it")
	case n > 3:
		add(CodeDescriptorBadDesc, "description", "description has %d sentences; a description is 1-3 sentences", n)
	case len(desc) > MaxDescriptionLen:
		add(CodeDescriptorBadDesc, "description", "description is %d bytes; keep it under %d", len(desc), MaxDescriptionLen)
	}
	switch {
	case d.CostClass == "":
		add(CodeDescriptorMissingCost, "costClass", "costClass is required (one of %s)", strings.Join(CostClasses, ", "))
	case !slices.Contains(CostClasses, d.CostClass):
		add(CodeDescriptorBadCost, "costClass", "costClass %q is not one of %s", d.CostClass, strings.Join(CostClasses, ", "))
	}
	switch {
	case d.MaxLLMCalls < 0:
		add(CodeDescriptorBadMaxLLMCalls, "maxLLMCalls", "maxLLMCalls must not be negative")
	case !d.UsesLLM && d.MaxLLMCalls != 0:
		add(CodeDescriptorBadMaxLLMCalls, "maxLLMCalls", "maxLLMCalls is %d but usesLLM is false; it must be 0", d.MaxLLMCalls)
	case d.UsesLLM && d.MaxLLMCalls < 1:
		add(CodeDescriptorBadMaxLLMCalls, "maxLLMCalls", "usesLLM is true, so maxLLMCalls must be a bound of at least 1")
	}
	if !d.UsesLLM && len(d.ModelRoles) > 0 {
		add(CodeDescriptorBadModelRole, "modelRoles", "modelRoles are given but usesLLM is false")
	}
	for i, r := range d.ModelRoles {
		if !slices.Contains(ModelRoles, r) {
			add(CodeDescriptorBadModelRole, fmt.Sprintf("modelRoles.%d", i), "model role %q is not one of %s", r, strings.Join(ModelRoles, ", "))
		}
	}
	if d.TimeoutMs < 0 {
		add(CodeDescriptorBadTimeout, "timeoutMs", "timeoutMs must not be negative")
	}
	for _, l := range []struct {
		field string
		vals  []string
	}{{"tags", d.Tags}, {"provides", d.Provides}, {"accepts", d.Accepts}, {"modelRoles", d.ModelRoles}} {
		seen := map[string]bool{}
		for i, v := range l.vals {
			switch {
			case strings.TrimSpace(v) == "":
				add(CodeDescriptorBadList, fmt.Sprintf("%s.%d", l.field, i), "%s has an empty entry", l.field)
			case seen[v]:
				add(CodeDescriptorBadList, fmt.Sprintf("%s.%d", l.field, i), "%s lists %q twice", l.field, v)
			}
			seen[v] = true
		}
	}
	if d.PlannerHints == nil {
		if d.Type.NeedsPlannerHints() {
			add(CodeDescriptorMissingHints, "plannerHints", "plannerHints are required for %s", d.Type)
		}
		return errs
	}
	h := d.PlannerHints
	hint := func(field, format string, args ...any) {
		add(CodeDescriptorBadHint, "plannerHints."+field, format, args...)
	}
	if h.ExpectedLatencyMs < 0 {
		hint("expectedLatencyMs", "expectedLatencyMs must not be negative")
	}
	switch {
	case h.ExpectedLLMCalls < 0:
		hint("expectedLLMCalls", "expectedLLMCalls must not be negative")
	case h.ExpectedLLMCalls > d.MaxLLMCalls:
		hint("expectedLLMCalls", "expectedLLMCalls (%d) exceeds maxLLMCalls (%d)", h.ExpectedLLMCalls, d.MaxLLMCalls)
	}
	if h.RelativeCost < 0 || h.RelativeCost > 1 {
		hint("relativeCost", "relativeCost %g is outside [0, 1]", h.RelativeCost)
	}
	if h.ConfidenceWhenMatched < 0 || h.ConfidenceWhenMatched > 1 {
		hint("confidenceWhenMatched", "confidenceWhenMatched %g is outside [0, 1]", h.ConfidenceWhenMatched)
	}
	if h.PreferredDepth != "" && !slices.Contains(Depths, h.PreferredDepth) {
		hint("preferredDepth", "preferredDepth %q is not one of %s", h.PreferredDepth, strings.Join(Depths, ", "))
	}
	for i, a := range h.SupportedActs {
		if !slices.Contains(kus.Acts, a) {
			hint(fmt.Sprintf("supportedActs.%d", i), "act %q is not one of %s", a, strings.Join(kus.Acts, ", "))
		}
	}
	return errs
}

func typeList() string {
	s := make([]string, len(PluginTypes))
	for i, t := range PluginTypes {
		s[i] = string(t)
	}
	return strings.Join(s, ", ")
}

// abbreviations whose period does not end a sentence.
var abbreviations = []string{"e.g", "i.e", "etc", "vs", "cf", "approx", "incl", "resp", "Dr", "Mr", "Ms", "No"}

// SentenceCount counts the sentences of a short text: runs ending in '.',
// '!' or '?' followed by white space or the end, ignoring common
// abbreviations and periods inside words or numbers (v1.2, e.g.).
func SentenceCount(s string) int {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0
	}
	n := 0
	r := []rune(s)
	for i, c := range r {
		if c != '.' && c != '!' && c != '?' {
			continue
		}
		if i+1 < len(r) && !unicode.IsSpace(r[i+1]) {
			continue
		}
		if c == '.' && isAbbrev(string(r[:i])) {
			continue
		}
		n++
	}
	if last := r[len(r)-1]; last != '.' && last != '!' && last != '?' {
		n++ // trailing text without a final stop
	}
	return n
}

func isAbbrev(before string) bool {
	j := strings.LastIndexFunc(before, func(r rune) bool { return unicode.IsSpace(r) || r == '(' })
	word := before[j+1:]
	for _, a := range abbreviations {
		if strings.EqualFold(word, a) {
			return true
		}
	}
	return false
}
