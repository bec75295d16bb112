package gssymbolic

import (
	"context"
	"testing"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins/internal/plugintest"
)

const ingestedMD = `# Workspaces

## Which files are ingested

Markdown files under the workspace folder are read, except:

- hidden folders (a name starting with a dot) and vendor trees;
- what the ignore files exclude: the patterns of each folder's ignore file,
  then its parent's; a deeper file wins over its parents, the last
  matching pattern decides, and nothing inside an excluded folder can be
  brought back. Ignore files are read like every other file of the
  workspace: regular files inside it, at most one megabyte, and one that
  is not is reported and its rules are not applied. A pattern that is
  not a valid glob is reported as well, and ignored; changing one of
  these files reloads the workspace;
- the exclude patterns of the settings file.
`

const reloadMD = `# Server

## Config

The config file of the server names its port. The port of the server's config file is read at start. A config file sets the server's port once. The server's port in the config file may be written in YAML.

Saving several times reloads once, after a short pause.
`

// TestFollowUpIsAnsweredOnItsOwnWords: a follow-up completed with the
// topic of an earlier turn is answered by what its own words name, not by
// what only repeats the topic's words; asked on its own, with no earlier
// turn, the question is judged as a whole.
func TestFollowUpIsAnsweredOnItsOwnWords(t *testing.T) {
	for _, tc := range []struct {
		name, id, md, leaf, act, target string
		earlier                         []plugin.Turn
		want, aloneWant, aloneNot       []string
	}{
		// "Are hidden folders read too (files folder)?" shows, of the list
		// its passage holds, the item its own words ("hidden folders")
		// name, not only the one that shares more of the topic's words
		// ("files", "folder"), which every item of the page shares.
		{name: "item of a list", id: "docs/workspaces.md", md: ingestedMD, leaf: "Which files are ingested",
			act: "verify", target: "Are hidden folders read too (files folder)?",
			earlier: []plugin.Turn{{Role: "user", Text: "Which files in my folder are read?"}, {Role: "assistant", Text: "..."}},
			want:    []string{"hidden folders"}, aloneWant: []string{"deeper file wins"}, aloneNot: []string{"hidden folders"}},
		// Of the statements of the topic's passage, the one that says what
		// the follow-up asks in its own words ("save several times
		// quickly") answers, not those that only repeat the topic ("config
		// file server port").
		{name: "statement of a passage", id: "docs/server.md", md: reloadMD, leaf: "Config",
			act: "describe", target: "If I save several times quickly (config file server port)?",
			earlier: []plugin.Turn{{Role: "user", Text: "Must I restart the server after editing its config file?"}, {Role: "assistant", Text: "..."}},
			want:    []string{"short pause"}, aloneNot: []string{"short pause"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := parseMD(t, tc.id, tc.md)
			k := src.leaf(t, tc.leaf)
			checkMD(t, solveInTurn(t, src, k, tc.act, tc.target, tc.earlier), tc.want, nil)
			checkMD(t, solveInTurn(t, src, k, tc.act, tc.target, nil), tc.aloneWant, tc.aloneNot)
		})
	}
}

// solveInTurn answers target from the one unit k of src, after the earlier
// turns conv (none: asked on its own), and returns the answer's Markdown.
func solveInTurn(t *testing.T, src mdSource, k *kus.KU, act, target string, conv []plugin.Turn) string {
	t.Helper()
	p := plugintest.New[plugin.GSPlugin](t, New, plugin.Env{})
	res, err := p.Solve(context.Background(), plugin.RunContext{Corpus: srcCorpus{src.id: src.md}, Conversation: conv},
		&plugin.SolveInput{Payload: plugin.Payload{Prompt: target}, Intents: []plugin.Intent{{ID: "i1", Act: act, Target: target}},
			Evidence: []plugin.ScoredKU{{KU: k, Score: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != plugin.StatusSuccess {
		t.Fatalf("status %s: %s", res.Status, res.ResponseMarkdown)
	}
	return res.ResponseMarkdown
}
