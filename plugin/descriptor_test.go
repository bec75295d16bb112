package plugin

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// want is one expected problem: its code and the line the key sits on.
type want struct {
	code  string
	line  int
	field string
}

func TestParseDescriptor(t *testing.T) {
	cases := []struct {
		file string
		want []want
	}{
		{"valid.json", nil},
		{"missing_id.json", []want{{CodeDescriptorMissingID, 1, "id"}}},
		{"bad_type.json", []want{{CodeDescriptorBadType, 3, "type"}}},
		{"missing_type.json", []want{{CodeDescriptorMissingType, 1, "type"}}},
		{"llm_bounds.json", []want{{CodeDescriptorBadMaxLLMCalls, 8, "maxLLMCalls"}}},
		{"no_llm_bounds.json", []want{
			{CodeDescriptorBadMaxLLMCalls, 8, "maxLLMCalls"},
			{CodeDescriptorBadModelRole, 7, "modelRoles"},
		}},
		{"long_description.json", []want{{CodeDescriptorBadDesc, 4, "description"}}},
		{"missing_hints.json", []want{{CodeDescriptorMissingHints, 1, "plannerHints"}}},
		{"bad_hints.json", []want{
			{CodeDescriptorBadCost, 5, "costClass"},
			{CodeDescriptorBadHint, 7, "plannerHints.expectedLatencyMs"},
			{CodeDescriptorBadHint, 8, "plannerHints.expectedLLMCalls"},
			{CodeDescriptorBadHint, 9, "plannerHints.relativeCost"},
			{CodeDescriptorBadHint, 10, "plannerHints.supportedActs.1"},
			{CodeDescriptorBadHint, 12, "plannerHints.preferredDepth"},
		}},
		{"wrong_types.json", []want{
			{CodeDescriptorBadField, 10, "plannerHints.relativeCost"},
			{CodeDescriptorBadField, 7, "timeoutMs"},
			{CodeDescriptorBadField, 6, "usesLLM"},
		}},
		{"truncated.json", []want{{CodeDescriptorSyntax, 4, ""}}},
		{"not_object.json", []want{{CodeDescriptorSyntax, 1, ""}}},
		{"empty.json", []want{{CodeDescriptorSyntax, 1, ""}}},
	}
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			path := filepath.Join("testdata", "descriptors", tc.file)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			_, errs := ParseDescriptor(data, path)
			var got []want
			for _, e := range errs {
				if e.File != path {
					t.Errorf("error %v names file %q, want %q", e, e.File, path)
				}
				got = append(got, want{e.Code, e.Line, e.Field})
			}
			sortWant(got)
			exp := slices.Clone(tc.want)
			sortWant(exp)
			if !reflect.DeepEqual(got, exp) {
				t.Errorf("got %+v\nwant %+v\nerrors: %v", got, exp, errs)
			}
		})
	}
}

func sortWant(w []want) {
	slices.SortFunc(w, func(a, b want) int { return strings.Compare(a.code+a.field, b.code+b.field) })
}

func TestDescriptorRoundTripKeepsUnknownKeys(t *testing.T) {
	data, err := os.ReadFile("testdata/descriptors/valid.json")
	if err != nil {
		t.Fatal(err)
	}
	var d Descriptor
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatal(err)
	}
	if d.ID != "kb-balanced" || d.PlannerHints == nil || d.PlannerHints.RelativeCost != 0.22 {
		t.Fatalf("decoded %+v", d)
	}
	if len(d.Extra) != 2 || len(d.PlannerHints.Extra) != 1 {
		t.Fatalf("extra keys: %v / %v", d.Extra, d.PlannerHints.Extra)
	}
	out, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	// Same JSON value as the input, key for key.
	var a, b any
	if err := json.Unmarshal(data, &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(out, &b); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Errorf("round trip changed the descriptor:\n in: %s\nout: %s", data, out)
	}
	// A clone shares nothing.
	c := d.Clone()
	c.Tags[0] = "changed"
	c.PlannerHints.SupportedActs[0] = "changed"
	c.Extra["homepage"][1] = 'X'
	if d.Tags[0] != "builtin" || d.PlannerHints.SupportedActs[0] != "compare" || bytes.Contains(d.Extra["homepage"], []byte("X")) {
		t.Error("Clone shares memory with the original")
	}
}

func TestDescriptorExactKeys(t *testing.T) {
	// "ID" is not "id": it must stay an unknown key and id stays missing.
	var d Descriptor
	if err := json.Unmarshal([]byte(`{"ID":"x","type":"kb-plugin"}`), &d); err != nil {
		t.Fatal(err)
	}
	if d.ID != "" || string(d.Extra["ID"]) != `"x"` {
		t.Errorf("got id %q extra %v", d.ID, d.Extra)
	}
	out, _ := json.Marshal(d)
	if !bytes.Contains(out, []byte(`"ID":"x"`)) || !bytes.Contains(out, []byte(`"modelRoles":[]`)) {
		t.Errorf("marshal: %s", out)
	}
}

func TestSentenceCount(t *testing.T) {
	cases := []struct {
		in   string
		want int
	}{
		{"", 0},
		{"One sentence.", 1},
		{"No final stop", 1},
		{"Uses BM25 (DS009) e.g. for v1.2 notes. Cheap!", 2},
		{"One. Two? Three! Four.", 4},
		{"Lexical + associative retrieval with diversity-aware reranking. Recommended default for moderate-complexity questions.", 2},
	}
	for _, c := range cases {
		if got := SentenceCount(c.in); got != c.want {
			t.Errorf("SentenceCount(%q) = %d, want %d", c.in, got, c.want)
		}
	}
}

func TestPluginErrorFormat(t *testing.T) {
	e := &PluginError{File: "a/plugin.json", Line: 3, Col: 5, Code: CodeDescriptorBadType, Message: "bad", ID: "x", Stage: StageValidate}
	if got, want := e.Error(), "a/plugin.json:3:5: descriptor_bad_type: bad (plugin x, stage validate)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := ErrorOf(e); got.Code != CodeDescriptorBadType {
		t.Errorf("ErrorOf code %q", got.Code)
	}
}
