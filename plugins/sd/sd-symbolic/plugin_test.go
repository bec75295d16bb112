package sdsymbolic

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/kus/sop"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins/internal/plugintest"
)

// TestTurnContextIsGrouped: a mixed turn's instructions and facts become
// coherent KUs (the answer-form instructions together, the facts about one
// subject together), each with the PhaseScopes of the phase it serves,
// while every task stays its own intent.
func TestTurnContextIsGrouped(t *testing.T) {
	sd := plugintest.New[plugin.SDPlugin](t, New, plugin.Env{PluginID: ID})
	type unit struct {
		scope, kuType, claim string
		triple               bool
	}
	cases := []struct {
		name    string
		turn    string
		intents int
		units   []unit
	}{
		{"two form instructions, two subjects", "What does AchillesIDE use? Answer in one sentence. Use bullet points. AchillesIDE uses Ploinky. AchillesIDE requires Node. Ploinky provides sandboxes. Cite your sources.", 1, []unit{
			{"gs-plugin", "composite", "Answer in one sentence. Use bullet points.", false},
			{"kb-plugin", "composite", "AchillesIDE uses Ploinky. AchillesIDE requires Node.", false},
			{"kb-plugin", "atomic", "Ploinky provides sandboxes.", true},
			{"val-plugin", "atomic", "Cite your sources.", false},
		}},
		{"two tasks, one instruction each phase", "Explain Ploinky. Compare it with Docker? Think deeply. Break it down step by step.", 2, []unit{
			{"mrp-plan-plugin", "atomic", "Think deeply.", false},
			{"frame", "atomic", "Break it down step by step.", false},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, ir := detectSeeds(t, sd, tc.turn)
			require.Equal(t, plugin.StatusSuccess, res.Status)
			assert.Len(t, ir.Intents, tc.intents)
			cr, err := sop.Interpret(res.CurrentTurnContextCNL)
			require.NoError(t, err, res.CurrentTurnContextCNL)
			var got []unit
			for _, k := range cr.ActiveKUs() {
				require.Len(t, k.PhaseScopes, 1)
				got = append(got, unit{k.PhaseScopes[0], k.KUType, k.Claim, k.HasFact()})
			}
			assert.Equal(t, tc.units, got)
		})
	}
}

// TestNormalizeMarkdownIsTheMarkdownReader: a Markdown source comes back as
// the Markdown reader's hierarchy (sections, Context Unit blocks and all),
// other text as grouped paragraph KUs in contextCNL.
func TestNormalizeMarkdownIsTheMarkdownReader(t *testing.T) {
	sd := plugintest.New[plugin.SDPlugin](t, New, plugin.Env{PluginID: ID})
	src := "# Guide\n\n## Install\n\nRun the installer. Paris is part of France.\n\n## Use\n\nOpen the app.\n"
	cases := []struct {
		name, sourceType string
		doc              bool
	}{
		{"markdown", kus.SourceMarkdown, true},
		{"unset type is markdown", "", true},
		{"plain text", kus.SourcePlainText, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			info := kus.SourceInfo{SourceID: "guide.md", SourceName: "guide.md", SourceType: tc.sourceType}
			res, err := sd.NormalizePersistentContext(context.Background(), plugin.RunContext{HookType: plugin.HookSourceText},
				&plugin.NormalizeInput{Source: info, Text: src})
			require.NoError(t, err)
			require.Equal(t, plugin.StatusSuccess, res.Status)
			if !tc.doc {
				assert.Nil(t, res.Doc)
				r, err := sop.Interpret(res.ContextCNL)
				require.NoError(t, err)
				assert.NotEmpty(t, r.ActiveKUs())
				return
			}
			want, err := kus.Parse([]byte(src), info)
			require.NoError(t, err)
			require.NotNil(t, res.Doc)
			assert.Empty(t, res.ContextCNL)
			assert.Equal(t, want, res.Doc)
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := sd.NormalizePersistentContext(ctx, plugin.RunContext{}, &plugin.NormalizeInput{Source: kus.SourceInfo{SourceID: "a.md"}, Text: src})
	assert.ErrorIs(t, err, context.Canceled, "a cancelled read stops")
}
