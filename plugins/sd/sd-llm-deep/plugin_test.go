package sdllmdeep

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/engine/llm/llmtest"
	"github.com/mrpvm/mrpvm/kus/sop"
	"github.com/mrpvm/mrpvm/plugins/internal/llmplug"
	"github.com/mrpvm/mrpvm/plugins/internal/llmplug/llmplugtest"
	"github.com/mrpvm/mrpvm/plugins/sdk"
)

// ID is the plugin under test; New builds it the way the catalog does.
const ID = "sd-llm-deep"

var New = llmplugtest.Factory(ID)

var prompts = llmplug.MustParsePrompts(files, "prompts/*.tmpl")

// reply has no headings: the plugin splits statements by what they refer to.
const reply = "@i1 intent compare \"BM25 and dense retrieval\"\n@i2 set $i1 output comparison\n" +
	"@i3 intent recommend \"BM25 or dense retrieval for offline laptops\"\n@i4 set $i3 output recommendation\n" +
	"@i5 constrain $i3 \"runs offline\"\n" +
	"@k1 ku atomic \"session::t2::unit-000\"\n@k2 set $k1 sourceId session::t2\n@k3 set $k1 chunkId session::t2::chunk-000\n" +
	"@k4 set $k1 role Description\n@k5 set $k1 topic \"platform\"\n@k6 set $k1 claim \"Our service runs on ARM.\"\n"

func TestDetectSeedsDeep(t *testing.T) {
	p, err := New(nil, sdk.Env{PluginID: ID})
	require.NoError(t, err)
	srv := llmtest.New(t, llmtest.Text(reply))
	env := llmplugtest.Connect(t, srv, ID, llmplugtest.Setup{MaxCalls: 2})
	env.RC.Conversation = []sdk.Turn{
		{ID: "t1", Role: "user", Text: "What retrieval methods are there?", At: time.Unix(0, 0)},
		{ID: "t1-a", Role: "assistant", Text: "BM25 and dense retrieval.", At: time.Unix(1, 0)},
	}
	res, err := p.(sdk.SDPlugin).DetectSeeds(llmplugtest.Context(t), env.RC, &sdk.SeedInput{
		Payload: sdk.Payload{Prompt: "Our service runs on ARM. Compare them, then recommend one for offline laptops."}, TurnID: "t2"})
	require.NoError(t, err)
	require.Equal(t, sdk.StatusSuccess, res.Status, "%+v", res.Error)
	assert.Equal(t, 1, res.Metadata.LLMCalls)
	ir, err := sop.Interpret(res.IntentCNL)
	require.NoError(t, err)
	require.Len(t, ir.Intents, 2)
	assert.Equal(t, []string{"runs offline"}, ir.Intents[1].Constraints)
	cr, err := sop.Interpret(res.CurrentTurnContextCNL)
	require.NoError(t, err)
	assert.Len(t, cr.ActiveKUs(), 1)

	req := srv.Requests()[0]
	assert.Equal(t, sdk.RoleSeedDeep, env.Stage.Stats().Role)
	assert.Contains(t, req.LastUser(), "user: What retrieval methods are there?\nassistant: BM25 and dense retrieval.")
	assert.Contains(t, req.System(), "Resolve pronouns")
}

func TestPromptExampleIsValid(t *testing.T) {
	msgs, err := prompts.Messages("seed", llmplug.SeedData{Turn: "x", SourceID: "session::t1", ChunkID: "session::t1::chunk-000", FirstUnitID: "session::t1::unit-000"})
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
