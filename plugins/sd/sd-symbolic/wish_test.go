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

// TestWishBesideAQuestion: a wish on its own ("I need to shrink a
// picture.") asks how to do it; beside a question of the same turn it says
// what the question is for, and only the question asks how.
func TestWishBesideAQuestion(t *testing.T) {
	sd := plugintest.New[plugin.SDPlugin](t, New, plugin.Env{PluginID: ID})
	acts := func(turn string) []string {
		res, err := sd.DetectSeeds(context.Background(), plugin.RunContext{}, &plugin.SeedInput{Payload: plugin.Payload{Prompt: turn}, TurnID: "t1"})
		require.NoError(t, err)
		ir, err := sop.Interpret(res.IntentCNL)
		require.NoError(t, err)
		var out []string
		for _, it := range ir.Intents {
			out = append(out, it.Act)
		}
		return out
	}
	assert.Equal(t, []string{"implement"}, acts("I need to shrink a picture."))
	got := acts("I want to write a new theme. Which templates do I have to copy?")
	require.Len(t, got, 2)
	assert.NotEqual(t, "implement", got[0])
}
