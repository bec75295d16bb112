package llmplug_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/kus/sop"
	"github.com/mrpvm/mrpvm/llm/llmtest"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins/internal/llmplug"
	"github.com/mrpvm/mrpvm/plugins/internal/llmplug/llmplugtest"

	_ "github.com/mrpvm/mrpvm/plugins/sd/sd-llm-deep"
	_ "github.com/mrpvm/mrpvm/plugins/sd/sd-llm-fast"
)

// The seed detectors under test, built the way the catalog builds them;
// their prompts are read from their folders.
const sdFast, sdDeep = "sd-llm-fast", "sd-llm-deep"

var (
	sdFastPrompts = llmplug.MustParsePrompts(os.DirFS(filepath.Join("..", "..", "sd", sdFast)), "prompts/*.tmpl")
	sdDeepPrompts = llmplug.MustParsePrompts(os.DirFS(filepath.Join("..", "..", "sd", sdDeep)), "prompts/*.tmpl")
)

const validSeeds = "### intentCNL\n```sop\n" +
	"@i1 intent compare \"BM25 and dense retrieval\"\n" +
	"@i2 set $i1 output comparison\n" +
	"```\n\n### currentTurnContextCNL\n```sop\n" +
	"@k1 ku atomic \"session::t1::unit-000\"\n" +
	"@k2 set $k1 sourceId session::t1\n" +
	"@k3 set $k1 chunkId session::t1::chunk-000\n" +
	"@k4 set $k1 role Constraint\n" +
	"@k5 set $k1 topic \"answer shape\"\n" +
	"@k6 set $k1 claim \"Answer with a table.\"\n" +
	"@k7 set $k1 phaseScopes [gs-plugin]\n```\n"

// invalid lacks the intent's output and refers to an undefined $k9.
const invalidSeeds = "### intentCNL\n@i1 intent compare \"BM25 and dense retrieval\"\n\n" +
	"### currentTurnContextCNL\n@k1 set $k9 role Narrative\n"

func fastDetector(t *testing.T) *llmplug.SeedDetectorPlugin {
	return llmplugtest.New[*llmplug.SeedDetectorPlugin](t, sdFast)
}

func seedInput() *plugin.SeedInput {
	return &plugin.SeedInput{Payload: plugin.Payload{Prompt: "Compare BM25 and dense retrieval. Answer with a table."}, SessionID: "s1", TurnID: "t1"}
}

func TestDetectSeeds(t *testing.T) {
	for _, tc := range []struct {
		name    string
		replies []llmtest.Reply
		setup   llmplugtest.Setup
		status  plugin.Status
		code    string
		calls   int
	}{
		{name: "valid at once", replies: []llmtest.Reply{llmtest.Text(validSeeds)}, status: plugin.StatusSuccess, calls: 1},
		{name: "streamed", replies: []llmtest.Reply{llmtest.Stream(validSeeds)}, setup: llmplugtest.Setup{Stream: true}, status: plugin.StatusSuccess, calls: 1},
		{name: "invalid then corrected", replies: []llmtest.Reply{llmtest.Text(invalidSeeds), llmtest.Text(validSeeds)}, status: plugin.StatusSuccess, calls: 2},
		{name: "invalid twice", replies: []llmtest.Reply{llmtest.Text(invalidSeeds), llmtest.Text(invalidSeeds)}, status: plugin.StatusError, code: llmplug.CodeSOPInvalid, calls: 2},
		{name: "prose only, then corrected", replies: []llmtest.Reply{llmtest.Text("Sure! The user wants a comparison."), llmtest.Text(validSeeds)}, status: plugin.StatusSuccess, calls: 2},
		{name: "correction refused by the stage cap", replies: []llmtest.Reply{llmtest.Text(invalidSeeds)}, setup: llmplugtest.Setup{MaxCalls: 1},
			status: plugin.StatusUnsupported, code: plugin.CodeLLMBudget, calls: 1},
		{name: "correction refused by the request budget", replies: []llmtest.Reply{llmtest.Text(invalidSeeds)}, setup: llmplugtest.Setup{Budget: 1, MaxCalls: 2},
			status: plugin.StatusUnsupported, code: plugin.CodeLLMBudget, calls: 1},
		{name: "401", replies: []llmtest.Reply{llmtest.Status(401, "bad key")}, status: plugin.StatusError, code: "llm_auth", calls: 1},
		{name: "404 model", replies: []llmtest.Reply{llmtest.Status(404, "model not found")}, status: plugin.StatusError, code: "llm_not_found", calls: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.New(t, tc.replies...)
			if tc.setup.MaxCalls == 0 {
				tc.setup.MaxCalls = 2
			}
			env := llmplugtest.Connect(t, srv, sdFast, tc.setup)
			res, err := fastDetector(t).DetectSeeds(llmplugtest.Context(t), env.RC, seedInput())
			require.NoError(t, err)
			assert.Equal(t, tc.status, res.Status, "error: %+v", res.Error)
			assert.Equal(t, tc.calls, res.Metadata.LLMCalls)
			assert.Equal(t, tc.calls, srv.Hits())
			assert.Empty(t, srv.Problems())
			if tc.code != "" {
				require.NotNil(t, res.Error)
				assert.Equal(t, tc.code, res.Error.Code)
				return
			}
			require.Nil(t, res.Error)
			// The core admits exactly what the plugin returns.
			ir, err := sop.Interpret(res.IntentCNL)
			require.NoError(t, err)
			require.Len(t, ir.Intents, 1)
			assert.Equal(t, "compare", ir.Intents[0].Act)
			cr, err := sop.Interpret(res.CurrentTurnContextCNL)
			require.NoError(t, err)
			require.Len(t, cr.ActiveKUs(), 1)
			assert.Equal(t, []string{"gs-plugin"}, cr.ActiveKUs()[0].PhaseScopes)
		})
	}
}

func TestCorrectionQuotesTheErrors(t *testing.T) {
	srv := llmtest.New(t, llmtest.Text(invalidSeeds), llmtest.Text(validSeeds))
	env := llmplugtest.Connect(t, srv, sdFast, llmplugtest.Setup{MaxCalls: 2})
	res, err := fastDetector(t).DetectSeeds(llmplugtest.Context(t), env.RC, seedInput())
	require.NoError(t, err)
	require.Equal(t, plugin.StatusSuccess, res.Status)
	reqs := srv.Requests()
	require.Len(t, reqs, 2)
	first, second := reqs[0], reqs[1]
	assert.Equal(t, plugin.RoleSeedFast, env.Stage.Stats().Role)
	assert.Contains(t, first.LastUser(), "session::t1::unit-000", "the prompt names the turn's unit ids")
	assert.Contains(t, first.LastUser(), "Compare BM25 and dense retrieval. Answer with a table.")
	// The correction replays the conversation and quotes every problem.
	require.Len(t, second.Messages, 4)
	assert.Equal(t, "assistant", second.Messages[2].Role)
	assert.Equal(t, invalidSeeds, second.Messages[2].Content)
	fix := second.LastUser()
	assert.Contains(t, fix, "intentCNL line 1 (@i1): sop_missing_field")
	assert.Contains(t, fix, "currentTurnContextCNL line 1 (@k1): sop_unknown_ref")
}

// TestPromptExampleIsValid keeps the example in the prompt admissible: a
// model copying its shape must produce documents that validate.
func TestFastSeedPromptExampleIsValid(t *testing.T) {
	msgs, err := sdFastPrompts.Messages("seed", llmplug.SeedData{Turn: "x", SourceID: "session::t1", ChunkID: "session::t1::chunk-000", FirstUnitID: "session::t1::unit-000"})
	require.NoError(t, err)
	user := msgs[1].Content
	start := strings.Index(user, "### intentCNL")
	end := strings.Index(user, "User turn:")
	require.True(t, start >= 0 && end > start)
	docs, err := llmplug.ExtractSeedDocs(user[start:end])
	require.NoError(t, err)
	assert.Empty(t, llmplug.CheckSeedDocs(docs))
}

func TestSeedDetectorOffline(t *testing.T) {
	p := fastDetector(t)
	res, err := p.DetectSeeds(llmplugtest.Context(t), llmplugtest.Offline(), seedInput())
	llmplugtest.Unavailable(t, err, res.Status, res.Error)
	nres, err := p.NormalizePersistentContext(llmplugtest.Context(t), llmplugtest.Offline(), &plugin.NormalizeInput{Text: "Paris is in France."})
	llmplugtest.Unavailable(t, err, nres.Status, nres.Error)
}

func TestNormalizePersistentContext(t *testing.T) {
	doc := "@k1 ku atomic \"notes/a.md::0::0\"\n@k2 set $k1 sourceId notes/a.md\n@k3 set $k1 chunkId notes/a.md::chunk-000\n" +
		"@k4 set $k1 role Definition\n@k5 set $k1 topic \"Paris\"\n@k6 set $k1 claim \"Paris is part of France.\"\n" +
		"@k7 set $k1 symbolicSubject Paris\n@k8 set $k1 symbolicRelation part_of\n@k9 set $k1 symbolicObject France\n"
	srv := llmtest.New(t, llmtest.Text("@k1 ku atomic"), llmtest.Text("```\n"+doc+"```"))
	env := llmplugtest.Connect(t, srv, sdFast, llmplugtest.Setup{MaxCalls: 2})
	res, err := fastDetector(t).NormalizePersistentContext(llmplugtest.Context(t), env.RC,
		&plugin.NormalizeInput{Text: "Paris is part of France.", Source: kusSource("notes/a.md")})
	require.NoError(t, err)
	require.Equal(t, plugin.StatusSuccess, res.Status, "%+v", res.Error)
	r, err := sop.Interpret(res.ContextCNL)
	require.NoError(t, err)
	require.Len(t, r.ActiveKUs(), 1)
	assert.Equal(t, "France", r.ActiveKUs()[0].SymbolicObject)
	assert.Equal(t, 2, res.Metadata.LLMCalls)
	assert.Contains(t, srv.Requests()[0].LastUser(), "Source id: notes/a.md")
}

func kusSource(id string) kus.SourceInfo { return kus.SourceInfo{SourceID: id} }

// reply has no headings: the plugin splits statements by what they refer to.
const deepReply = "@i1 intent compare \"BM25 and dense retrieval\"\n@i2 set $i1 output comparison\n" +
	"@i3 intent recommend \"BM25 or dense retrieval for offline laptops\"\n@i4 set $i3 output recommendation\n" +
	"@i5 constrain $i3 \"runs offline\"\n" +
	"@k1 ku atomic \"session::t2::unit-000\"\n@k2 set $k1 sourceId session::t2\n@k3 set $k1 chunkId session::t2::chunk-000\n" +
	"@k4 set $k1 role Description\n@k5 set $k1 topic \"platform\"\n@k6 set $k1 claim \"Our service runs on ARM.\"\n"

func TestDetectSeedsDeep(t *testing.T) {
	p := llmplugtest.New[plugin.SDPlugin](t, sdDeep)
	srv := llmtest.New(t, llmtest.Text(deepReply))
	env := llmplugtest.Connect(t, srv, sdDeep, llmplugtest.Setup{MaxCalls: 2})
	env.RC.Conversation = []plugin.Turn{
		{ID: "t1", Role: "user", Text: "What retrieval methods are there?", At: time.Unix(0, 0)},
		{ID: "t1-a", Role: "assistant", Text: "BM25 and dense retrieval.", At: time.Unix(1, 0)},
	}
	res, err := p.DetectSeeds(llmplugtest.Context(t), env.RC, &plugin.SeedInput{
		Payload: plugin.Payload{Prompt: "Our service runs on ARM. Compare them, then recommend one for offline laptops."}, TurnID: "t2"})
	require.NoError(t, err)
	require.Equal(t, plugin.StatusSuccess, res.Status, "%+v", res.Error)
	assert.Equal(t, 1, res.Metadata.LLMCalls)
	ir, err := sop.Interpret(res.IntentCNL)
	require.NoError(t, err)
	require.Len(t, ir.Intents, 2)
	assert.Equal(t, []string{"runs offline"}, ir.Intents[1].Constraints)
	cr, err := sop.Interpret(res.CurrentTurnContextCNL)
	require.NoError(t, err)
	assert.Len(t, cr.ActiveKUs(), 1)

	req := srv.Requests()[0]
	assert.Equal(t, plugin.RoleSeedDeep, env.Stage.Stats().Role)
	assert.Contains(t, req.LastUser(), "user: What retrieval methods are there?\nassistant: BM25 and dense retrieval.")
	assert.Contains(t, req.System(), "Resolve pronouns")
}

func TestDeepSeedPromptExampleIsValid(t *testing.T) {
	msgs, err := sdDeepPrompts.Messages("seed", llmplug.SeedData{Turn: "x", SourceID: "session::t1", ChunkID: "session::t1::chunk-000", FirstUnitID: "session::t1::unit-000"})
	require.NoError(t, err)
	user := msgs[1].Content
	start, end := strings.Index(user, "### intentCNL"), strings.Index(user, "User turn:")
	require.True(t, start >= 0 && end > start)
	docs, err := llmplug.ExtractSeedDocs(user[start:end])
	require.NoError(t, err)
	assert.Empty(t, llmplug.CheckSeedDocs(docs))
	r, err := sop.Interpret(docs.ContextCNL)
	require.NoError(t, err)
	assert.Len(t, r.ActiveKUs(), 2)
}
