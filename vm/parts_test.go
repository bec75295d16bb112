package vm

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugin/text"
)

// namedBy is the test partContext takes of whether a term names the
// source an earlier part was answered from: it holds for the terms of s
// (text.Terms) and no other.
func namedBy(s string) func(string) bool {
	set := map[string]bool{}
	for _, t := range text.Terms(s) {
		set[t] = true
	}
	return func(t string) bool { return set[t] }
}

// TestPartContext: a part of a multi-part question that points back at
// the part before it is searched with that part's words; one that does
// not name the source the part before was answered from borrows its name;
// a part that stands alone, or the first part, borrows nothing.
func TestPartContext(t *testing.T) {
	cases := []struct {
		name  string
		parts []string
		i     int
		named func(string) bool
		lead  bool // the earlier part starts with its action
		want  string
	}{
		{"anaphor takes the earlier part's words", []string{"see my scheduled cron jobs", "wipe all of them"}, 1, nil, true, "my scheduled cron jobs"},
		{"anaphor after its own clause break", []string{"logrus do after logging a fatal message", "run cleanup code before that"}, 1, nil, false,
			"logrus do after logging a fatal message"},
		{"a pointer in time stands for the earlier part's event", []string{"logrus do after logging a fatal message", "run cleanup code before that"}, 1,
			namedBy("logrus README Fatal handlers"), false, "logrus do after logging a fatal message"},
		{"a pointer not in time lends what named the answer", []string{"logrus log a fatal message", "change its format"}, 1,
			namedBy("logrus README Fatal handlers"), false, "logrus fatal"},
		{"one points back", []string{"tell which git branch I'm on", "delete a local one"}, 1, namedBy("common git-branch git branch"), true, "git branch"},
		{"it is the thing, not what was done to it", []string{"add middleware to a chi router", "serve static files with it"}, 1,
			namedBy("chi README Router interface"), true, "chi router"},
		{"an action naming the page is not carried", []string{"run a docker container in the background", "list them"}, 1,
			namedBy("common docker-container-run docker container run"), true, "docker container"},
		{"a choice is carried whole", []string{"Should I use zip or gzip to compress my files", "how do they differ"}, 1, namedBy("common gzip gzip"), false,
			"Should I use zip or gzip to compress my files"},
		{"a choice stays a choice", []string{"Should I use zip or gzip to compress my files", "how do they differ"}, 1, nil, false,
			"Should I use zip or gzip to compress my files"},
		{"the source's name is carried", []string{"give a viper key a fallback value", "pick up changes when the config file is edited"}, 1, namedBy("viper README"), true, "viper"},
		{"a part naming it itself borrows nothing", []string{"group gin routes", "run the gin server on port 8080"}, 1, namedBy("gin docs doc"), true, ""},
		{"a pointer whose thing the part names itself borrows nothing", []string{"With pandoc, how do I choose which PDF engine it uses",
			"With pandoc, how do I list the output formats it supports"}, 1, namedBy("common pandoc pandoc"), false, ""},
		{"which one is another of the earlier part's kind", []string{"command shows disk usage of a folder", "one shows free memory"}, 1,
			namedBy("common du du"), false, "command"},
		{"the first part borrows nothing", []string{"see my scheduled cron jobs", "wipe all of them"}, 0, nil, true, ""},
		{"unanswered earlier part, standalone part", []string{"give a viper key a fallback value", "pick up changes when the config file is edited"}, 1, nil, true, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, partContext(c.parts, c.i, c.named, c.named, c.lead))
		})
	}
}

// TestPartContextLendsPageNotSection: a part that does not point back
// borrows the name of the page the part before it was answered from, not
// the title of the section it was answered from, which is what that part
// asked about; a part that points back still takes what the section names.
func TestPartContextLendsPageNotSection(t *testing.T) {
	named, page := namedBy("acme docs guide Parse Header Lines"), namedBy("acme docs guide")
	parts := []string{"in acme, parse header lines of a request", "parse the query string"}
	assert.Equal(t, "acme", partContext(parts, 1, named, page, false))
	pointing := []string{"in acme, parse header lines of a request", "log them"}
	assert.Equal(t, "acme parse header lines", partContext(pointing, 1, named, page, false))
}

// TestPartAsFollowUp: while a part that borrowed the words of the part
// before it runs, the source that part was answered from is the anchor
// the follow-up machinery prefers, and the part's own words (not the
// borrowed ones) choose the passage; the run's state comes back after.
// A part that borrowed nothing, or a question that is itself a follow-up,
// leaves the state alone.
func TestPartAsFollowUp(t *testing.T) {
	r := &run{}
	restore := r.partAsFollowUp("delete a local one", "delete a local one (git branch)", "common/git-branch.md", []string{"common/git-branch.md::0::1"}, "How do I see which git branch I am on")
	if assert.NotNil(t, r.carried) {
		assert.Equal(t, []string{"common/git-branch.md"}, r.carried.Anchors)
		assert.Equal(t, []string{"common/git-branch.md::0::1"}, r.carried.AnchorKUs)
		assert.Equal(t, "git branch", r.carried.Topic)
	}
	assert.Equal(t, text.Terms("delete local"), r.own)
	restore()
	assert.Nil(t, r.carried)
	assert.Nil(t, r.own)

	r.partAsFollowUp("delete a local one", "delete a local one", "common/git-branch.md", nil, "")()
	assert.Nil(t, r.carried, "nothing borrowed: not a follow-up of the part before")
	prev := &TurnContext{TurnID: "t1", Topic: "docker"}
	r.carried = prev
	r.partAsFollowUp("delete a local one", "delete a local one (git branch)", "common/git-branch.md", nil, "")
	assert.Same(t, prev, r.carried, "a follow-up question keeps its own conversation")

	r.carried = nil
	r.partAsFollowUp("stop it", "stop it (docker container)", "common/docker-container-start.md", nil, "How do I start a docker container")
	if assert.NotNil(t, r.carried) {
		assert.Equal(t, "docker-container", r.carried.Family, "the part before's page is named after its action: its family is carried")
		assert.Empty(t, r.carried.Anchors)
	}
}

// TestTrailingScope: the scope a question closes with is read from its
// last part; a part without one, or one part alone, has none.
func TestTrailingScope(t *testing.T) {
	assert.Equal(t, "gin", trailingScope([]string{"group routes", "run the server in gin?"}))
	assert.Equal(t, "urfave/cli", trailingScope([]string{"add a flag", "make it required with urfave/cli"}))
	assert.Equal(t, "", trailingScope([]string{"group routes", "run the server on port 8080?"}))
	assert.Equal(t, "", trailingScope([]string{"run the server in gin"}))
}

// TestContinuedClauses: a clause after ", and" that points back at what
// the clause before it named is a task of its own; one that does not
// qualifies the task.
func TestContinuedClauses(t *testing.T) {
	assert.Equal(t, []string{"pack a directory into a tar.gz file", "unpack it into another folder"},
		continuedClauses("pack a directory into a tar.gz file, and later unpack it into another folder"))
	assert.Equal(t, []string{"create a branch", "push it to the remote"},
		continuedClauses("create a branch, then push it to the remote"))
	assert.Equal(t, []string{"copy files, and keep their permissions"},
		continuedClauses("copy files, and keep their permissions"))
	assert.Equal(t, []string{"list containers"}, continuedClauses("list containers"))
	assert.Equal(t, []string{"start a docker container", "stop it", "remove it"},
		continuedClauses("start a docker container, stop it, and remove it"))
	assert.Equal(t, []string{"run the job, if it fails"}, continuedClauses("run the job, if it fails"))
	assert.Equal(t, []string{"copy a file, keeping it as it is"}, continuedClauses("copy a file, keeping it as it is"))
}

// correctingKB is a testKB that reports the query as searched with
// "colr" corrected to "color", as a kb-plugin's spelling correction does.
type correctingKB struct{ testKB }

func (p *correctingKB) Retrieve(ctx context.Context, rc plugin.RunContext, in *plugin.RetrieveInput) (*plugin.RetrieveResult, error) {
	res, err := p.testKB.Retrieve(ctx, rc, in)
	if err == nil && strings.Contains(in.Payload.Prompt, "colr") {
		res.RetrievalTrace.SearchedFor = strings.ReplaceAll(in.Payload.Prompt, "colr", "color")
	}
	return res, err
}

// TestPartsAreSearchedForAsThemselves: a spelling correction made while
// one part of a multi-part question is retrieved belongs to that part:
// the next part is solved and validated on its own words, and the
// answer as a whole does not claim to have searched for one part.
func TestPartsAreSearchedForAsThemselves(t *testing.T) {
	sd := &intentSD{Base: descriptor(t, "sd-t", plugin.TypeSD, ""),
		intent: "@i1 intent implement \"set the colr of the prompt\"\n@i2 set $i1 output procedure\n" +
			"@i3 intent implement \"reset the size of the window\"\n@i4 set $i3 output procedure\n"}
	kb := &correctingKB{testKB{Base: descriptor(t, "kb-t", plugin.TypeKB, ""), units: []*kus.KU{leaf("doc.md::0::0", "Set the color of the prompt, reset the size of the window.")}}}
	var mu sync.Mutex
	searched := map[string]string{}
	gs := &testGS{Base: descriptor(t, "gs-t", plugin.TypeGS, ""), solve: func(ctx context.Context, in *plugin.SolveInput) (*plugin.SolveResult, error) {
		if len(in.Intents) > 1 {
			return &plugin.SolveResult{Status: plugin.StatusNeedsDecomposition}, nil
		}
		mu.Lock()
		searched[in.Intents[0].Target] = in.SearchedFor
		mu.Unlock()
		return answer("Done [1].")(ctx, in)
	}}
	m, _ := setup(t, nil, sd, kb, gs)
	resp, err := m.Ask(context.Background(), Request{Question: "How do I set the colr of the prompt and reset the size of the window?"})
	require.NoError(t, err)
	require.Equal(t, StatusAnswered, resp.Status, "%v", resp.Trace.Errors)
	assert.Equal(t, "set the color of the prompt", searched["set the colr of the prompt"])
	assert.Equal(t, "", searched["reset the size of the window"], "the first part's correction is not the second part's query")
	assert.Equal(t, "How do I set the color of the prompt and reset the size of the window?", resp.SearchedFor,
		"the question as searched is the whole question's correction, not one part's")
}

// TestPartsFirstThenTheWhole: a question whose wording splits into parts
// ("..., and later unpack it ...") is answered part by part first; when
// no part finds an answer, the question is still tried whole.
func TestPartsFirstThenTheWhole(t *testing.T) {
	kb := &testKB{Base: descriptor(t, "kb-t", plugin.TypeKB, ""), units: []*kus.KU{leaf("tar.md::0::0", "Create an archive and extract it elsewhere with tar.")}}
	var mu sync.Mutex
	var prompts []string
	wholeOnly := false
	gs := &testGS{Base: descriptor(t, "gs-t", plugin.TypeGS, ""), solve: func(ctx context.Context, in *plugin.SolveInput) (*plugin.SolveResult, error) {
		mu.Lock()
		prompts = append(prompts, in.Payload.Prompt)
		mu.Unlock()
		if wholeOnly && !strings.Contains(in.Payload.Prompt, "and later") {
			return &plugin.SolveResult{Status: plugin.StatusNoContext}, nil
		}
		return answer("Use tar [1].")(ctx, in)
	}}
	m, _ := setup(t, nil, kb, gs)
	q := "How do I pack a directory into a tar.gz file, and later unpack it into another folder?"

	resp, err := m.Ask(context.Background(), Request{Question: q})
	require.NoError(t, err)
	require.Equal(t, StatusAnswered, resp.Status)
	require.NotEmpty(t, prompts)
	assert.Equal(t, "How do I pack a directory into a tar.gz file", prompts[0], "the first part is solved first, on its own")
	assert.Contains(t, resp.AnswerMarkdown, "### unpack it into another folder")

	prompts, wholeOnly = nil, true
	resp, err = m.Ask(context.Background(), Request{Question: q})
	require.NoError(t, err)
	assert.Equal(t, StatusAnswered, resp.Status, "no part answered: the whole question is tried")
	assert.Equal(t, q, prompts[len(prompts)-1])
}

func TestPointsAtEvent(t *testing.T) {
	for part, want := range map[string]bool{
		"run cleanup code before that": true,
		"what happens after it":        true,
		"keep it running until then":   true,
		"serve static files with it":   false,
		"delete a local one":           false,
		"run cleanup before exiting":   false,
	} {
		assert.Equal(t, want, pointsAtEvent(part), part)
	}
}

// promptVal rejects the answers to prompts that hold a word.
type promptVal struct {
	plugin.Base
	plugin.UnimplementedVal
	reject string
}

func (p *promptVal) Validate(ctx context.Context, rc plugin.RunContext, in *plugin.ValidateInput) (*plugin.ValidateResult, error) {
	if strings.Contains(in.Payload.Prompt, p.reject) {
		return &plugin.ValidateResult{Status: plugin.StatusRejected, Verdict: plugin.StatusRejected, Reason: "\"" + p.reject + "\" is not covered"}, nil
	}
	return &plugin.ValidateResult{Status: plugin.StatusAccepted, Verdict: plugin.StatusAccepted}, nil
}

// TestRejectedPartIsReportedUnanswered: when validation rejects one part
// of a multi-part question, the response is answered for the parts it
// accepted, says up front and under the part that the rejected part has
// no answer, shows no text of the rejected candidate, points at the pages
// it rested on and lists the part in Unanswered; with every part rejected
// the question is no-context.
func TestRejectedPartIsReportedUnanswered(t *testing.T) {
	kb := &testKB{Base: descriptor(t, "kb-t", plugin.TypeKB, ""), units: []*kus.KU{sourceLeaf("tar.md::0::0", "tar.md", "Create an archive and extract it elsewhere with tar.")}}
	gs := &testGS{Base: descriptor(t, "gs-t", plugin.TypeGS, ""), solve: func(ctx context.Context, in *plugin.SolveInput) (*plugin.SolveResult, error) {
		return answer("Answer to: "+in.Payload.Prompt+" [1].")(ctx, in)
	}}
	val := &promptVal{Base: descriptor(t, "val-t", plugin.TypeVal, ""), reject: "unpack"}
	m, _ := setup(t, nil, kb, gs, val)
	q := "How do I pack a directory into a tar.gz file, and later unpack it into another folder?"

	resp, err := m.Ask(context.Background(), Request{Question: q})
	require.NoError(t, err)
	require.Equal(t, StatusAnswered, resp.Status, "%v", resp.Trace.Errors)
	assert.Equal(t, []string{"unpack it into another folder"}, resp.Unanswered)
	assert.True(t, strings.HasPrefix(resp.AnswerMarkdown, "Only part of this question is answered; no accepted answer was found for: unpack it into another folder."), resp.AnswerMarkdown)
	_, rejectedPart, ok := strings.Cut(resp.AnswerMarkdown, "### unpack it into another folder")
	require.True(t, ok, resp.AnswerMarkdown)
	assert.Contains(t, rejectedPart, "Not answered: the answer found for this part was rejected by validation (\"unpack\" is not covered).")
	assert.Contains(t, rejectedPart, "You may look at:\n- tar — tar.md:1")
	assert.NotContains(t, rejectedPart, "Answer to:", "a rejected candidate is not shown")
	assert.Contains(t, resp.AnswerMarkdown, "Answer to: How do I pack a directory into a tar.gz file", "the accepted part is answered")

	val.reject = "tar"
	resp, err = m.Ask(context.Background(), Request{Question: q})
	require.NoError(t, err)
	assert.Equal(t, StatusNoContext, resp.Status, "no part accepted: no-context")
	assert.Empty(t, resp.Unanswered)
}

// wordKB returns only the units of then when the prompt holds word, else
// all units in order.
type wordKB struct {
	testKB
	word string
	then []*kus.KU
}

func (p *wordKB) Retrieve(ctx context.Context, rc plugin.RunContext, in *plugin.RetrieveInput) (*plugin.RetrieveResult, error) {
	if strings.Contains(in.Payload.Prompt, p.word) {
		return (&testKB{Base: p.Base, units: p.then}).Retrieve(ctx, rc, in)
	}
	return p.testKB.Retrieve(ctx, rc, in)
}

// sourceVal rejects the answers whose first evidence is of one source.
type sourceVal struct {
	plugin.Base
	plugin.UnimplementedVal
	reject string
}

func (p *sourceVal) Validate(ctx context.Context, rc plugin.RunContext, in *plugin.ValidateInput) (*plugin.ValidateResult, error) {
	if len(in.Evidence) > 0 && in.Evidence[0].KU.SourceID == p.reject {
		return &plugin.ValidateResult{Status: plugin.StatusRejected, Verdict: plugin.StatusRejected, Reason: "off the question"}, nil
	}
	return &plugin.ValidateResult{Status: plugin.StatusAccepted, Verdict: plugin.StatusAccepted}, nil
}

// TestUnansweredPartIsAskedAgainOnALaterPartsSource: a part with no
// accepted answer is asked again on the source a later part was answered
// from, from that source's units that hold its words.
func TestUnansweredPartIsAskedAgainOnALaterPartsSource(t *testing.T) {
	other := sourceLeaf("other.md::0::0", "other.md", "Pack a directory of files for a backup.")
	tar := sourceLeaf("tar.md::0::0", "tar.md", "Pack a directory into a tar.gz file, and unpack it with tar.")
	kb := &wordKB{testKB: testKB{Base: descriptor(t, "kb-t", plugin.TypeKB, ""), units: []*kus.KU{other, tar}}, word: "unpack", then: []*kus.KU{tar}}
	gs := &testGS{Base: descriptor(t, "gs-t", plugin.TypeGS, ""), solve: answer("Use this [1].")}
	val := &sourceVal{Base: descriptor(t, "val-t", plugin.TypeVal, ""), reject: "other.md"}
	m, _ := setup(t, nil, kb, gs, val)

	resp, err := m.Ask(context.Background(), Request{Question: "How do I pack a directory into a tar.gz file, and later unpack it into another folder?"})
	require.NoError(t, err)
	require.Equal(t, StatusAnswered, resp.Status, "%v", resp.Trace.Errors)
	assert.Empty(t, resp.Unanswered, resp.AnswerMarkdown)
	require.NotEmpty(t, resp.Evidence)
	assert.Equal(t, "tar.md", resp.Evidence[0].SourceID)
	assert.NotContains(t, resp.AnswerMarkdown, "Not answered")
}
