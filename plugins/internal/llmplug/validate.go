package llmplug

import (
	"context"
	"strings"

	"github.com/mrpvm/mrpvm/plugin"
)

// Validator is the behaviour of val-llm: one call to the validation model
// role checks that a goal solver's answer is grounded in the retrieved
// evidence, addresses the question and follows the val-plugin guidance. It
// answers accepted or rejected with a reason; an empty answer is rejected
// without a call, and with no model endpoint configured it answers
// unsupported, which neither accepts nor rejects.
//
// Prompts must define "validate" (data ValidateData).
type Validator struct {
	ID      string
	Role    string
	Prompts *Prompts
	Limits  Limits // evidence shown to the model
	// MaxAnswerBytes bounds the answer shown.
	MaxAnswerBytes int
}

// ValidateData is what the "validate" prompt sees.
type ValidateData struct {
	Question string
	Intents  []plugin.Intent
	Rules    []string
	Sources  []Source
	Answer   string
}

// Validate accepts or rejects a goal solver's answer.
func (v *Validator) Validate(ctx context.Context, rc plugin.RunContext, in *plugin.ValidateInput) (*plugin.ValidateResult, error) {
	c := NewCaller(rc, v.ID, v.Role)
	if !c.Available() {
		return &plugin.ValidateResult{Status: plugin.StatusUnsupported, Error: NotConfiguredError(v.ID, v.Role)}, nil
	}
	answer := strings.TrimSpace(in.Answer)
	if answer == "" {
		return &plugin.ValidateResult{Status: plugin.StatusRejected, Verdict: plugin.StatusRejected, Reason: "the answer is empty"}, nil
	}
	question := strings.TrimSpace(in.Payload.Prompt)
	if question == "" && len(in.Intents) > 0 {
		question = in.Intents[0].Target
	}
	data := ValidateData{Question: Truncate(question, 4000), Intents: in.Intents, Rules: Guidance(in.Guidance, 8),
		Sources: NumberEvidence(in.Evidence, in.Payload.Context, v.Limits),
		Answer:  Truncate(answer, v.MaxAnswerBytes)}
	msgs, err := v.Prompts.Messages("validate", data)
	if err != nil {
		return nil, err
	}
	reply, err := c.Complete(ctx, msgs, Options{})
	if err != nil {
		st, e := StatusOf(err)
		return &plugin.ValidateResult{Status: st, Error: e, Metadata: c.Metadata()}, nil
	}
	verdict, reason, ok := ReadVerdict(reply)
	if !ok {
		return &plugin.ValidateResult{Status: plugin.StatusError, Metadata: c.Metadata(), Error: &plugin.Error{Code: CodeBadReply,
			Message: v.ID + ": the model's reply has no ACCEPT or REJECT verdict: " + Truncate(strings.Join(strings.Fields(reply), " "), 200)}}, nil
	}
	if reason == "" {
		reason = "no reason given"
	}
	return &plugin.ValidateResult{Status: verdict, Verdict: verdict, Reason: reason, Metadata: c.Metadata()}, nil
}
