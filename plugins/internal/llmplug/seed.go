package llmplug

import (
	"context"
	"fmt"
	"strings"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
)

// SeedDetector is the behaviour shared by sd-llm-fast and sd-llm-deep: one
// logical call that returns both SOP documents, validated by the SOP
// interpreter, plus at most one corrective retry quoting the validation
// errors. The plugins differ in model role, prompts and how much of the
// conversation they show.
//
// Prompts must define "seed" (system and user parts, data SeedData),
// "seed.correct" (data CorrectData) and may define "normalize" (data
// NormalizeData) for NormalizePersistentContext.
type SeedDetector struct {
	ID      string
	Role    string
	Prompts *Prompts
	// Turns is how many earlier conversation turns the prompt shows.
	Turns int
	// MaxTurnBytes bounds the user's turn shown to the model.
	MaxTurnBytes int
	// MaxSourceBytes bounds the source text NormalizePersistentContext
	// sends in one call.
	MaxSourceBytes int
}

// SeedData is what the "seed" prompt sees.
type SeedData struct {
	Turn          string
	SourceID      string // the current turn's source id, session::<turnId>
	ChunkID       string
	Conversation  []plugin.Turn
	Context       []Source
	Acts          []string
	Roles         []string
	PhaseScopes   []string
	Relations     []string
	FirstUnitID   string // SourceID::unit-000
	ExampleSource string
}

// CorrectData is what the "seed.correct" (and "normalize.correct") prompt
// sees.
type CorrectData struct {
	Problems []string
}

// NormalizeData is what the "normalize" prompt sees.
type NormalizeData struct {
	SourceID  string
	Text      string
	Truncated bool
	Roles     []string
	Relations []string
	Acts      []string
}

// DetectSeeds implements plugin.SDPlugin.DetectSeeds.
func (s *SeedDetector) DetectSeeds(ctx context.Context, rc plugin.RunContext, in *plugin.SeedInput) (*plugin.SeedResult, error) {
	c := NewCaller(rc, s.ID, s.Role)
	if !c.Available() {
		return &plugin.SeedResult{Status: plugin.StatusUnsupported, Error: NotConfiguredError(s.ID, s.Role)}, nil
	}
	turn := strings.TrimSpace(strings.ToValidUTF8(in.Payload.Prompt, ""))
	if turn == "" {
		return &plugin.SeedResult{Status: plugin.StatusError, Error: &plugin.Error{Code: plugin.CodePluginFailed, Message: "the turn is empty"}}, nil
	}
	src := "turn"
	if in.TurnID != "" {
		src = "session::" + in.TurnID
	}
	data := SeedData{Turn: Truncate(turn, max(s.MaxTurnBytes, 1024)), SourceID: src, ChunkID: src + "::chunk-000",
		FirstUnitID: src + "::unit-000", Context: NumberEvidence(nil, in.Payload.Context, Limits{MaxItems: 5, MaxChars: 4000}),
		Acts: kus.Acts, Roles: kus.Roles, PhaseScopes: kus.PhaseScopeValues, Relations: kus.Relations}
	if s.Turns > 0 {
		conv := rc.Conversation
		if len(conv) > s.Turns {
			conv = conv[len(conv)-s.Turns:]
		}
		for _, t := range conv {
			t.Text = Truncate(t.Text, 600)
			data.Conversation = append(data.Conversation, t)
		}
	}
	msgs, err := s.Prompts.Messages("seed", data)
	if err != nil {
		return nil, err
	}
	docs, problems, err := generate(ctx, c, s.Prompts, msgs, "seed.correct", func(reply string) (SeedDocs, []string) {
		d, err := ExtractSeedDocs(reply)
		if err != nil {
			return d, []string{err.Error()}
		}
		return d, CheckSeedDocs(d)
	})
	res := &plugin.SeedResult{Metadata: c.Metadata()}
	res.Status, res.Error = generated(err, problems, fmt.Sprintf("the model's SOP documents failed validation after %d calls", c.Calls()))
	if err == nil && len(problems) == 0 {
		res.IntentCNL, res.CurrentTurnContextCNL = docs.IntentCNL, docs.ContextCNL
	}
	return res, nil
}

// NormalizePersistentContext implements plugin.SDPlugin: the source text
// becomes one contextCNL document of grouped KUs with symbolic facts, by
// the same one-call-plus-correction scheme. Plugins without a "normalize"
// prompt answer unsupported.
func (s *SeedDetector) NormalizePersistentContext(ctx context.Context, rc plugin.RunContext, in *plugin.NormalizeInput) (*plugin.NormalizeResult, error) {
	if !s.Prompts.Has("normalize") {
		return &plugin.NormalizeResult{Status: plugin.StatusUnsupported, Error: plugin.NotImplemented(s.ID, "normalizePersistentContext")}, nil
	}
	c := NewCaller(rc, s.ID, s.Role)
	if !c.Available() {
		return &plugin.NormalizeResult{Status: plugin.StatusUnsupported, Error: NotConfiguredError(s.ID, s.Role)}, nil
	}
	src := in.Source.SourceID
	if src == "" {
		src = "source"
	}
	limit := s.MaxSourceBytes
	if limit <= 0 {
		limit = 12000
	}
	text := strings.TrimSpace(strings.ToValidUTF8(in.Text, ""))
	if text == "" {
		return &plugin.NormalizeResult{Status: plugin.StatusSuccess}, nil
	}
	data := NormalizeData{SourceID: src, Text: Truncate(text, limit), Truncated: len(text) > limit,
		Roles: kus.Roles, Relations: kus.Relations, Acts: kus.Acts}
	msgs, err := s.Prompts.Messages("normalize", data)
	if err != nil {
		return nil, err
	}
	doc, problems, err := generate(ctx, c, s.Prompts, msgs, "normalize.correct", func(reply string) (string, []string) {
		d := ExtractDoc(reply)
		if d == "" {
			return d, []string{"contextCNL: the reply holds no SOP Lang statement (lines starting with @)"}
		}
		return d, CheckDoc("contextCNL", d)
	})
	res := &plugin.NormalizeResult{Metadata: c.Metadata()}
	res.Status, res.Error = generated(err, problems, "the model's contextCNL failed validation")
	if err == nil && len(problems) == 0 {
		res.ContextCNL = doc
	}
	return res, nil
}

// generated is the outcome of a generate run: a failed call's status and
// error; else, when problems remain, an error of code CodeSOPInvalid saying
// invalid and quoting up to 8 of them; else success.
func generated(err error, problems []string, invalid string) (plugin.Status, *plugin.Error) {
	switch {
	case err != nil:
		return StatusOf(err)
	case len(problems) > 0:
		return plugin.StatusError, &plugin.Error{Code: CodeSOPInvalid,
			Message: invalid + ": " + strings.Join(problems[:min(len(problems), 8)], "; ")}
	}
	return plugin.StatusSuccess, nil
}

// generate makes the call, checks the reply and, when it has problems,
// makes one corrective call that quotes them. It returns the last
// candidate and its remaining problems; err is set only when a call
// failed (the first, or the correction).
func generate[T any](ctx context.Context, c *Caller, p *Prompts, msgs []plugin.Message, correct string,
	check func(reply string) (T, []string)) (T, []string, error) {
	var zero T
	reply, err := c.Complete(ctx, msgs, Options{})
	if err != nil {
		return zero, nil, err
	}
	out, problems := check(reply)
	if len(problems) == 0 {
		return out, nil, nil
	}
	fix, err := p.Render(correct, CorrectData{Problems: problems[:min(len(problems), 20)]})
	if err != nil {
		return zero, nil, err
	}
	msgs = append(append([]plugin.Message(nil), msgs...),
		plugin.Message{Role: "assistant", Content: reply},
		plugin.Message{Role: "user", Content: fix})
	reply, err = c.Complete(ctx, msgs, Options{})
	if err != nil {
		return zero, nil, err
	}
	out, problems = check(reply)
	return out, problems, nil
}
