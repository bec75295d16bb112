package valsymbolic

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugin/text"
	"github.com/mrpvm/mrpvm/plugins/internal/plugintest"
	"github.com/mrpvm/mrpvm/plugins/internal/symbolic"
)

// validate runs val-symbolic with its default options over in, with c as
// the knowledge base it reads statistics and sources from (nil for none).
func validate(t *testing.T, c plugin.Corpus, in *plugin.ValidateInput) *plugin.ValidateResult {
	t.Helper()
	p := plugintest.New[plugin.ValPlugin](t, New, plugin.Env{PluginID: ID})
	res, err := p.Validate(context.Background(), plugin.RunContext{Corpus: c}, in)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// expect fails the test unless res has status want and, when it rejects,
// a reason that contains says ("" for any reason).
func expect(t *testing.T, res *plugin.ValidateResult, want plugin.Status, says string) {
	t.Helper()
	if res.Status != want || res.Verdict != want {
		t.Fatalf("status %s verdict %s, want %s (%s)", res.Status, res.Verdict, want, res.Reason)
	}
	if want == plugin.StatusRejected && !strings.Contains(res.Reason, says) {
		t.Errorf("the reason should say %q: %s", says, res.Reason)
	}
}

// citing is the answer that states the whole of k's claim, or of its
// body when it has none, and cites k as its one source.
func citing(k *kus.KU) string {
	text := k.Claim
	if text == "" {
		text = k.TextBody
	}
	return fmt.Sprintf("%s [1]\n\nSources:\n[1] %s — %s:%d\n", text, k.Title, k.SourceID, k.Range.StartLine)
}

// tldrExample is a tldr-style page titled title, at source id, with the
// description desc and one example: the example's description and its
// command.
type tldrExample struct {
	title, id, desc, example, command string
}

// page is the page's Markdown.
func (e tldrExample) page() string {
	return "# " + e.title + "\n\n> " + e.desc + "\n\n- " + e.example + ":\n\n`" + e.command + "`\n"
}

// unit is the page's unit kuID under its title, at line 3, which holds
// the description and the example.
func (e tldrExample) unit(kuID string) *kus.KU {
	return plugintest.Text(kuID, e.title, e.id, 3, e.desc+"\n\n- "+e.example+":\n\n`"+e.command+"`\n")
}

// answer is the answer that leads with the page's title, quoting the
// description and the example, and cites the page's unit under its title.
func (e tldrExample) answer() string {
	return e.title + " [1]: " + e.desc + "\n\n- " + e.example + ":\n\n  `" + e.command + "`\n\nSources:\n[1] " + e.title + " — " + e.id + ":3\n"
}

// askCiting is the input asking prompt, read as one intent act on
// target, answered by citing k (citing), with k the one evidence unit.
func askCiting(k *kus.KU, prompt, act, target string) plugin.ValidateInput {
	return plugin.ValidateInput{Payload: plugin.Payload{Prompt: prompt},
		Intents: []plugin.Intent{{ID: "i1", Act: act, Target: target}},
		Answer:  citing(k), Evidence: []plugin.ScoredKU{{KU: k, Score: 1}}}
}

// inputCase is a validation input and the status val-symbolic should give
// it.
type inputCase struct {
	name string
	in   plugin.ValidateInput
	want plugin.Status
}

// expectInputs validates each case's input in a subtest and expects the
// case's status and, for a rejection, a reason that contains says.
func expectInputs(t *testing.T, c plugin.Corpus, says string, cases []inputCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			expect(t, validate(t, c, &tc.in), tc.want, says)
		})
	}
}

// answerCase is an answer and the status val-symbolic should give it.
type answerCase struct {
	name, answer string
	ev           *kus.KU // the one evidence unit, when the cases differ in it
	want         plugin.Status
}

// expectAnswers validates in with each case's answer in a subtest and
// expects the case's status and, for a rejection, a reason that contains
// says. A case with a unit of its own has it as the one evidence, found
// with score 1 at level.
func expectAnswers(t *testing.T, c plugin.Corpus, in plugin.ValidateInput, level, says string, cases []answerCase) {
	t.Helper()
	ins := make([]inputCase, len(cases))
	for i, tc := range cases {
		ins[i] = inputCase{tc.name, in, tc.want}
		ins[i].in.Answer = tc.answer
		if tc.ev != nil {
			ins[i].in.Evidence = []plugin.ScoredKU{{KU: tc.ev, Score: 1, Level: level}}
		}
	}
	expectInputs(t, c, says, ins)
}

// howToCase is a how-to question on target and an answer that rests on
// the unit ev.
type howToCase struct {
	name, target, answer string
	ev                   *kus.KU
	want                 plugin.Status
}

// expectHowTo asks "How do I <target>?" of each case in a subtest, with
// its unit the one evidence at level, and expects the case's status and,
// for a rejection, a reason that contains says.
func expectHowTo(t *testing.T, c plugin.Corpus, level, says string, cases []howToCase) {
	t.Helper()
	ins := make([]inputCase, len(cases))
	for i, tc := range cases {
		ins[i] = inputCase{tc.name, plugin.ValidateInput{
			Payload: plugin.Payload{Prompt: "How do I " + tc.target + "?"},
			Intents: []plugin.Intent{{ID: "i1", Act: "implement", Target: tc.target}},
			Answer:  tc.answer, Evidence: []plugin.ScoredKU{{KU: tc.ev, Score: 1, Level: level}}}, tc.want}
	}
	expectInputs(t, c, says, ins)
}

// expectOfAction calls f, named name, on each task of cases with the
// action symbolic.Action reads from the task, and fails the test where f
// does not give the task's wanted answer.
func expectOfAction(t *testing.T, name string, f func(task, action string) bool, cases map[string]bool) {
	t.Helper()
	for task, want := range cases {
		action, _ := symbolic.Action(task)
		if got := f(task, action); got != want {
			t.Errorf("%s(%q, %q) = %v, want %v", name, task, action, got, want)
		}
	}
}

// expectEach calls f, named name, on each input of cases and fails the
// test where f does not give the input's wanted result.
func expectEach[In, Out comparable](t *testing.T, name string, f func(In) Out, cases map[In]Out) {
	t.Helper()
	for in, want := range cases {
		if got := f(in); got != want {
			t.Errorf("%s(%#v) = %#v, want %#v", name, in, got, want)
		}
	}
}

// expectTerms calls f, named name, on each input of cases and fails the
// test where f does not give, in order, the terms (text.Terms) of the
// input's wanted words; nil wants no terms.
func expectTerms(t *testing.T, name string, f func(string) []string, cases map[string][]string) {
	t.Helper()
	for in, want := range cases {
		var terms []string
		for _, w := range want {
			terms = append(terms, text.Terms(w)...)
		}
		if got := f(in); !slices.Equal(got, terms) {
			t.Errorf("%s(%q) = %q, want %q", name, in, got, terms)
		}
	}
}
