package plugins

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mrpvm/mrpvm/plugin"
)

// fake plugins of each family, with a settable descriptor.
type fakeGS struct {
	plugin.UnimplementedGS
	d plugin.Descriptor
}

func (f *fakeGS) Descriptor() plugin.Descriptor { return f.d }

type fakeKB struct {
	plugin.UnimplementedKB
	d plugin.Descriptor
}

func (f *fakeKB) Descriptor() plugin.Descriptor { return f.d }

// bare implements no family.
type bare struct{ d plugin.Descriptor }

func (b *bare) Descriptor() plugin.Descriptor { return b.d }

func desc(id string, t plugin.PluginType) plugin.Descriptor {
	return plugin.Descriptor{ID: id, Type: t, Name: id, Version: "1.0.0", Description: "A test plugin.", CostClass: plugin.CostCheap,
		PlannerHints: &plugin.PlannerHints{RelativeCost: 0.1, ConfidenceWhenMatched: 0.5}}
}

func TestRegister(t *testing.T) {
	r := NewRegistry()
	gs := &fakeGS{d: desc("gs-a", plugin.TypeGS)}
	kb := &fakeKB{d: desc("kb-a", plugin.TypeKB)}
	kb2 := &fakeKB{d: desc("kb-b", plugin.TypeKB)}
	for _, p := range []plugin.Plugin{kb2, gs, kb} {
		if err := r.RegisterRef(p, "ref:"+p.Descriptor().ID); err != nil {
			t.Fatalf("register %s: %v", p.Descriptor().ID, err)
		}
	}
	noHints := desc("gs-b", plugin.TypeGS)
	noHints.PlannerHints = nil

	cases := []struct {
		name string
		p    plugin.Plugin
		code string
	}{
		{"unknown type", &bare{d: desc("x", "helper-plugin")}, plugin.CodeUnknownPluginType},
		{"empty type", &bare{d: desc("x", "")}, plugin.CodeUnknownPluginType},
		{"type mismatch", &fakeKB{d: desc("x", plugin.TypeGS)}, plugin.CodePluginTypeMismatch},
		{"duplicate id same type", &fakeGS{d: desc("gs-a", plugin.TypeGS)}, plugin.CodeDuplicatePluginID},
		{"duplicate id other type", &fakeKB{d: desc("gs-a", plugin.TypeKB)}, plugin.CodeDuplicatePluginID},
		{"invalid descriptor", &fakeGS{d: noHints}, plugin.CodeDescriptorMissingHints},
		{"missing id", &fakeGS{d: desc("", plugin.TypeGS)}, plugin.CodeDescriptorMissingID},
		{"nil", nil, plugin.CodePluginTypeMismatch},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := r.RegisterRef(tc.p, "ref:new")
			var pe *plugin.PluginError
			if !errors.As(err, &pe) {
				t.Fatalf("got %v, want a PluginError", err)
			}
			if pe.Code != tc.code || pe.Stage != plugin.StageRegister || pe.Ref != "ref:new" {
				t.Errorf("got %+v, want code %s, stage register, ref", pe, tc.code)
			}
		})
	}
	if r.Len() != 3 {
		t.Errorf("%d plugins after rejected registrations, want 3", r.Len())
	}

	if r.Get(plugin.TypeGS, "gs-a") != gs || r.Get(plugin.TypeKB, "gs-a") != nil || r.Get(plugin.TypeGS, "nope") != nil {
		t.Error("Get by type and id")
	}
	if p, ok := r.KB("kb-a"); !ok || p != kb {
		t.Error("KB accessor")
	}
	if _, ok := r.GS("kb-a"); ok {
		t.Error("GS accessor returned a kb-plugin")
	}
	ids := func(ds []plugin.Descriptor) []string {
		var out []string
		for _, d := range ds {
			out = append(out, d.ID)
		}
		return out
	}
	if got := ids(r.List("")); !slices.Equal(got, []string{"kb-b", "kb-a", "gs-a"}) {
		t.Errorf("List() = %v (family order, then registration order)", got)
	}
	if got := ids(r.ListByType(plugin.TypeKB)); !slices.Equal(got, []string{"kb-b", "kb-a"}) {
		t.Errorf("ListByType(kb) = %v", got)
	}
	if got := r.ListByType("nope"); got != nil {
		t.Errorf("ListByType(unknown) = %v", got)
	}
	if got := len(r.KBPlugins()); got != 2 {
		t.Errorf("KBPlugins: %d", got)
	}
	// Descriptors handed out are copies.
	l := r.List(plugin.TypeGS)
	l[0].PlannerHints.RelativeCost = 0.9
	if r.List(plugin.TypeGS)[0].PlannerHints.RelativeCost != 0.1 {
		t.Error("List shares descriptor memory with the registry")
	}
	if r.Ref("gs-a") != "ref:gs-a" {
		t.Errorf("Ref %q", r.Ref("gs-a"))
	}
}

func TestBuiltinRegistrationProblems(t *testing.T) {
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("testdata", "builtins", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	mk := func(file string) Builtin {
		return Builtin{Descriptor: read(file), KUs: []byte("# x\n"), New: func(raw json.RawMessage, env plugin.Env) (plugin.Plugin, error) {
			return &fakeGS{d: desc("gs-good", plugin.TypeGS)}, nil
		}}
	}
	var tb builtinTable
	tb.register(mk("good.json"), "plugins/gs/gs-good/plugin.json")
	tb.register(mk("good.json"), "plugins/gs/gs-copy/plugin.json")
	tb.register(mk("truncated.json"), "plugins/kb/kb-trunc/plugin.json")
	tb.register(mk("wrong_type.json"), "plugins/kb/kb-wrong/plugin.json")
	nilNew := mk("good2.json")
	nilNew.New = nil
	tb.register(nilNew, "plugins/gs/gs-nil/plugin.json")

	if got := tb.list(); len(got) != 1 || got[0].Descriptor.ID != "gs-good" || got[0].Ref != "plugins/gs/gs-good/plugin.json" {
		t.Fatalf("list %+v", got)
	}
	type prob struct {
		file, code string
		line       int
	}
	var got []prob
	for _, p := range tb.problemList() {
		got = append(got, prob{p.File, p.Code, p.Line})
		if !strings.HasPrefix(p.Error(), p.File+":") {
			t.Errorf("problem does not start with its file: %v", p)
		}
	}
	want := []prob{
		{"plugins/gs/gs-copy/plugin.json", plugin.CodeDuplicatePluginID, 2},
		{"plugins/kb/kb-trunc/plugin.json", plugin.CodeDescriptorSyntax, 5},
		{"plugins/kb/kb-wrong/plugin.json", plugin.CodeDescriptorBadType, 3},
		{"plugins/gs/gs-nil/plugin.json", plugin.CodePluginFactory, 0},
	}
	if !slices.Equal(got, want) {
		t.Errorf("problems\n got %v\nwant %v", got, want)
	}
}
