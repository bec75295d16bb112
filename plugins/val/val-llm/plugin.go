// Package valllm is the built-in val-plugin val-llm: one call to the
// validation model role checks that a goal solver's answer is grounded in
// the retrieved evidence, addresses the question and follows the
// val-plugin guidance (validation rules stated by the user or the
// knowledge base). It answers `accepted` or `rejected` with a reason; a
// rejection makes the core raise VALIDATION_REJECTED and backtrack (next
// solver, next evidence view, next decomposition branch, heavier planner),
// and the reason reaches the next solver. An empty answer is rejected
// without a call. With no model endpoint configured it answers
// `unsupported` (code llm_not_configured), which neither accepts nor
// rejects. The prompt is prompts/validate.tmpl, embedded.
package valllm

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"strings"

	"github.com/mrpvm/mrpvm/plugins"
	"github.com/mrpvm/mrpvm/plugins/internal/llmplug"
	"github.com/mrpvm/mrpvm/plugins/sdk"
)

// ID is the plugin id.
const ID = "val-llm"

//go:embed plugin.json
var descriptorJSON []byte

//go:embed plugin.kus.md
var kusMarkdown []byte

//go:embed prompts/*.tmpl
var promptFS embed.FS

var prompts = llmplug.MustParsePrompts(promptFS, "prompts/*.tmpl")

func init() {
	plugins.RegisterBuiltin(plugins.Builtin{Descriptor: descriptorJSON, KUs: kusMarkdown, New: New})
}

// Options are the plugin's options in plugins.json.
type Options struct {
	// MaxEvidence is the number of evidence KUs shown to the model; default 8.
	MaxEvidence int `json:"maxEvidence,omitempty"`
	// MaxEvidenceChars bounds their text together; default 10000.
	MaxEvidenceChars int `json:"maxEvidenceChars,omitempty"`
	// MaxAnswerBytes bounds the answer shown; default 8000.
	MaxAnswerBytes int `json:"maxAnswerBytes,omitempty"`
}

func defaults() Options {
	return Options{MaxEvidence: 8, MaxEvidenceChars: 10000, MaxAnswerBytes: 8000}
}

func (o *Options) validate() error {
	if o.MaxEvidence < 1 || o.MaxEvidence > 50 {
		return errors.New("maxEvidence must be between 1 and 50")
	}
	if o.MaxEvidenceChars < 500 || o.MaxAnswerBytes < 500 {
		return errors.New("maxEvidenceChars and maxAnswerBytes must be at least 500")
	}
	return nil
}

// Plugin is val-llm.
type Plugin struct {
	sdk.Base
	Options Options
	env     sdk.Env
}

// New builds the plugin from its options and injected services.
func New(raw json.RawMessage, env sdk.Env) (sdk.Plugin, error) {
	opts := defaults()
	base, err := sdk.Setup(descriptorJSON, raw, &opts, (*Options).validate)
	if err != nil {
		return nil, err
	}
	return &Plugin{Base: base, Options: opts, env: env}, nil
}

// promptData is what the "validate" prompt sees.
type promptData struct {
	Question string
	Intents  []sdk.Intent
	Rules    []string
	Sources  []llmplug.Source
	Answer   string
}

// Validate accepts or rejects a goal solver's answer.
func (p *Plugin) Validate(ctx context.Context, rc sdk.RunContext, in *sdk.ValidateInput) (*sdk.ValidateResult, error) {
	c := llmplug.NewCaller(rc, ID, sdk.RoleValidation)
	if !c.Available() {
		return &sdk.ValidateResult{Status: sdk.StatusUnsupported, Error: llmplug.NotConfiguredError(ID, sdk.RoleValidation)}, nil
	}
	answer := strings.TrimSpace(in.Answer)
	if answer == "" {
		return &sdk.ValidateResult{Status: sdk.StatusRejected, Verdict: sdk.StatusRejected, Reason: "the answer is empty"}, nil
	}
	question := strings.TrimSpace(in.Payload.Prompt)
	if question == "" && len(in.Intents) > 0 {
		question = in.Intents[0].Target
	}
	data := promptData{Question: llmplug.Truncate(question, 4000), Intents: in.Intents, Rules: llmplug.Guidance(in.Guidance, 8),
		Sources: llmplug.NumberEvidence(in.Evidence, in.Payload.Context, llmplug.Limits{MaxItems: p.Options.MaxEvidence, MaxChars: p.Options.MaxEvidenceChars}),
		Answer:  llmplug.Truncate(answer, p.Options.MaxAnswerBytes)}
	msgs, err := prompts.Messages("validate", data)
	if err != nil {
		return nil, err
	}
	reply, err := c.Complete(ctx, msgs, llmplug.Options{})
	if err != nil {
		st, e := llmplug.StatusOf(err)
		return &sdk.ValidateResult{Status: st, Error: e, Metadata: c.Metadata()}, nil
	}
	verdict, reason, ok := llmplug.ReadVerdict(reply)
	if !ok {
		return &sdk.ValidateResult{Status: sdk.StatusError, Metadata: c.Metadata(), Error: &sdk.Error{Code: llmplug.CodeBadReply,
			Message: "val-llm: the model's reply has no ACCEPT or REJECT verdict: " + llmplug.Truncate(strings.Join(strings.Fields(reply), " "), 200)}}, nil
	}
	if reason == "" {
		reason = "no reason given"
	}
	return &sdk.ValidateResult{Status: verdict, Verdict: verdict, Reason: reason, Metadata: c.Metadata()}, nil
}
