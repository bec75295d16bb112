package valsymbolic

import (
	"context"
	"testing"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins/internal/plugintest"
)

func ku(id, title, src string, line int, claim string) plugin.ScoredKU {
	return plugin.ScoredKU{KU: plugintest.Claim(id, title, src, line, claim), Score: 1}
}

var evidence = []plugin.ScoredKU{
	ku("a::1", "kb-thinkingdb", "plugins/kb.md", 3, "kb-thinkingdb derives facts with two-premise Horn rules and keeps at most 12 proofs."),
	ku("a::2", "kb-fast", "plugins/kb.md", 9, "kb-fast ranks KUs with BM25 over an inverted index persisted in bbolt."),
	ku("a::4", "kb-fast", "plugins/kb.md", 12, "kb-fast keeps a small result budget of three KUs."),
	{KU: plugintest.Procedure("b::3", "Extract an archive", "pages/tar.md", 1, "Extract a gzipped archive into the current directory: tar xzf path/to/file.tar.gz")},
}

func intent(target string) []plugin.Intent {
	return []plugin.Intent{{ID: "i1", Act: "describe", Target: target}}
}

func TestValidate(t *testing.T) {
	cases := []struct {
		name     string
		answer   string
		target   string
		guidance string
		want     plugin.Status
		reason   string // substring of the rejection reason
	}{
		{
			name: "grounded prose with sources",
			answer: "kb-thinkingdb derives facts with two-premise Horn rules and keeps at most 12 proofs. [1]\n\n" +
				"Sources:\n[1] kb-thinkingdb — plugins/kb.md:3\n",
			target: "kb-thinkingdb", want: plugin.StatusAccepted,
		},
		{
			name: "two cited statements on one line",
			answer: "kb-fast ranks KUs with BM25. [1] kb-thinkingdb keeps at most 12 proofs. [2]\n\n" +
				"Sources:\n[1] kb-fast — plugins/kb.md:9\n[2] kb-thinkingdb — plugins/kb.md:3\n",
			target: "kb-fast and kb-thinkingdb", want: plugin.StatusAccepted,
		},
		{
			name: "invented statement",
			answer: "kb-thinkingdb trains a neural network on GPUs every night. [1]\n\n" +
				"Sources:\n[1] kb-thinkingdb — plugins/kb.md:3\n",
			target: "kb-thinkingdb", want: plugin.StatusRejected, reason: "line 1",
		},
		{
			name: "statement cites the wrong source",
			answer: "kb-fast ranks KUs with BM25 over an inverted index persisted in bbolt. [1]\n\n" +
				"Sources:\n[1] kb-thinkingdb — plugins/kb.md:3\n",
			target: "kb-fast", want: plugin.StatusRejected, reason: "not supported by its citation [1]",
		},
		{
			name:   "citation without a source",
			answer: "kb-fast ranks KUs with BM25. [3]\n\nSources:\n[1] kb-fast — plugins/kb.md:9\n",
			target: "kb-fast", want: plugin.StatusRejected, reason: "cites [3]",
		},
		{
			name:   "source that was never retrieved",
			answer: "kb-fast ranks KUs with BM25. [1]\n\nSources:\n[1] Something else — nowhere.md:4\n",
			target: "kb-fast", want: plugin.StatusRejected, reason: "not among the retrieved evidence",
		},
		{
			name:   "invented number",
			answer: "kb-thinkingdb keeps at most 40 proofs. [1]\n\nSources:\n[1] kb-thinkingdb — plugins/kb.md:3\n",
			target: "kb-thinkingdb proofs", want: plugin.StatusRejected, reason: "number 40",
		},
		{
			name:   "off-topic answer",
			answer: "kb-fast ranks KUs with BM25. [1]\n\nSources:\n[1] kb-fast — plugins/kb.md:9\n",
			target: "extract a tar archive", want: plugin.StatusRejected, reason: "does not address",
		},
		{
			name: "comparison table",
			answer: "| source | statement |\n| --- | --- |\n| kb-fast [1] | kb-fast ranks KUs with BM25 over an inverted index. |\n" +
				"| kb-thinkingdb [2] | kb-thinkingdb derives facts with Horn rules. |\n\nSources:\n[1] kb-fast — plugins/kb.md:9\n[2] kb-thinkingdb — plugins/kb.md:3\n",
			target: "kb-fast and kb-thinkingdb", want: plugin.StatusAccepted,
		},
		{
			name: "procedure steps under a cited heading",
			answer: "Steps from Extract an archive [1]:\n\n1. Extract a gzipped archive into the current directory: tar xzf path/to/file.tar.gz\n\n" +
				"Sources:\n[1] Extract an archive — pages/tar.md:1\n",
			target: "extract a gzipped archive", want: plugin.StatusAccepted,
		},
		{
			name:   "no sources list: numbers are evidence positions",
			answer: "kb-fast ranks KUs with BM25 over an inverted index [2].",
			target: "kb-fast", want: plugin.StatusAccepted,
		},
		{
			name:   "uncited grounded answer",
			answer: "kb-fast ranks KUs with BM25 over an inverted index persisted in bbolt.",
			target: "kb-fast", want: plugin.StatusAccepted,
		},
		{
			name:   "user asked for citations",
			answer: "kb-fast ranks KUs with BM25 over an inverted index persisted in bbolt.",
			target: "kb-fast", guidance: "Cite your sources.", want: plugin.StatusRejected, reason: "without a citation",
		},
		{
			name:   "must mention rule broken",
			answer: "kb-fast ranks KUs with BM25. [1]\n\nSources:\n[1] kb-fast — plugins/kb.md:9\n",
			target: "kb-fast", guidance: "The answer must mention bbolt.", want: plugin.StatusRejected, reason: `"bbolt"`,
		},
		{
			name:   "must mention rule kept",
			answer: "kb-fast ranks KUs with BM25 over an inverted index persisted in bbolt. [1]\n\nSources:\n[1] kb-fast — plugins/kb.md:9\n",
			target: "kb-fast", guidance: "The answer must mention bbolt.", want: plugin.StatusAccepted,
		},
		{
			name: "two KUs of one source with one title are told apart by line",
			answer: "kb-fast ranks KUs with BM25 over an inverted index persisted in bbolt. [1] kb-fast keeps a small result budget of three. [2]\n\n" +
				"Sources:\n[1] kb-fast — plugins/kb.md:9\n[2] kb-fast — plugins/kb.md:12\n",
			target: "kb-fast", want: plugin.StatusAccepted,
		},
		{name: "empty answer", answer: "  \n", target: "kb-fast", want: plugin.StatusRejected, reason: "empty"},
		{name: "only connectives", answer: "Therefore:", target: "kb-fast", want: plugin.StatusRejected, reason: "no checkable statement"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := &plugin.ValidateInput{Payload: plugin.Payload{Prompt: tc.target}, Intents: intent(tc.target), Answer: tc.answer, Evidence: evidence}
			if tc.guidance != "" {
				in.Guidance = []plugin.ScoredKU{{KU: &kus.KU{ID: "turn::1", Claim: tc.guidance, SourceType: kus.SourceChatTurn, PhaseScopes: []string{"val-plugin"}}}}
			}
			expect(t, validate(t, nil, in), tc.want, tc.reason)
		})
	}
}

func TestRulesComeFromTheUserOnly(t *testing.T) {
	p := plugintest.New[*Plugin](t, New, plugin.Env{PluginID: ID})
	doc := plugin.ScoredKU{KU: &kus.KU{ID: "plugin::val-symbolic::unit-003", SourceType: kus.SourceMarkdown,
		Claim: `"cite sources" requires every statement to carry a citation; the answer must mention bbolt.`}}
	res, err := p.Validate(context.Background(), plugin.RunContext{}, &plugin.ValidateInput{
		Intents: intent("kb-fast"), Evidence: evidence, Guidance: []plugin.ScoredKU{doc},
		Answer: "kb-fast ranks KUs with BM25 over an inverted index."})
	if err != nil || res.Status != plugin.StatusAccepted {
		t.Errorf("documentation about rules was applied as a rule: %+v %v", res, err)
	}
}

func TestOptions(t *testing.T) {
	for _, tc := range []struct {
		raw string
		ok  bool
	}{
		{`{}`, true}, {`{"minSupport": 0.8}`, true}, {`{"minSupport": 2}`, false}, {`{"minKeyTerms": -1}`, false}, {`{"strict": true}`, false},
	} {
		_, err := New([]byte(tc.raw), plugin.Env{PluginID: ID})
		if (err == nil) != tc.ok {
			t.Errorf("%s: err %v", tc.raw, err)
		}
	}
}

func TestCancelled(t *testing.T) {
	p := plugintest.New[*Plugin](t, New, plugin.Env{PluginID: ID})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.Validate(ctx, plugin.RunContext{}, &plugin.ValidateInput{Answer: "x"}); err == nil {
		t.Error("a cancelled request was validated")
	}
}
