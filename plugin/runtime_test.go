package plugin

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/mrpvm/mrpvm/kus"
)

func TestModelSettingsResolve(t *testing.T) {
	temp := func(f float64) *float64 { return &f }
	ms := ModelSettings{
		Default:         RoleSetting{Model: "base", BaseURL: "http://localhost:11434/v1", Temperature: temp(0.2), MaxTokens: 1024},
		Request:         RoleSetting{Model: "session-model"},
		Roles:           map[string]RoleSetting{RoleGoalDeep: {Model: "deep", MaxTokens: 2000}, RoleGoalFast: {Temperature: temp(0)}},
		PluginOverrides: map[string]RoleSetting{"gs-llm-deep": {Model: "override"}},
	}
	cases := []struct {
		plugin, role string
		model        string
		maxTokens    int
		temperature  float64
	}{
		{"gs-llm-deep", RoleGoalDeep, "override", 2000, 0.2}, // plugin override beats role
		{"other", RoleGoalDeep, "deep", 2000, 0.2},           // role beats request
		{"other", RoleGoalFast, "session-model", 1024, 0},    // request beats default; a zero temperature is a setting
		{"other", "unknown-role", "session-model", 1024, 0.2},
	}
	for _, c := range cases {
		s := ms.Resolve(c.plugin, c.role)
		if s.Model != c.model || s.MaxTokens != c.maxTokens || s.Temperature == nil || *s.Temperature != c.temperature {
			t.Errorf("Resolve(%s, %s) = %+v (temperature %v)", c.plugin, c.role, s, *s.Temperature)
		}
	}
	if !ms.Configured("x", RoleGoalFast) || (ModelSettings{}).Configured("x", RoleGoalFast) {
		t.Error("Configured")
	}
	// Resolving must not alias the settings' temperature.
	s := ms.Resolve("x", RoleGoalFast)
	*s.Temperature = 9
	if *ms.Roles[RoleGoalFast].Temperature != 0 {
		t.Error("Resolve returned a pointer into the settings")
	}
}

func TestPayload(t *testing.T) {
	k := &kus.KU{ID: "notes/a.md::0::1", SourceID: "notes/a.md", Topic: "BM25", Claim: "BM25 ranks by term frequency.",
		Range: kus.Range{StartLine: 12}}
	p := Payload{Prompt: "What is BM25?", Context: ContextOf([]*kus.KU{k, nil})}
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"prompt":"What is BM25?","context":[{"title":"BM25","sourceLink":"notes/a.md:12#notes/a.md::0::1","text":"BM25 ranks by term frequency."}]}`
	if string(b) != want {
		t.Errorf("payload JSON\n got %s\nwant %s", b, want)
	}
	if b, _ := json.Marshal(Payload{Prompt: "x"}); string(b) != `{"prompt":"x","context":[]}` {
		t.Errorf("empty context: %s", b)
	}
	if err := (&Payload{Context: []ContextItem{{}}}).Validate(); err == nil || !strings.Contains(err.Error(), "prompt") || !strings.Contains(err.Error(), "context[0]") {
		t.Errorf("Validate: %v", err)
	}
}

func TestDecodeOptions(t *testing.T) {
	type opts struct {
		MaxResults int     `json:"maxResults"`
		MinScore   float64 `json:"minScore"`
	}
	cases := []struct {
		raw  string
		want opts
		err  string
	}{
		{``, opts{3, 0.3}, ""},
		{`null`, opts{3, 0.3}, ""},
		{`{"maxResults": 5}`, opts{5, 0.3}, ""},
		{`{"MaxResults": 5}`, opts{}, `unknown key "MaxResults"`},
		{`{"maxResults": "5"}`, opts{}, "expected an integer"},
		{`[1]`, opts{}, "must be a JSON object"},
	}
	for _, c := range cases {
		o := opts{3, 0.3}
		err := DecodeOptions(json.RawMessage(c.raw), &o)
		if c.err == "" {
			if err != nil || o != c.want {
				t.Errorf("%s: %+v %v", c.raw, o, err)
			}
			continue
		}
		var e *Error
		if !errors.As(err, &e) || e.Code != CodeOptionsInvalid || !strings.Contains(e.Message, c.err) {
			t.Errorf("%s: %v, want %s with %q", c.raw, err, CodeOptionsInvalid, c.err)
		}
	}
}

func TestStatusSets(t *testing.T) {
	// Every family accepts unsupported; only the core records skipped-budget.
	for name, set := range map[string][]Status{"seed": SeedStatuses, "normalize": NormalizeStatuses, "retrieve": RetrieveStatuses,
		"hook": HookStatuses, "solve": SolveStatuses, "validate": ValidateStatuses, "plan": PlanStatuses} {
		if !StatusUnsupported.In(set) {
			t.Errorf("%s does not accept unsupported", name)
		}
		if StatusSkippedBudget.In(set) {
			t.Errorf("%s accepts skipped-budget from a plugin", name)
		}
	}
	if StatusAccepted.In(SolveStatuses) || StatusSuccess.In(ValidateStatuses) {
		t.Error("status sets mix families")
	}
	if got := ErrorOf(fmt.Errorf("wrapped: %w", NotImplemented("x", "solve"))); got.Code != CodeNotImplemented {
		t.Errorf("ErrorOf unwraps: %v", got)
	}
}
