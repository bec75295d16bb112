package kbplugin

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/retrieval/kvtest"
)

// The question breaks a file into pieces. The lexicon relates "break" to
// "pause", which the game pages use (with their falling "pieces") in
// another sense: the relative lifts the games among the best pages. The
// terms the games share ("game", "rotate", "drop") are not learnt from
// them, so the games do not climb above the pages that match the
// question's own words.
func TestFeedbackReadsThePagesOfTheQuestionsOwnWords(t *testing.T) {
	st := memStore{kv: kvtest.New()}
	pages := map[string]string{
		"split.md":    "Split a file into pieces.",
		"break.md":    "Break out of a loop.",
		"unlock.md":   "Break a lock another process holds.",
		"debug.md":    "Break at a line of a program.",
		"bastet.md":   "Tetris game: pause the game, rotate and drop the pieces.",
		"yetris.md":   "Tetris game: pause the game, drop and rotate the pieces.",
		"blockout.md": "Tetris game in 3D: rotate the pieces, drop them, pause the game.",
		"cuyo.md":     "Tetris game: drop the pieces, rotate them, pause the game.",
	}
	for _, w := range []string{"compress", "print", "copy", "move", "delete", "sort", "encrypt", "sign", "edit", "hash"} {
		pages[w+".md"] = fmt.Sprintf("%s a file.", w)
	}
	// Pages on other subjects, as a knowledge base holds many.
	for i := range 120 {
		pages[fmt.Sprintf("tool%d.md", i)] = fmt.Sprintf("Manage the settings of tool %d.", i)
	}
	balanced := New(Balanced, st)
	for src, body := range pages {
		u := &kus.KU{ID: src + "::0", SourceID: src, Level: kus.LevelLeaf, Title: strings.TrimSuffix(src, ".md"), TextBody: body}
		require.NoError(t, balanced.index(st.kv, src, []*kus.KU{u}, nil, nil))
	}
	r, err := balanced.Search(context.Background(), plugin.SearchRequest{Query: "How do I break a file into pieces?", K: 5, BySource: true})
	require.NoError(t, err)
	require.NotEmpty(t, r.Hits)
	var ranked []string
	for _, h := range r.Hits {
		ranked = append(ranked, h.SourceID)
	}
	assert.Equal(t, "split.md", ranked[0], ranked)
	assert.Equal(t, "break.md", ranked[1], "a page of the question's own words comes before the games: %v", ranked)
}
