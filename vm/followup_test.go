package vm

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
)

func TestFollowUpDetection(t *testing.T) {
	cases := []struct {
		q    string
		want bool
	}{
		{"How do I list them?", true},
		{"and how do I remove one?", true},
		{"How much does it cost?", true},
		{"Where are its settings?", true},
		{"And form fields from a POST?", true},
		{"What about the log?", true},
		{"How do I run a docker container in the background?", false},
		{"How do I make a script executable so that I can run it from any folder?", false},
		{"What is kb-thinkingdb?", false},
		// The anaphor's antecedent is in an earlier clause of the question.
		{"What is viper and how do I use it?", false},
		{"How do I install cobra, and where do I put its config?", false},
		// A verb before the clause names nothing the anaphor could
		// stand for.
		{"What happens when it crashes?", true},
		{"What happens to cobra when it crashes?", false},
		// Only a how-to's action precedes it: nothing to refer to.
		{"How do I list them and remove them?", true},
		{"How do I see the list of them?", true},
		{"How do I make it listen on another port number?", true},
		{"Which one should I use for multi-hop questions?", true},
		{"Can I also see the sizes?", true},
		{"Can I do that for a folder as well?", true},
		{"Should I use rsync instead?", true},
		{"How do I fix an argument list too long error?", false},
		{"Which one should I use, scp or rsync?", false},
		{"Is there a command that counts words?", false},
		// "that" as the determiner of a noun named before.
		{"How do I open that file again later?", true},
		{"How do I delete that branch?", true},
		{"How do I check that the file exists?", false},
		{"Is there a tool that converts images to text?", false},
		{"How do I delete a file if it is locked by another process?", false},
		// A clause of time or condition naming nothing speaks of a
		// state the conversation set up.
		{"Once I'm in, how do I download a whole folder?", true},
		{"If so, how do I print the report?", true},
		{"When the build fails, how do I print the report?", false},
	}
	for _, tc := range cases {
		t.Run(tc.q, func(t *testing.T) {
			got, _ := followUp(tc.q)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestTopicOf(t *testing.T) {
	common := map[string]bool{"run": true, "creat": true, "read": true} // analysed terms
	rare := func(t string) bool { return !common[t] }
	cases := []struct{ query, source, title, want string }{
		{"How do I run a docker container in the background?", "common/docker-container-run.md", "docker container run", "docker container"},
		{"How do I stash my changes in git?", "common/git-stash.md", "git stash", "stash git"},
		{"How do I add a flag to a urfave/cli app?", "urfave-cli/docs/v2/examples/flags.md", "Flags", "flag urfave/cli"},
		{"What is kb-thinkingdb?", "plugin::kb-thinkingdb", "kb-thinkingdb", "kb-thinkingdb"},
		{"How do I install the VS Code extension?", "README.md", "Editors", "VS Code extension"},
		// Only the action names the page that answered: the other words
		// are the topic, not nothing.
		{"How do I create a new user on linux?", "common/docker-buildx-create.md", "docker buildx create", "new user linux"},
		// A compound name holds the word it starts with.
		{"How do I create a new group of users on Linux?", "linux/groupadd.md", "groupadd", "group Linux"},
		{"How do I read a config file with viper?", "viper/README.md", "Reading Config Files", "config file viper"},
		{"How do I read query string parameters in gin?", "gin/docs/doc.md", "API Examples", "gin"},
		// A page named after the action alone is the command asked for,
		// although "find" is a light verb elsewhere.
		{"How do I find files by name?", "common/find.md", "find", "find"},
		// The question names part of a two-word page name: the topic is
		// the thing the page is named after.
		{"How do I see the log of a GitHub Actions job with gh?", "common/gh-run.md", "gh run", "gh run"},
		{"Which chi middleware puts a request ID into the context?", "chi/README.md", "Core middlewares", "chi middleware ID Core"},
	}
	for _, tc := range cases {
		t.Run(tc.query, func(t *testing.T) {
			got, _ := topicOf(tc.query, tc.source, tc.title, rare)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestAnchorsOf(t *testing.T) {
	pages := map[string]string{"common/git-stash.md": "git stash", "README.md": "mrpvm", "editor.md": "Editor extension",
		"common/docker-container-run.md": "docker container run"}
	cases := []struct {
		query, topic string
		cited        []Evidence
		want         []string
	}{
		// The page is named after the entity asked about: a follow-up
		// continues on it.
		{"How do I stash my changes in git?", "stash git", []Evidence{{KUID: "g", SourceID: "common/git-stash.md", Title: "git stash"}}, []string{"common/git-stash.md"}},
		{"How do I install the VS Code extension?", "VS Code extension", []Evidence{{KUID: "r", SourceID: "README.md", Title: "Visual Studio Code"}}, []string{"README.md"}},
		// A section named after the action is still part of the page.
		{"How do I install the editor extension?", "editor", []Evidence{{KUID: "e", SourceID: "editor.md", Title: "Installing"}}, []string{"editor.md"}},
		// The page is named after the action done to it: a follow-up
		// asking for another action wants another page.
		{"How do I run a docker container in the background?", "docker container", []Evidence{{KUID: "d", SourceID: "common/docker-container-run.md", Title: "docker container run"}}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.query, func(t *testing.T) {
			got, _ := anchorsOf(tc.query, tc.topic, tc.cited, func(id string) string { return pages[id] })
			assert.Equal(t, tc.want, got)
		})
	}
}

// TestFollowUpsAndBadInput covers the session cases of bad input and the
// completion of a follow-up: each gets a defined status and code, and no
// turn that did not answer gives a later follow-up its topic.
func TestFollowUpsAndBadInput(t *testing.T) {
	kb := &testKB{Base: descriptor(t, "kb-t", plugin.TypeKB, ""), units: []*kus.KU{
		{ID: "docker.md::0::0", Title: "docker container run", Claim: "Run a docker container.", TextBody: "Run a docker container.", SourceID: "docker.md", Level: kus.LevelLeaf},
	}}
	var prompts []string
	gs := &testGS{Base: descriptor(t, "gs-t", plugin.TypeGS, ""), solve: func(ctx context.Context, in *plugin.SolveInput) (*plugin.SolveResult, error) {
		prompts = append(prompts, in.Payload.Prompt)
		return answer("Run it [1].")(ctx, in)
	}}
	m, _ := setup(t, nil, kb, gs)
	ctx := context.Background()

	t.Run("unknown session id", func(t *testing.T) {
		_, err := m.Ask(ctx, Request{Question: "How do I run a docker container?", SessionID: "s-none"})
		assert.ErrorIs(t, err, ErrSessionNotFound)
		_, err = m.Session("s-none")
		assert.ErrorIs(t, err, ErrSessionNotFound, "nothing was created")
	})
	t.Run("only stop words", func(t *testing.T) {
		resp, err := m.Ask(ctx, Request{Question: "what is the of and?"})
		require.NoError(t, err)
		assert.Equal(t, StatusNoContext, resp.Status)
		assert.Contains(t, errorCodes(resp), CodeNoContentTerms)
	})
	t.Run("follow-up opening a session", func(t *testing.T) {
		resp, err := m.Ask(ctx, Request{Question: "How do I list them?"})
		require.NoError(t, err)
		assert.Equal(t, StatusNoContext, resp.Status)
		assert.Contains(t, errorCodes(resp), CodeFollowUpNoContext)
		s, err := m.Session(resp.SessionID)
		require.NoError(t, err)
		assert.Empty(t, s.Context, "a turn that did not answer leaves no topic")
	})
	t.Run("follow-up completed", func(t *testing.T) {
		r1, r2, m2 := followUpElsewhere(t, m, "How do I run a docker container in the background?", "and how do I remove one?", func() { prompts = nil })
		assert.Equal(t, "How do I remove one (docker container)?", r2.SearchedFor, "the page named after \"run\" does not say \"remove\"")
		assert.Equal(t, r2.SearchedFor, r2.Trace.SearchedFor)
		require.NotEmpty(t, prompts)
		assert.Equal(t, r2.SearchedFor, prompts[0], "the solver works on the completed question")
		s, err := m2.Session(r1.SessionID)
		require.NoError(t, err)
		assert.Equal(t, "and how do I remove one?", s.Turns[len(s.Turns)-2].Text, "the turn keeps what the user wrote")
	})
}

// followUpElsewhere asks first of m, which must answer it, calls reset,
// and asks followUp in the same session of a new machine over the same
// knowledge base (another process); it returns both responses and the new
// machine.
func followUpElsewhere(t *testing.T, m *Machine, first, followUp string, reset func()) (r1, r2 *Response, m2 *Machine) {
	t.Helper()
	ctx := context.Background()
	r1, err := m.Ask(ctx, Request{Question: first})
	require.NoError(t, err)
	require.Equal(t, StatusAnswered, r1.Status)
	reset()
	m2 = New(m.KB(), m.Catalog(), Options{})
	r2, err = m2.Ask(ctx, Request{Question: followUp, SessionID: r1.SessionID})
	require.NoError(t, err)
	return r1, r2, m2
}

// TestFollowUpIsAnsweredFromItsOwnWords: the carried topic brings back
// the page's passages that only match the topic; the follow-up is first
// solved from the passages holding its own words, over a real knowledge
// base file and across machines (processes).
func TestFollowUpIsAnsweredFromItsOwnWords(t *testing.T) {
	intro := &kus.KU{ID: "tool.md::0::0", Title: "tool", Claim: "tool is a request router for tool apps.", TextBody: "tool is a request router for tool apps.",
		SourceID: "tool.md", Level: kus.LevelLeaf}
	mw := &kus.KU{ID: "tool.md::1::0", Title: "Middleware", Claim: "Add middleware to a router with Use.", TextBody: "Add middleware to a router with Use.",
		SourceID: "tool.md", Level: kus.LevelLeaf}
	kb := &testKB{Base: descriptor(t, "kb-t", plugin.TypeKB, ""), units: []*kus.KU{intro, mw}}
	var given [][]string
	gs := &testGS{Base: descriptor(t, "gs-t", plugin.TypeGS, ""), solve: func(ctx context.Context, in *plugin.SolveInput) (*plugin.SolveResult, error) {
		var ids []string
		for _, e := range in.Evidence {
			ids = append(ids, e.KU.ID)
		}
		given = append(given, ids)
		return answer("It is [1].")(ctx, in)
	}}
	m, _ := setup(t, nil, kb, gs)
	_, r2, _ := followUpElsewhere(t, m, "How do I route requests with tool?", "How do I add middleware to it?", func() { given = nil })
	assert.Equal(t, StatusAnswered, r2.Status)
	assert.Contains(t, r2.SearchedFor, "tool")
	require.NotEmpty(t, given)
	assert.Equal(t, []string{mw.ID}, given[0], "the first view holds only the passage with the follow-up's own words")
	require.NotEmpty(t, r2.Evidence)
	assert.Equal(t, mw.ID, r2.Evidence[0].KUID)
}

// unansweredOpener asks question of a machine whose knowledge base is
// empty (kb, to fill later) and whose goal solver answers with text, and
// requires that the turn goes unanswered.
func unansweredOpener(t *testing.T, question, text string) (*Machine, *testKB, *Response) {
	t.Helper()
	kb := &testKB{Base: descriptor(t, "kb-t", plugin.TypeKB, "")}
	gs := &testGS{Base: descriptor(t, "gs-t", plugin.TypeGS, ""), solve: answer(text)}
	m, _ := setup(t, nil, kb, gs)
	r1, err := m.Ask(context.Background(), Request{Question: question})
	require.NoError(t, err)
	require.Equal(t, StatusNoContext, r1.Status)
	return m, kb, r1
}

// TestFollowUpAfterAnUnansweredTurn: a question the knowledge base had
// no answer for still sets what the conversation is about (the user's
// words, never the pages it was shown), so the follow-up is searched
// with them rather than refused as having nothing to follow.
func TestFollowUpAfterAnUnansweredTurn(t *testing.T) {
	m, _, r1 := unansweredOpener(t, "How do I rotate nginx access logs?", "x")
	ctx := context.Background()

	r2, err := m.Ask(ctx, Request{Question: "How do I compress them?", SessionID: r1.SessionID})
	require.NoError(t, err)
	assert.NotContains(t, errorCodes(r2), CodeFollowUpNoContext)
	assert.Equal(t, "How do I compress them (nginx access logs)?", r2.SearchedFor)
	s, err := m.Session(r1.SessionID)
	require.NoError(t, err)
	require.Len(t, s.Context, 2)
	assert.Empty(t, s.Context[0].Sources, "an unanswered turn lends no pages")
	assert.Empty(t, s.Context[0].Anchors)
}

// TestFamilyOf: a page named after the action asked for belongs to the
// family its name shares with its siblings; a page named after the thing
// asked about, or a question that asks for no action, has none.
func TestFamilyOf(t *testing.T) {
	assert.Equal(t, "docker-container", familyOf("How do I run a docker container in the background?", "docker container", "common/docker-container-run.md"))
	assert.Equal(t, "git-branch", familyOf("How can I delete a local branch?", "git branch", "common/git-branch-delete.md"))
	assert.Equal(t, "", familyOf("How do I stash my changes in git?", "stash git", "common/git-stash.md"), "named after what is asked about")
	assert.Equal(t, "", familyOf("What is a docker container?", "docker container", "common/docker-container-run.md"), "no action asked for")
	assert.Equal(t, "", familyOf("How do I create a new group?", "group", "linux/groupadd.md"), "no sibling name")
	assert.True(t, inFamily("common/docker-container-ls.md", "docker-container"))
	assert.True(t, inFamily("common/docker-container.md", "docker-container"))
	assert.False(t, inFamily("common/docker-containers.md", "docker-container"))
}

// TestPageLead: what a page leads with is its title and first paragraph
// or quoted description, not its examples.
func TestPageLead(t *testing.T) {
	assert.Equal(t, "docker container ls\nList Docker containers.\nMore information: <https://example.org>.\n",
		pageLead([]byte("# docker container ls\n\n> List Docker containers.\n> More information: <https://example.org>.\n\n- Show all:\n\n`docker container ls --all`\n")))
	assert.Equal(t, "Viper\nViper is a complete configuration solution\nfor Go applications.\n",
		pageLead([]byte("# Viper\n\nViper is a complete configuration solution\nfor Go applications.\n\n## Install\n\nRun go get.\n")))
	assert.Equal(t, "Title\n", pageLead([]byte("# Title\n\n```sh\nrm -rf /\n```\n")))
}

// TestOpposites: a negative prefix added, taken away or put in place of
// "en-" makes a word's opposite.
func TestOpposites(t *testing.T) {
	assert.Contains(t, opposites("immutable"), "mutable")
	assert.Contains(t, opposites("mount"), "unmount")
	assert.NotContains(t, opposites("line"), "inline", "a thing has no opposite made with a prefix")
	assert.Contains(t, opposites("enable"), "disable")
	assert.Contains(t, opposites("encrypt"), "decrypt")
	assert.NotContains(t, opposites("info"), "fo", "too little is left without the prefix")
}

// TestWithNamed: a follow-up adds to the conversation's topic the things
// it names itself, not its actions, auxiliaries or pronouns.
func TestWithNamed(t *testing.T) {
	assert.Equal(t, "configuration files workspace", withNamed("configuration files", "Can a workspace override them?"))
	assert.Equal(t, "git stash", withNamed("git stash", "and how do I delete it?"))
	assert.Equal(t, "kb-thinkingdb", withNamed("kb-thinkingdb", "How is it different?"))
	assert.Equal(t, "rsync", withNamed("rsync", "and delete them?"))
}

func TestUnnamedTopic(t *testing.T) {
	assert.True(t, unnamedTopic(&TurnContext{Anchors: []string{"common/at.md", "linux/at.md"}}), "at is a stop word")
	assert.True(t, unnamedTopic(&TurnContext{Sources: []string{"common/at.md", "common/crontab.md"}}), "without anchors, the first source")
	assert.False(t, unnamedTopic(&TurnContext{Anchors: []string{"common/wc.md"}}))
	assert.False(t, unnamedTopic(&TurnContext{Anchors: []string{"plugin::at"}}), "a built-in source")
	assert.False(t, unnamedTopic(&TurnContext{}))
}

// TestAnsweredFollowUpNarrowsAnUnansweredTopic: a topic carried from a
// turn nothing answered is every word that turn asked; once a follow-up is
// answered, the topic it passes on is the words naming the answering page.
func TestAnsweredFollowUpNarrowsAnUnansweredTopic(t *testing.T) {
	m, kb, r1 := unansweredOpener(t, "How do I rotate nginx access logs daily?", "Compress it [1].")
	ctx := context.Background()

	kb.units = []*kus.KU{{ID: "nginx.md::0::0", Title: "nginx", Claim: "Compress the logs of nginx with gzip.",
		TextBody: "Compress the logs of nginx with gzip.", SourceID: "nginx.md", Level: kus.LevelLeaf}}
	r2, err := m.Ask(ctx, Request{Question: "How do I compress them?", SessionID: r1.SessionID})
	require.NoError(t, err)
	require.Equal(t, StatusAnswered, r2.Status)
	s, err := m.Session(r1.SessionID)
	require.NoError(t, err)
	require.Len(t, s.Context, 2)
	assert.Equal(t, "nginx", s.Context[1].Topic, "the words naming the answering page")
}

// TestOwnSectionFirst: among the units of the conversation's page ranked
// nearly as high as the first, the one holding more of the follow-up's
// own words leads, a little ahead of the one it displaces; a unit ranked
// well below, or of another page, does not.
func TestOwnSectionFirst(t *testing.T) {
	what := &kus.KU{ID: "viper/README.md::2::0", SourceID: "viper/README.md", Title: "What is Viper?", TextBody: "Viper supports reading from command line flags."}
	iface := &kus.KU{ID: "viper/README.md::14::0", SourceID: "viper/README.md", Title: "Flag interfaces", TextBody: "Implement the FlagValueSet interface: its method VisitAll visits each flag of the set."}
	other := &kus.KU{ID: "cli/README.md::3::0", SourceID: "cli/README.md", Title: "Flags", TextBody: "Implement the method of the set type."}
	r := &run{own: []string{"method", "set", "type", "implement"}, trace: &Trace{}}
	for _, tc := range []struct {
		name string
		ev   []plugin.ScoredKU
		want string
	}{
		{"a section of the page nearly as high", []plugin.ScoredKU{{KU: what, Score: 1}, {KU: iface, Score: 0.9}}, iface.ID},
		{"a section of the page well below", []plugin.ScoredKU{{KU: what, Score: 1}, {KU: iface, Score: 0.5}}, what.ID},
		{"another page", []plugin.ScoredKU{{KU: what, Score: 1}, {KU: other, Score: 0.95}}, what.ID},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := r.ownSectionFirst(tc.ev)
			require.Len(t, got, len(tc.ev))
			assert.Equal(t, tc.want, got[0].KU.ID)
			if tc.want != tc.ev[0].KU.ID {
				assert.Greater(t, got[0].Score, got[1].Score)
			}
		})
	}
}
