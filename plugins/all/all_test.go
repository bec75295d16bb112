package all_test

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mrpvm/mrpvm/config"
	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins"
	_ "github.com/mrpvm/mrpvm/plugins/all"
	"github.com/mrpvm/mrpvm/workspace"
)

// seedCatalog is the built-in plugin catalog every build must hold:
// id -> type, usesLLM, costClass.
var seedCatalog = map[string]struct {
	t       plugin.PluginType
	usesLLM bool
	cost    string
}{
	"sd-symbolic":     {plugin.TypeSD, false, "cheap"},
	"sd-llm-fast":     {plugin.TypeSD, true, "moderate"},
	"sd-llm-deep":     {plugin.TypeSD, true, "expensive"},
	"kb-fast":         {plugin.TypeKB, false, "cheap"},
	"kb-balanced":     {plugin.TypeKB, false, "moderate"},
	"kb-thinkingdb":   {plugin.TypeKB, false, "expensive"},
	"gs-symbolic":     {plugin.TypeGS, false, "cheap"},
	"gs-llm-fast":     {plugin.TypeGS, true, "moderate"},
	"gs-llm-deep":     {plugin.TypeGS, true, "expensive"},
	"planner-default": {plugin.TypePlan, false, "cheap"},
	"planner-depth":   {plugin.TypePlan, false, "cheap"},
	"val-llm":         {plugin.TypeVal, true, "moderate"},
	"val-symbolic":    {plugin.TypeVal, false, "cheap"},
}

// folderOf maps a family to its folder under plugins/.
var folderOf = map[plugin.PluginType]string{plugin.TypeSD: "sd", plugin.TypePlan: "mrp-plan", plugin.TypeKB: "kb", plugin.TypeGS: "gs", plugin.TypeVal: "val"}

func TestBuiltinsMatchTheSeedCatalog(t *testing.T) {
	if p := plugins.BuiltinProblems(); len(p) > 0 {
		t.Fatalf("built-in registration problems: %v", p)
	}
	bs := plugins.Builtins()
	if len(bs) != len(seedCatalog) {
		t.Errorf("%d built-ins, want %d", len(bs), len(seedCatalog))
	}
	for _, b := range bs {
		d := b.Descriptor
		want, ok := seedCatalog[d.ID]
		if !ok {
			t.Errorf("built-in %s is not in the seed catalog", d.ID)
			continue
		}
		if d.Type != want.t || d.UsesLLM != want.usesLLM || d.CostClass != want.cost {
			t.Errorf("%s: type %s usesLLM %v cost %s, want %s %v %s", d.ID, d.Type, d.UsesLLM, d.CostClass, want.t, want.usesLLM, want.cost)
		}
		if errs := d.Validate(); len(errs) > 0 {
			t.Errorf("%s: %v", d.ID, errs)
		}
		wantRef := "plugins/" + folderOf[d.Type] + "/" + d.ID + "/plugin.json"
		if b.Ref != wantRef {
			t.Errorf("%s lives at %s, want %s", d.ID, b.Ref, wantRef)
		}
		if d.PlannerHints == nil {
			t.Errorf("%s has no plannerHints", d.ID)
		}
	}
}

func TestPluginFoldersCheckClean(t *testing.T) {
	for _, b := range plugins.Builtins() {
		dir := filepath.Join("..", "..", filepath.Dir(b.Ref))
		if errs := plugins.CheckDir(dir); len(errs) > 0 {
			t.Errorf("%s: %v", dir, errs)
		}
		// The embedded KUs are the folder's, with 3-6 Context Units.
		doc, err := kus.Parse(b.KUs, kus.SourceInfo{SourceID: plugins.KUSourceID(b.Descriptor.ID)})
		if err != nil {
			t.Fatal(err)
		}
		units := 0
		for _, u := range doc.Units {
			if strings.HasPrefix(u.ID, "plugin::"+b.Descriptor.ID+"::unit-") {
				units++
				if u.Claim == "" && u.Procedure == "" || len(u.UtilityActs) == 0 || len(u.PhaseScopes) == 0 {
					t.Errorf("%s: KU %s lacks claim/procedure, acts or phase scopes", b.Descriptor.ID, u.ID)
				}
				if !strings.Contains(u.Text(), b.Descriptor.ID) && !strings.Contains(u.Topic, b.Descriptor.ID) {
					t.Errorf("%s: KU %s does not name the plugin", b.Descriptor.ID, u.ID)
				}
			}
		}
		if units < 3 || units > 6 {
			t.Errorf("%s: %d Context Units, want 3-6", b.Descriptor.ID, units)
		}
	}
}

func known() map[string]plugin.PluginType {
	m := map[string]plugin.PluginType{}
	for _, b := range plugins.Builtins() {
		m[b.Descriptor.ID] = b.Descriptor.Type
	}
	return m
}

func TestDefaultConfigCoversEveryBuiltin(t *testing.T) {
	cfg, errs := config.Load(config.Options{Known: known()})
	if len(errs) > 0 {
		t.Fatalf("embedded config against the real built-ins: %v", errs)
	}
	for _, b := range plugins.Builtins() {
		id := b.Descriptor.ID
		if _, ok := cfg.Plugins.Plugins[id]; !ok {
			t.Errorf("config/plugins.json has no entry for %s", id)
		}
		found := false
		for _, stage := range plugin.LoopStages {
			if plugin.TypeOfLoopStage(stage) == b.Descriptor.Type && slices.Contains(cfg.Order(stage), id) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s is in no default order", id)
		}
	}
}

func TestDefaultCatalog(t *testing.T) {
	c := workspace.LoadCatalog(workspace.Options{NoWrappers: true})
	defer c.Close()
	if len(c.Problems) > 0 {
		t.Fatalf("problems: %v", c.Problems)
	}
	if c.Registry.Len() != len(seedCatalog) {
		t.Errorf("%d plugins loaded", c.Registry.Len())
	}
	for stage, want := range map[string][]string{
		plugin.LoopSeedDetector: {"sd-symbolic", "sd-llm-fast", "sd-llm-deep"},
		plugin.LoopPlanner:      {"planner-default", "planner-depth"},
		plugin.LoopKB:           {"kb-balanced", "kb-fast", "kb-thinkingdb"},
		plugin.LoopGoalSolver:   {"gs-symbolic", "gs-llm-fast", "gs-llm-deep"},
		plugin.LoopValidation:   {"val-symbolic", "val-llm"},
	} {
		if got := c.Order(stage); !slices.Equal(got, want) {
			t.Errorf("Order(%s) = %v, want %v", stage, got, want)
		}
	}
	if got := c.PlannerOrder(); !slices.Equal(got, []string{"planner-default", "planner-depth"}) {
		t.Errorf("PlannerOrder %v", got)
	}
	if got := c.Fallbacks("gs-llm-deep"); !slices.Equal(got, []string{"gs-llm-fast", "gs-symbolic"}) {
		t.Errorf("Fallbacks(gs-llm-deep) %v", got)
	}
	srcs := c.KUSources()
	if len(srcs) != len(seedCatalog) || srcs[0].ID != "plugin::"+srcs[0].Name[:strings.Index(srcs[0].Name, "/")] {
		t.Errorf("KU sources %d, first %+v", len(srcs), srcs[0].ID)
	}
	if len(c.Candidates()[plugin.TypeKB]) != 3 {
		t.Errorf("candidates %v", c.Candidates())
	}
}

// TestEveryMethodAnswersHonestly calls every family method of every
// built-in with a bare request (no evidence, no knowledge base, no model):
// each answers a status its family allows, an unsupported answer carries
// an error saying why, and none claims a success it cannot deliver.
func TestEveryMethodAnswersHonestly(t *testing.T) {
	c := workspace.LoadCatalog(workspace.Options{NoWrappers: true})
	ctx := context.Background()
	rc := plugin.RunContext{RequestID: "test"}
	p := plugin.Payload{Prompt: "What is kb-fast?"}
	unsupported := func(t *testing.T, method string, status plugin.Status, allowed []plugin.Status, e *plugin.Error, err error) {
		t.Helper()
		if err != nil {
			t.Errorf("%s: error %v", method, err)
			return
		}
		if (status == plugin.StatusUnsupported || status == plugin.StatusError) && e == nil {
			t.Errorf("%s: status %s without an error", method, status)
		}
		if !status.In(allowed) {
			t.Errorf("%s: status %s not allowed", method, status)
		}
	}
	for _, d := range c.Registry.List("") {
		t.Run(d.ID, func(t *testing.T) {
			switch d.Type {
			case plugin.TypeSD:
				sd, _ := c.Registry.SD(d.ID)
				r, err := sd.DetectSeeds(ctx, rc, &plugin.SeedInput{Payload: p})
				unsupported(t, "detectSeeds", r.Status, plugin.SeedStatuses, r.Error, err)
				n, err := sd.NormalizePersistentContext(ctx, rc, &plugin.NormalizeInput{Text: "x"})
				unsupported(t, "normalizePersistentContext", n.Status, plugin.NormalizeStatuses, n.Error, err)
			case plugin.TypePlan:
				pl, _ := c.Registry.Planner(d.ID)
				r, err := pl.BuildPlan(ctx, rc, &plugin.PlanInput{Payload: p})
				unsupported(t, "buildPlan", r.Status, plugin.PlanStatuses, r.Error, err)
				if r.PlannerPluginID != d.ID {
					t.Errorf("plannerPluginId %q", r.PlannerPluginID)
				}
				if err := pl.RecordOutcome(ctx, rc, &plugin.Outcome{}); err != nil {
					t.Errorf("recordOutcome: %v", err)
				}
			case plugin.TypeKB:
				kb, _ := c.Registry.KB(d.ID)
				// Built without a knowledge base store, a kb-plugin cannot
				// retrieve: it must say so, whatever its error code.
				r, err := kb.Retrieve(ctx, rc, &plugin.RetrieveInput{Payload: p})
				if err != nil || r.Status != plugin.StatusUnsupported || r.Error == nil {
					t.Errorf("retrieve without a store: %+v %v", r, err)
				}
				if r.Sufficient {
					t.Error("retrieve claims sufficiency")
				}
				st, err := kb.OnSourceText(ctx, rc, &plugin.SourceText{HookType: plugin.HookSourceText, SourceID: "a.md"})
				if err != nil || st.Status != plugin.StatusSkipped {
					t.Errorf("onSourceText: %+v %v", st, err)
				}
				se, err := kb.OnSessionEvent(ctx, rc, &plugin.SessionEvent{EventType: plugin.EventSessionCreated})
				if err != nil || !se.Status.In(plugin.HookStatuses) || se.Status == plugin.StatusError {
					t.Errorf("onSessionEvent: %+v %v", se, err)
				}
			case plugin.TypeGS:
				gs, _ := c.Registry.GS(d.ID)
				r, err := gs.Solve(ctx, rc, &plugin.SolveInput{Payload: p})
				unsupported(t, "solve", r.Status, plugin.SolveStatuses, r.Error, err)
				if r.Status == plugin.StatusSuccess {
					t.Error("solve answered without evidence")
				}
			case plugin.TypeVal:
				v, _ := c.Registry.Val(d.ID)
				r, err := v.Validate(ctx, rc, &plugin.ValidateInput{Payload: p, Answer: "a"})
				if !d.UsesLLM {
					// A symbolic validator can decide without a model: an
					// answer with no evidence behind it is not grounded.
					if err != nil || r.Status != plugin.StatusRejected || r.Reason == "" {
						t.Errorf("validate of an ungrounded answer: %+v %v", r, err)
					}
					break
				}
				unsupported(t, "validate", r.Status, plugin.ValidateStatuses, r.Error, err)
				if r.Verdict != "" {
					t.Errorf("validate gave verdict %q", r.Verdict)
				}
			}
		})
	}
}

func TestOptionsAreStrict(t *testing.T) {
	cases := []struct {
		id, opts string
		ok       bool
	}{
		{"kb-fast", `{"maxResults": 5, "minScore": 0.2}`, true},
		{"kb-fast", `{"maxResults": 0}`, false},
		{"kb-fast", `{"maxresults": 5}`, false},
		{"kb-balanced", `{"minScore": 1.5}`, false},
		{"kb-thinkingdb", `{"maxDepth": 4}`, true},
		{"kb-thinkingdb", `{"maxDepth": 40}`, false},
		{"kb-fast", `{"maxDepth": 4}`, false}, // only the ThinkingDB variant has a depth
		{"kb-balanced", `{"maxDepth": 4}`, false},
		{"planner-default", `{"alpha": 0}`, false},
		{"planner-depth", `{"alpha": 0.5}`, true},
		{"gs-symbolic", `{}`, true},
		{"gs-symbolic", `{"style": "bullets"}`, false},
		{"val-llm", `null`, true},
		{"sd-llm-fast", `{"maxResults": "3"}`, false},
	}
	for _, tc := range cases {
		b, ok := plugins.LookupBuiltin(tc.id)
		if !ok {
			t.Fatalf("no built-in %s", tc.id)
		}
		p, err := b.New(json.RawMessage(tc.opts), plugin.Env{PluginID: tc.id})
		if tc.ok {
			if err != nil || p == nil || p.Descriptor().ID != tc.id {
				t.Errorf("%s %s: %v", tc.id, tc.opts, err)
			}
			continue
		}
		var se *plugin.Error
		if !errors.As(err, &se) || se.Code != plugin.CodeOptionsInvalid {
			t.Errorf("%s %s: got %v, want %s", tc.id, tc.opts, err, plugin.CodeOptionsInvalid)
		}
	}
}
