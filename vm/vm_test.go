package vm

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/config"
	"github.com/mrpvm/mrpvm/ingest"
	"github.com/mrpvm/mrpvm/internal/testtree"
	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins"
	valsymbolic "github.com/mrpvm/mrpvm/plugins/val/val-symbolic"
)

// The plugins below are test plugins with scripted behaviour: they stand
// for third-party plugins that panic, hang, overspend or misbehave, which
// is exactly what the stage runner must isolate.

func descriptor(t testing.TB, id string, typ plugin.PluginType, extra string) plugin.Base {
	t.Helper()
	hints := `"plannerHints": {"expectedLatencyMs": 1, "expectedLLMCalls": 0, "relativeCost": 0.1, "supportedActs": ["explain"], "topicTags": ["test"], "preferredDepth": "shallow", "fallbackRole": "default", "confidenceWhenMatched": 0.5},`
	if extra == "" {
		extra = `"usesLLM": false, "maxLLMCalls": 0, "timeoutMs": 2000,`
	}
	if !strings.Contains(extra, "modelRoles") {
		extra += ` "modelRoles": [],`
	}
	js := fmt.Sprintf(`{"id": %q, "type": %q, "name": %q, "version": "1.0.0", "description": "A test plugin.",
		"costClass": "cheap", %s %s "tags": ["test"], "provides": [], "accepts": []}`, id, typ, id, extra, hints)
	b, err := plugin.NewBase([]byte(js))
	require.NoError(t, err)
	return b
}

type testKB struct {
	plugin.Base
	plugin.UnimplementedKB
	units []*kus.KU
}

func (p *testKB) Retrieve(ctx context.Context, rc plugin.RunContext, in *plugin.RetrieveInput) (*plugin.RetrieveResult, error) {
	var ev []plugin.ScoredKU
	for _, u := range p.units {
		ev = append(ev, plugin.ScoredKU{KU: u, Score: 1, Level: u.Level})
	}
	st := plugin.StatusSuccess
	if len(ev) == 0 {
		st = plugin.StatusInsufficient
	}
	return &plugin.RetrieveResult{Status: st, Sufficient: len(ev) > 0,
		ResolvedIntents: []plugin.ResolvedIntent{{IntentID: "i1", Evidence: ev, Sufficient: len(ev) > 0}}}, nil
}

type testGS struct {
	plugin.Base
	plugin.UnimplementedGS
	solve func(ctx context.Context, in *plugin.SolveInput) (*plugin.SolveResult, error)
}

func (p *testGS) Solve(ctx context.Context, rc plugin.RunContext, in *plugin.SolveInput) (*plugin.SolveResult, error) {
	return p.solve(ctx, in)
}

type testVal struct {
	plugin.Base
	plugin.UnimplementedVal
	verdict plugin.Status
}

func (p *testVal) Validate(ctx context.Context, rc plugin.RunContext, in *plugin.ValidateInput) (*plugin.ValidateResult, error) {
	return &plugin.ValidateResult{Status: p.verdict, Verdict: p.verdict, Reason: "test verdict " + string(p.verdict)}, nil
}

type testPlanner struct {
	plugin.Base
	plugin.UnimplementedPlan
	plan     plugin.Plan
	recorded []*plugin.Outcome
}

func (p *testPlanner) BuildPlan(ctx context.Context, rc plugin.RunContext, in *plugin.PlanInput) (*plugin.Plan, error) {
	pl := p.plan
	pl.Status = plugin.StatusSuccess
	return &pl, nil
}

func (p *testPlanner) RecordOutcome(ctx context.Context, rc plugin.RunContext, o *plugin.Outcome) error {
	p.recorded = append(p.recorded, o)
	return nil
}

func answer(text string) func(context.Context, *plugin.SolveInput) (*plugin.SolveResult, error) {
	return func(_ context.Context, in *plugin.SolveInput) (*plugin.SolveResult, error) {
		if len(in.Evidence) == 0 {
			return &plugin.SolveResult{Status: plugin.StatusNoContext}, nil
		}
		return &plugin.SolveResult{Status: plugin.StatusSuccess, ResponseMarkdown: text, EvidenceIDs: []string{in.Evidence[0].KU.ID}}, nil
	}
}

// setup builds a machine over a real knowledge base with the given plugins.
func setup(t *testing.T, engCfg func(*config.Engine), ps ...plugin.Plugin) (*Machine, *ingest.KB) {
	t.Helper()
	cat := testCatalog(t, engCfg, ps...)
	kb := openTestKB(t, nil)
	return New(kb, cat, Options{}), kb
}

// setupIngested is setup without plugins over a workspace holding files
// (slash paths to text), ingested once.
func setupIngested(t *testing.T, files map[string]string) (*Machine, *ingest.KB) {
	t.Helper()
	m, kb := setup(t, nil)
	testtree.WriteFiles(t, kb.Workspace(), files)
	_, err := kb.Ingest(context.Background(), ingest.RunOptions{})
	require.NoError(t, err)
	return m, kb
}

// openTestKB opens a knowledge base over a new empty workspace with hooks,
// closed when the test ends.
func openTestKB(t *testing.T, hooks []ingest.SourceHook) *ingest.KB {
	t.Helper()
	kb, err := ingest.Open(ingest.Options{Workspace: t.TempDir(), DBPath: filepath.Join(t.TempDir(), "kb.db"), Hooks: hooks})
	require.NoError(t, err)
	t.Cleanup(func() { kb.Close() })
	return kb
}

// testCatalog registers ps with each in its stage's default order.
func testCatalog(t *testing.T, engCfg func(*config.Engine), ps ...plugin.Plugin) *plugins.Catalog {
	t.Helper()
	reg := plugins.NewRegistry()
	for _, p := range ps {
		require.NoError(t, reg.Register(p))
	}
	cfg := config.Default()
	cfg.Plugins.DefaultOrder = map[string][]string{}
	cfg.Engine.PlannerFallbackOrder = nil
	for _, p := range ps {
		d := p.Descriptor()
		stage := map[plugin.PluginType]string{plugin.TypeSD: plugin.LoopSeedDetector, plugin.TypePlan: plugin.LoopPlanner, plugin.TypeKB: plugin.LoopKB,
			plugin.TypeGS: plugin.LoopGoalSolver, plugin.TypeVal: plugin.LoopValidation}[d.Type]
		cfg.Plugins.DefaultOrder[stage] = append(cfg.Plugins.DefaultOrder[stage], d.ID)
		if d.Type == plugin.TypePlan {
			cfg.Engine.PlannerFallbackOrder = append(cfg.Engine.PlannerFallbackOrder, d.ID)
		}
	}
	if engCfg != nil {
		engCfg(&cfg.Engine)
	}
	return &plugins.Catalog{Registry: reg, Config: cfg}
}

func leaf(id, text string) *kus.KU {
	return &kus.KU{ID: id, Title: id, Claim: text, TextBody: text, SourceID: "doc.md", Level: kus.LevelLeaf, Role: "Description"}
}

// sourceLeaf is a leaf unit of the page source, titled by its name.
func sourceLeaf(id, source, text string) *kus.KU {
	k := leaf(id, text)
	k.SourceID, k.Title = source, strings.TrimSuffix(source, ".md")
	return k
}

func stagesOf(r *Response) []string {
	var out []string
	for _, s := range r.Trace.Outcome.Stages {
		out = append(out, s.Stage+"/"+s.PluginID+"/"+string(s.Status))
	}
	return out
}

// errorCodes lists the codes of the trace errors of r, in order.
func errorCodes(r *Response) []string {
	var out []string
	for _, e := range r.Trace.Errors {
		out = append(out, e.Code)
	}
	return out
}

func TestAskAnswersThroughTheLoop(t *testing.T) {
	kb := &testKB{Base: descriptor(t, "kb-t", plugin.TypeKB, ""), units: []*kus.KU{leaf("doc.md::0::0", "Alpha uses beta.")}}
	gs := &testGS{Base: descriptor(t, "gs-t", plugin.TypeGS, ""), solve: answer("Alpha uses beta [1].")}
	val := &testVal{Base: descriptor(t, "val-t", plugin.TypeVal, ""), verdict: plugin.StatusAccepted}
	m, _ := setup(t, nil, kb, gs, val)
	resp, err := m.Ask(context.Background(), Request{Question: "What does alpha use?"})
	require.NoError(t, err)
	assert.Equal(t, StatusAnswered, resp.Status)
	assert.Equal(t, "Alpha uses beta [1].", resp.AnswerMarkdown)
	require.Len(t, resp.Evidence, 1)
	assert.Equal(t, "doc.md::0::0", resp.Evidence[0].KUID)
	assert.Equal(t, []string{"kb/kb-t/success", "goal-solver/gs-t/success", "validation/val-t/accepted"}, stagesOf(resp))
	assert.Equal(t, "success", resp.Trace.FinalStatus)
	assert.Equal(t, "answered", resp.Trace.FinalAnswerStatus)

	again, err := m.Trace(resp.RequestID)
	require.NoError(t, err)
	assert.Equal(t, resp.RequestID, again.RequestID)
}

func TestStageRunnerIsolatesPlugins(t *testing.T) {
	kb := &testKB{Base: descriptor(t, "kb-t", plugin.TypeKB, ""), units: []*kus.KU{leaf("doc.md::0::0", "Alpha uses beta.")}}
	panics := &testGS{Base: descriptor(t, "gs-panic", plugin.TypeGS, ""), solve: func(context.Context, *plugin.SolveInput) (*plugin.SolveResult, error) {
		panic("boom")
	}}
	hangs := &testGS{Base: descriptor(t, "gs-hang", plugin.TypeGS, `"usesLLM": false, "maxLLMCalls": 0, "timeoutMs": 50,`),
		solve: func(context.Context, *plugin.SolveInput) (*plugin.SolveResult, error) {
			time.Sleep(2 * time.Second) // ignores its context on purpose
			return &plugin.SolveResult{Status: plugin.StatusSuccess, ResponseMarkdown: "late"}, nil
		}}
	greedy := &testGS{Base: descriptor(t, "gs-greedy", plugin.TypeGS, `"usesLLM": true, "maxLLMCalls": 9, "modelRoles": ["goal-deep"], "timeoutMs": 1000,`),
		solve: answer("never")}
	liar := &testGS{Base: descriptor(t, "gs-liar", plugin.TypeGS, ""), solve: func(context.Context, *plugin.SolveInput) (*plugin.SolveResult, error) {
		return &plugin.SolveResult{Status: plugin.StatusAccepted}, nil
	}}
	good := &testGS{Base: descriptor(t, "gs-good", plugin.TypeGS, ""), solve: answer("Alpha uses beta.")}
	m, _ := setup(t, func(e *config.Engine) { e.MaxPluginsPerStage = 10; e.MaxLLMAttemptsPerRequest = 2 }, kb, panics, hangs, greedy, liar, good)

	start := time.Now()
	resp, err := m.Ask(context.Background(), Request{Question: "What does alpha use?"})
	require.NoError(t, err)
	assert.Less(t, time.Since(start), 1500*time.Millisecond, "a hanging plugin must not hold the request")
	assert.Equal(t, StatusAnswered, resp.Status)
	assert.Equal(t, []string{"kb/kb-t/success", "goal-solver/gs-panic/error", "goal-solver/gs-hang/error",
		"goal-solver/gs-greedy/skipped-budget", "goal-solver/gs-liar/error", "goal-solver/gs-good/success"}, stagesOf(resp))
	codes := errorCodes(resp)
	for _, c := range []string{CodePluginPanic, CodePluginTimeout, CodeBudgetExhausted, CodeBadStatus, CodeUnvalidated} {
		assert.Contains(t, codes, c)
	}
	assert.Equal(t, "goal-deep", resp.Trace.Outcome.Stages[3].ModelRole)
}

// TestRejectedAnswerListsTheCandidatesSourcesFirst: when every candidate
// is rejected, the pages the rejected candidate cited lead the "you may
// look at" list, in its order, before the rest of the evidence in
// retrieval order; each source is listed once.
func TestRejectedAnswerListsTheCandidatesSourcesFirst(t *testing.T) {
	kb := &testKB{Base: descriptor(t, "kb-t", plugin.TypeKB, ""), units: []*kus.KU{
		sourceLeaf("yetris.md::0", "yetris.md", "Pieces fall into a huge well."),
		sourceLeaf("bastet.md::0", "bastet.md", "Pieces fall, bastard tetris."),
		sourceLeaf("split.md::0", "split.md", "Split a file into pieces."),
		sourceLeaf("yetris.md::1", "yetris.md", "Smaller pieces."),
		sourceLeaf("split.md::1", "split.md", "Split a file with at most 512 bytes."),
	}}
	gs := &testGS{Base: descriptor(t, "gs-t", plugin.TypeGS, ""), solve: func(_ context.Context, in *plugin.SolveInput) (*plugin.SolveResult, error) {
		return &plugin.SolveResult{Status: plugin.StatusSuccess, ResponseMarkdown: "Split a file into pieces.", EvidenceIDs: []string{"split.md::1", "split.md::0"}}, nil
	}}
	val := &testVal{Base: descriptor(t, "val-t", plugin.TypeVal, ""), verdict: plugin.StatusRejected}
	m, _ := setup(t, nil, kb, gs, val)
	resp, err := m.Ask(context.Background(), Request{Question: "How do I break a huge file into smaller pieces?"})
	require.NoError(t, err)
	require.Equal(t, StatusNoContext, resp.Status)
	_, list, ok := strings.Cut(resp.AnswerMarkdown, "You may look at:\n")
	require.True(t, ok, resp.AnswerMarkdown)
	assert.Equal(t, "- split — split.md:1\n- yetris — yetris.md:1\n- bastet — bastet.md:1\n", list)
}

func TestValidationRejectionMovesToTheNextPlanner(t *testing.T) {
	kb := &testKB{Base: descriptor(t, "kb-t", plugin.TypeKB, ""), units: []*kus.KU{leaf("doc.md::0::0", "Alpha uses beta.")}}
	gsA := &testGS{Base: descriptor(t, "gs-a", plugin.TypeGS, ""), solve: answer("wrong")}
	gsB := &testGS{Base: descriptor(t, "gs-b", plugin.TypeGS, ""), solve: answer("right")}
	val := &testVal{Base: descriptor(t, "val-t", plugin.TypeVal, ""), verdict: plugin.StatusRejected}
	p1 := &testPlanner{Base: descriptor(t, "plan-a", plugin.TypePlan, ""), plan: plugin.Plan{GoalSolverOrder: []string{"gs-a"}, KBPluginOrder: []string{"kb-t", "kb-nope"}}}
	p2 := &testPlanner{Base: descriptor(t, "plan-b", plugin.TypePlan, ""), plan: plugin.Plan{GoalSolverOrder: []string{"gs-b"}}}
	m, _ := setup(t, nil, kb, gsA, gsB, val, p1, p2)
	resp, err := m.Ask(context.Background(), Request{Question: "What does alpha use?"})
	require.NoError(t, err)
	assert.Equal(t, []string{"plan-a", "plan-b"}, resp.Trace.PlannerAttempts)
	assert.Equal(t, StatusNoContext, resp.Status, "every answer was rejected: no confident wrong answer")
	assert.Contains(t, resp.AnswerMarkdown, "You may look at:\n- ", "the closest pages are listed")
	assert.Contains(t, resp.AnswerMarkdown, "doc.md")
	codes := errorCodes(resp)
	assert.Contains(t, codes, CodeValidationRejected)
	assert.Contains(t, codes, CodeUnknownPlugin, "plan-a named a kb-plugin that does not exist")
	require.Len(t, p1.recorded, 1, "each planner hears the outcome")
	require.Len(t, p2.recorded, 1)
	for _, s := range p2.recorded[0].Stages {
		assert.True(t, s.PlannerPluginID == "plan-b" || s.Stage == plugin.LoopSeedDetector)
	}

	val.verdict = plugin.StatusAccepted
	resp, err = m.Ask(context.Background(), Request{Question: "What does alpha use?", Pins: map[string]string{"gs": "gs-b"}})
	require.NoError(t, err)
	assert.Equal(t, StatusAnswered, resp.Status)
	assert.Equal(t, "right", resp.AnswerMarkdown, "a pinned stage uses only the pinned plugin")
}

func TestDecompositionAndDepthLimit(t *testing.T) {
	kb := &testKB{Base: descriptor(t, "kb-t", plugin.TypeKB, ""), units: []*kus.KU{leaf("doc.md::0::0", "Alpha uses beta.")}}
	calls := 0
	gs := &testGS{Base: descriptor(t, "gs-t", plugin.TypeGS, ""), solve: func(_ context.Context, in *plugin.SolveInput) (*plugin.SolveResult, error) {
		calls++
		if in.FrameDepth == 0 {
			return &plugin.SolveResult{Status: plugin.StatusNeedsDecomposition}, nil
		}
		return &plugin.SolveResult{Status: plugin.StatusSuccess, ResponseMarkdown: "part: " + in.Payload.Prompt}, nil
	}}
	m, _ := setup(t, nil, kb, gs)
	resp, err := m.Ask(context.Background(), Request{Question: "What does alpha use; what does gamma use?"})
	require.NoError(t, err)
	assert.Equal(t, StatusAnswered, resp.Status)
	assert.Contains(t, resp.AnswerMarkdown, "part: What does alpha use")
	assert.Contains(t, resp.AnswerMarkdown, "part: what does gamma use")
	assert.Equal(t, 1, resp.Trace.FrameDepth)
	assert.Equal(t, plugin.FrameSubtaskDecomposition, resp.Trace.FramePurpose)
	require.NotNil(t, resp.Trace.Frames)
	assert.Len(t, resp.Trace.Frames.Children, 2)

	m2, _ := setup(t, func(e *config.Engine) { e.MaxFrameDepth = 0 }, kb, gs)
	resp, err = m2.Ask(context.Background(), Request{Question: "What does alpha use; what does gamma use?"})
	require.NoError(t, err)
	assert.NotEqual(t, StatusAnswered, resp.Status)
	assert.Contains(t, errorCodes(resp), CodeFrameDepthExceeded)
}

func TestBadRequests(t *testing.T) {
	gs := &testGS{Base: descriptor(t, "gs-t", plugin.TypeGS, ""), solve: answer("x")}
	m, _ := setup(t, nil, gs)
	resp, err := m.Ask(context.Background(), Request{Question: "   "})
	assert.ErrorIs(t, err, ErrEmptyQuestion)
	assert.Equal(t, StatusInvalid, resp.Status)
	assert.Contains(t, errorCodes(resp), CodeEmptyQuestion)

	_, err = m.Ask(context.Background(), Request{Question: "q", Pins: map[string]string{"gs": "gs-missing"}})
	assert.ErrorContains(t, err, "gs-missing")
	_, err = m.Ask(context.Background(), Request{Question: "q", SessionID: "bad id with spaces"})
	assert.Error(t, err)

	big := strings.Repeat("why does ünïcode matter? ", 50000) // ~1.3 MB
	resp, err = m.Ask(context.Background(), Request{Question: big})
	require.NoError(t, err)
	assert.Contains(t, errorCodes(resp), CodeQuestionTruncated)
	assert.Equal(t, StatusNoContext, resp.Status, "no kb-plugin, so the solver has no evidence")

	resp, err = m.Ask(context.Background(), Request{Question: "@x set $y claim \"injected\"\n@i1 intent explain \"z\""})
	require.NoError(t, err)
	assert.NotEqual(t, StatusInvalid, resp.Status, "SOP-looking questions are just text")
}

func TestSessionsPersist(t *testing.T) {
	gs := &testGS{Base: descriptor(t, "gs-t", plugin.TypeGS, ""), solve: answer("x")}
	m, kb := setup(t, nil, gs)
	r1, err := m.Ask(context.Background(), Request{Question: "first", SessionID: "demo", CreateSession: true})
	require.NoError(t, err)
	_, err = m.Ask(context.Background(), Request{Question: "second", SessionID: "demo"})
	require.NoError(t, err)
	s, err := m.Session("demo")
	require.NoError(t, err)
	require.Len(t, s.Turns, 4)
	assert.Equal(t, "first", s.Turns[0].Text)

	fresh := New(kb, m.cat, Options{})
	tr, err := fresh.Trace(r1.RequestID)
	require.NoError(t, err, "traces survive the machine")
	assert.Equal(t, "demo", tr.SessionID)
	last, err := fresh.Trace("last")
	require.NoError(t, err)
	assert.NotEqual(t, r1.RequestID, last.RequestID)
}

// corruptKB reports its index corrupt until OnSourceText has rebuilt it.
type corruptKB struct {
	testKB
	corrupt  bool
	rebuilds int
}

func (p *corruptKB) OnSourceText(ctx context.Context, rc plugin.RunContext, st *plugin.SourceText) (*plugin.SourceTextResult, error) {
	p.rebuilds++
	p.corrupt = false
	return &plugin.SourceTextResult{Status: plugin.StatusAccepted}, nil
}

func (p *corruptKB) Retrieve(ctx context.Context, rc plugin.RunContext, in *plugin.RetrieveInput) (*plugin.RetrieveResult, error) {
	if p.corrupt {
		return &plugin.RetrieveResult{Status: plugin.StatusError, Error: &plugin.Error{Code: plugin.CodeIndexCorrupt, Message: "bad posting"}}, nil
	}
	return p.testKB.Retrieve(ctx, rc, in)
}

func TestCorruptIndexIsRebuiltAndRetried(t *testing.T) {
	kb := &corruptKB{testKB: testKB{Base: descriptor(t, "kb-t", plugin.TypeKB, ""), units: []*kus.KU{leaf("doc.md::0::0", "Alpha uses beta.")}}}
	gs := &testGS{Base: descriptor(t, "gs-t", plugin.TypeGS, ""), solve: answer("Alpha uses beta.")}
	cat := testCatalog(t, nil, kb, gs)
	store := openTestKB(t, Hooks(cat))
	m := New(store, cat, Options{})
	testtree.WriteFile(t, filepath.Join(store.Workspace(), "doc.md"), "# Doc\n\nAlpha uses beta.\n")
	_, err := store.Ingest(context.Background(), ingest.RunOptions{})
	require.NoError(t, err)
	kb.corrupt, kb.rebuilds = true, 0

	resp, err := m.Ask(context.Background(), Request{Question: "What does alpha use?"})
	require.NoError(t, err)
	assert.Equal(t, StatusAnswered, resp.Status)
	assert.Equal(t, 1, kb.rebuilds, "the index was rebuilt from the stored KUs")
	assert.Equal(t, []string{"kb/kb-t/error", "kb/kb-t/success", "goal-solver/gs-t/success"}, stagesOf(resp))
}

// TestSymbolicValidatorDrivesBacktracking runs the real val-symbolic: an
// invented statement is rejected and the next planner's solver answers.
func TestSymbolicValidatorDrivesBacktracking(t *testing.T) {
	kb := &testKB{Base: descriptor(t, "kb-t", plugin.TypeKB, ""), units: []*kus.KU{leaf("doc.md::0::0", "Alpha uses beta.")}}
	invented := "Alpha uses gamma rays from distant quasars. [1]\n\nSources:\n[1] doc.md::0::0 — doc.md:1\n"
	grounded := "Alpha uses beta. [1]\n\nSources:\n[1] doc.md::0::0 — doc.md:1\n"
	gsA := &testGS{Base: descriptor(t, "gs-a", plugin.TypeGS, ""), solve: answer(invented)}
	gsB := &testGS{Base: descriptor(t, "gs-b", plugin.TypeGS, ""), solve: answer(grounded)}
	val, err := valsymbolic.New(nil, plugin.Env{PluginID: valsymbolic.ID})
	require.NoError(t, err)
	p1 := &testPlanner{Base: descriptor(t, "plan-a", plugin.TypePlan, ""), plan: plugin.Plan{GoalSolverOrder: []string{"gs-a"}}}
	p2 := &testPlanner{Base: descriptor(t, "plan-b", plugin.TypePlan, ""), plan: plugin.Plan{GoalSolverOrder: []string{"gs-b"}}}
	m, _ := setup(t, nil, kb, gsA, gsB, val, p1, p2)
	resp, err := m.Ask(context.Background(), Request{Question: "What does alpha use?"})
	require.NoError(t, err)
	assert.Equal(t, StatusAnswered, resp.Status)
	assert.Equal(t, grounded, resp.AnswerMarkdown)
	assert.Equal(t, []string{"plan-a", "plan-b"}, resp.Trace.PlannerAttempts)
	assert.Contains(t, errorCodes(resp), CodeValidationRejected)
	assert.Contains(t, stagesOf(resp), "validation/val-symbolic/rejected")
	assert.Contains(t, stagesOf(resp), "validation/val-symbolic/accepted")
}

// TestRejectedPartsListTheirSources: when every part of a question of
// several parts was answered and every answer rejected, the no-context
// answer still points at the sources the rejected parts cited, first.
func TestRejectedPartsListTheirSources(t *testing.T) {
	sd := &intentSD{Base: descriptor(t, "sd-t", plugin.TypeSD, ""),
		intent: "@i1 intent implement \"pack a directory into an archive\"\n@i2 set $i1 output procedure\n" +
			"@i3 intent implement \"unpack the archive elsewhere\"\n@i4 set $i3 output procedure\n"}
	kb := &testKB{Base: descriptor(t, "kb-t", plugin.TypeKB, ""), units: []*kus.KU{
		sourceLeaf("atool.md::0", "atool.md", "Manage archives of various formats."),
		sourceLeaf("tar.md::0", "tar.md", "Create an archive of a directory, extract an archive elsewhere."),
	}}
	gs := &testGS{Base: descriptor(t, "gs-t", plugin.TypeGS, ""), solve: func(ctx context.Context, in *plugin.SolveInput) (*plugin.SolveResult, error) {
		if len(in.Intents) > 1 {
			return &plugin.SolveResult{Status: plugin.StatusNeedsDecomposition}, nil
		}
		return &plugin.SolveResult{Status: plugin.StatusSuccess, ResponseMarkdown: "Use tar [1].", EvidenceIDs: []string{"tar.md::0"}}, nil
	}}
	val := &testVal{Base: descriptor(t, "val-t", plugin.TypeVal, ""), verdict: plugin.StatusRejected}
	m, _ := setup(t, nil, sd, kb, gs, val)
	resp, err := m.Ask(context.Background(), Request{Question: "How do I pack a directory into an archive and unpack the archive elsewhere?"})
	require.NoError(t, err)
	require.Equal(t, StatusNoContext, resp.Status)
	_, list, ok := strings.Cut(resp.AnswerMarkdown, "You may look at:\n")
	require.True(t, ok, resp.AnswerMarkdown)
	assert.True(t, strings.HasPrefix(list, "- tar — tar.md:1\n"), list)
}
