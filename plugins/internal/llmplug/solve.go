package llmplug

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mrpvm/mrpvm/plugin"
)

// GoalSolver is the behaviour shared by gs-llm-fast and gs-llm-deep:
// grounded synthesis from the structured payload (intents, evidence KUs,
// guidance KUs) with [n] citations that map back to KUs. It answers
// `no-context` when there is no evidence (without calling the model) or
// when the model says NO_CONTEXT, and `needs-decomposition` when the model
// says NEEDS_DECOMPOSITION and the frame depth allows a child frame.
//
// Prompts must define "solve" (data SolveData) and, when CorrectUncited is
// set, "solve.correct" (data CorrectData).
type GoalSolver struct {
	ID      string
	Role    string
	Prompts *Prompts
	Limits  Limits
	// CorrectUncited allows one corrective call when the answer cites no
	// source (the plugin's maxLLMCalls must allow 2).
	CorrectUncited bool
}

// SolveData is what the "solve" prompt sees.
type SolveData struct {
	Question     string
	Intents      []plugin.Intent
	Sources      []Source
	Guidance     []string
	Rejection    string // why a validator rejected the previous answer
	CanDecompose bool
}

// Citation maps one [n] of the answer back to its KU; the solvers put the
// list in responseDocument.
type Citation struct {
	N        int    `json:"n"`
	KUID     string `json:"kuId,omitempty"`
	Title    string `json:"title"`
	SourceID string `json:"sourceId,omitempty"`
	Line     int    `json:"line,omitempty"`
	Link     string `json:"link,omitempty"`
}

// ResponseDocument is the responseDocument of an LLM solver's answer.
type ResponseDocument struct {
	Citations []Citation `json:"citations"`
	// DroppedCitations lists numbers the model cited that name no source.
	DroppedCitations []int `json:"droppedCitations,omitempty"`
}

// Solve implements plugin.GSPlugin.Solve.
func (g *GoalSolver) Solve(ctx context.Context, rc plugin.RunContext, in *plugin.SolveInput) (*plugin.SolveResult, error) {
	c := NewCaller(rc, g.ID, g.Role)
	if !c.Available() {
		return &plugin.SolveResult{Status: plugin.StatusUnsupported, Error: NotConfiguredError(g.ID, g.Role)}, nil
	}
	sources := NumberEvidence(in.Evidence, in.Payload.Context, g.Limits)
	if len(sources) == 0 {
		return &plugin.SolveResult{Status: plugin.StatusNoContext,
			ResponseMarkdown: "The knowledge base holds no evidence for this task, and " + g.ID + " answers only from evidence."}, nil
	}
	question := strings.TrimSpace(in.Payload.Prompt)
	if question == "" && len(in.Intents) > 0 {
		question = in.Intents[0].Target
	}
	data := SolveData{Question: Truncate(question, 4000), Intents: in.Intents, Sources: sources,
		Guidance: Guidance(in.Guidance, 8), Rejection: Truncate(strings.TrimSpace(in.Rejection), 600),
		CanDecompose: in.FrameDepth < rc.Budgets.MaxFrameDepth}
	msgs, err := g.Prompts.Messages("solve", data)
	if err != nil {
		return nil, err
	}
	reply, err := c.Complete(ctx, msgs, Options{})
	if err != nil {
		return failed(c, err), nil
	}
	res, problem := g.read(reply, sources, data.CanDecompose)
	if problem != "" && g.CorrectUncited {
		fix, rerr := g.Prompts.Render("solve.correct", CorrectData{Problems: []string{problem}})
		if rerr != nil {
			return nil, rerr
		}
		msgs = append(msgs, plugin.Message{Role: "assistant", Content: reply}, plugin.Message{Role: "user", Content: fix})
		reply, err = c.Complete(ctx, msgs, Options{})
		if err != nil {
			return failed(c, err), nil
		}
		res, problem = g.read(reply, sources, data.CanDecompose)
	}
	if problem != "" {
		code := CodeUncited
		if strings.HasPrefix(problem, "the reply is empty") {
			code = CodeBadReply
		}
		res = &plugin.SolveResult{Status: plugin.StatusError, Error: &plugin.Error{Code: code, Message: g.ID + ": " + problem}}
	}
	res.Metadata = c.Metadata()
	return res, nil
}

func failed(c *Caller, err error) *plugin.SolveResult {
	st, e := StatusOf(err)
	return &plugin.SolveResult{Status: st, Error: e, Metadata: c.Metadata()}
}

// read turns a reply into a result, or says what is wrong with it.
func (g *GoalSolver) read(reply string, sources []Source, canDecompose bool) (*plugin.SolveResult, string) {
	marker, reason, body := ReadMarker(reply)
	switch marker {
	case MarkerNoContext:
		if reason == "" {
			reason = "the evidence does not answer this."
		}
		return &plugin.SolveResult{Status: plugin.StatusNoContext, ResponseMarkdown: "The knowledge base does not answer this: " + reason}, ""
	case MarkerNeedsDecomposition:
		if reason == "" {
			reason = "the task is too broad to answer in one step."
		}
		if canDecompose {
			return &plugin.SolveResult{Status: plugin.StatusNeedsDecomposition, ResponseMarkdown: reason}, ""
		}
		return &plugin.SolveResult{Status: plugin.StatusNoContext,
			ResponseMarkdown: "The task is too broad to answer in one step (" + reason + "), and it cannot be split further."}, ""
	}
	if strings.TrimSpace(body) == "" {
		return nil, "the reply is empty; write the answer, or NO_CONTEXT: <reason>"
	}
	cited := Cite(body, sources)
	if len(cited.Used) == 0 {
		msg := fmt.Sprintf("the answer cites none of the %d numbered sources; cite each statement with the number of its source, such as [1]", len(sources))
		if len(cited.Unknown) > 0 {
			msg = fmt.Sprintf("the answer cites %v, which are not among the sources [1]..[%d]; cite each statement with the number of its source", cited.Unknown, len(sources))
		}
		return nil, msg
	}
	doc := ResponseDocument{Citations: make([]Citation, 0, len(cited.Used)), DroppedCitations: cited.Unknown}
	for i, s := range cited.Used {
		ct := Citation{N: i + 1, Title: s.Title, Link: s.Link}
		if s.KU != nil {
			ct.KUID, ct.SourceID, ct.Line = s.KU.ID, s.KU.SourceID, s.KU.Range.StartLine
		}
		doc.Citations = append(doc.Citations, ct)
	}
	raw, _ := json.Marshal(doc) // plain data: cannot fail
	return &plugin.SolveResult{Status: plugin.StatusSuccess, ResponseMarkdown: cited.Markdown, ResponseDocument: raw,
		EvidenceIDs: cited.EvidenceIDs()}, ""
}
