package sdsymbolic

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/kus/sop"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins/internal/plugintest"
)

// detectSeeds runs sd's DetectSeeds on turn as the one turn "t1" and
// requires it to succeed in calling and to write intents sop reads; it
// returns the result and its intents read.
func detectSeeds(t *testing.T, sd plugin.SDPlugin, turn string) (*plugin.SeedResult, *sop.Result) {
	t.Helper()
	res, err := sd.DetectSeeds(context.Background(), plugin.RunContext{}, &plugin.SeedInput{Payload: plugin.Payload{Prompt: turn}, TurnID: "t1"})
	require.NoError(t, err)
	ir, err := sop.Interpret(res.IntentCNL)
	require.NoError(t, err)
	return res, ir
}

// TestWishBesideAQuestion: a wish on its own ("I need to shrink a
// picture.") asks how to do it; beside a question of the same turn it says
// what the question is for, and only the question asks how.
func TestWishBesideAQuestion(t *testing.T) {
	sd := plugintest.New[plugin.SDPlugin](t, New, plugin.Env{PluginID: ID})
	acts := func(turn string) []string {
		_, intents := detectSeeds(t, sd, turn)
		var out []string
		for _, it := range intents.Intents {
			out = append(out, it.Act)
		}
		return out
	}
	assert.Equal(t, []string{"implement"}, acts("I need to shrink a picture."))
	got := acts("I want to write a new theme. Which templates do I have to copy?")
	require.Len(t, got, 2)
	assert.NotEqual(t, "implement", got[0])
}
