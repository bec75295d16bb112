package evalsuite

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mrpvm/mrpvm/config"
	"github.com/mrpvm/mrpvm/ingest"
	"github.com/mrpvm/mrpvm/internal/fsafe"
	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins"
	"github.com/mrpvm/mrpvm/vm"
	"github.com/mrpvm/mrpvm/workspace"
)

// Suite is one eval.json.
type Suite struct {
	SuiteID                  string     `json:"suiteId"`
	Title                    string     `json:"title"`
	Description              string     `json:"description"`
	StoryFile                string     `json:"storyFile"`
	IngestProcessingMode     string     `json:"ingestProcessingMode"`
	IngestSeedDetectorPlugin string     `json:"ingestSeedDetectorPlugin"`
	PluginCombos             []Combo    `json:"pluginCombos"`
	Questions                []Question `json:"questions"`
}

// Combo pins plugins per stage for a run of the suite.
type Combo struct {
	Label              string `json:"label"`
	PlannerPlugin      string `json:"plannerPlugin"`
	SeedDetectorPlugin string `json:"seedDetectorPlugin"`
	KBPlugin           string `json:"kbPlugin"`
	GoalSolverPlugin   string `json:"goalSolverPlugin"`
	ValidationPlugin   string `json:"validationPlugin"`
}

func (c Combo) pins() map[string]string {
	out := map[string]string{}
	for stage, id := range map[string]string{"plan": c.PlannerPlugin, "sd": c.SeedDetectorPlugin, "kb": c.KBPlugin,
		"gs": c.GoalSolverPlugin, "val": c.ValidationPlugin} {
		if id != "" {
			out[stage] = id
		}
	}
	return out
}

// Question is one question with its expectations.
type Question struct {
	ID       string   `json:"id"`
	Input    string   `json:"input"`
	Expected Expected `json:"expected"`
}

// Expected holds a question's checks; matching is case-insensitive substring.
type Expected struct {
	Intents []struct {
		IntentMustMention []string `json:"intentMustMention"`
		OrderIndependent  bool     `json:"orderIndependent"`
	} `json:"intents"`
	ContextMustMention    []string `json:"contextMustMention"`
	ContextMustNotMention []string `json:"contextMustNotMention"`
	AnswerMustMention     []string `json:"answerMustMention"`
	AnswerMustNotContain  []string `json:"answerMustNotContain"`
}

// QuestionResult is the score of one question under one combo.
type QuestionResult struct {
	ID          string   `json:"id"`
	Combo       string   `json:"combo,omitempty"`
	Status      string   `json:"status"`
	AnswerPass  bool     `json:"answerPass"`
	ContextPass bool     `json:"contextPass"`
	IntentPass  bool     `json:"intentPass"`
	ContextF1   float64  `json:"contextF1"`
	Missing     []string `json:"missingFromContext,omitempty"`
	Unwanted    []string `json:"unwantedInContext,omitempty"`
	AnswerMiss  []string `json:"answerMissing,omitempty"`
	AnswerBad   []string `json:"answerForbidden,omitempty"`
	Answer      string   `json:"answer"`
	RequestID   string   `json:"requestId"`
	Millis      int64    `json:"ms"`
	Error       string   `json:"error,omitempty"`
}

// SuiteResult is the score of one suite.
type SuiteResult struct {
	SuiteID         string           `json:"suiteId"`
	Title           string           `json:"title"`
	AnswerPassRate  float64          `json:"answerPassRate"`
	ContextPassRate float64          `json:"contextPassRate"`
	ContextF1       float64          `json:"contextF1"`
	IntentPassRate  float64          `json:"intentPassRate"`
	Questions       []QuestionResult `json:"questions"`
	Notes           []string         `json:"notes,omitempty"`
}

// Load reads a suite folder.
func Load(dir string) (*Suite, string, error) {
	// A suite folder is as untrusted as a workspace: its files must be
	// regular, inside the folder and under the caps.
	b, err := fsafe.ReadFile(dir, filepath.Join(dir, "eval.json"), fsafe.MaxSourceBytes)
	if err != nil {
		return nil, "", fmt.Errorf("suite %s: %w", dir, err)
	}
	var s Suite
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, "", fmt.Errorf("suite %s: eval.json: %w", dir, err)
	}
	if s.StoryFile == "" {
		s.StoryFile = "story.nl"
	}
	story, err := fsafe.ReadFile(dir, filepath.Join(dir, s.StoryFile), fsafe.MaxSourceBytes)
	if err != nil {
		return nil, "", fmt.Errorf("suite %s: %w", dir, err)
	}
	if s.SuiteID == "" {
		s.SuiteID = filepath.Base(dir)
	}
	return &s, string(story), nil
}

// Options tune a run.
type Options struct {
	LLM     plugin.LLM
	UserDir config.UserFolder // the user configuration folder; the zero value reads none
	// NoLLM keeps any configured model endpoint out (tests of the
	// symbolic path).
	NoLLM bool
}

// Run ingests the suite's story into a fresh knowledge base and asks every
// question, once per plugin combo (or once with the default plugins), each
// combo in a fresh session.
func Run(ctx context.Context, dir string, opt Options) (*SuiteResult, error) {
	s, story, err := Load(dir)
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "mrpvm-eval-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	wsDir := filepath.Join(tmp, "ws")
	if err := os.MkdirAll(wsDir, 0o755); err != nil {
		return nil, err
	}
	storyID := "story/" + s.SuiteID + ".md"

	// The story becomes a source: read by the suite's seed detector when it
	// names one (normalizePersistentContext), else by the Markdown reader.
	var notes []string
	storySource := func(cat *plugins.Catalog) []ingest.VirtualSource {
		virtual := ingest.VirtualSource{ID: storyID, Name: s.StoryFile, Text: []byte(story)}
		if s.IngestSeedDetectorPlugin != "" {
			doc, err := normalize(ctx, cat, s.IngestSeedDetectorPlugin, storyID, story)
			if err != nil {
				notes = append(notes, fmt.Sprintf("ingest with %s failed (%v); the Markdown reader was used", s.IngestSeedDetectorPlugin, err))
			} else {
				virtual.Doc = doc
			}
		}
		return []ingest.VirtualSource{virtual}
	}
	w, err := workspace.Open(workspace.Options{Root: wsDir, DBPath: filepath.Join(tmp, "kb.db"), LLM: opt.LLM, UserDir: opt.UserDir, NoWrappers: true, NoLLM: opt.NoLLM,
		SourcesFrom: storySource})
	if err != nil {
		return nil, err
	}
	defer w.Close()

	if _, err := w.KB.Ingest(ctx, ingest.RunOptions{}); err != nil {
		return nil, fmt.Errorf("suite %s: ingest: %w", s.SuiteID, err)
	}

	combos := s.PluginCombos
	if len(combos) == 0 {
		combos = []Combo{{Label: "default"}}
	}
	res := &SuiteResult{SuiteID: s.SuiteID, Title: s.Title, Questions: []QuestionResult{}, Notes: notes}
	for ci, c := range combos {
		session := fmt.Sprintf("eval-%s-%d", s.SuiteID, ci)
		for _, q := range s.Questions {
			res.Questions = append(res.Questions, ask(ctx, w.VM, session, c, q))
		}
	}
	n := float64(len(res.Questions))
	if n > 0 {
		var a, cx, f, in float64
		for _, q := range res.Questions {
			a += b2f(q.AnswerPass)
			cx += b2f(q.ContextPass)
			f += q.ContextF1
			in += b2f(q.IntentPass)
		}
		res.AnswerPassRate, res.ContextPassRate, res.ContextF1, res.IntentPassRate = a/n, cx/n, f/n, in/n
	}
	return res, nil
}

// normalize has a seed detector read the story into KUs.
func normalize(ctx context.Context, cat *plugins.Catalog, id, sourceID, story string) (*kus.Document, error) {
	p, ok := cat.Registry.SD(id)
	if !ok {
		return nil, fmt.Errorf("seed detector %s is not loaded", id)
	}
	info := kus.SourceInfo{SourceID: sourceID, SourceName: filepath.Base(sourceID), SourceType: kus.SourcePlainText, IngestedAt: time.Now().UTC()}
	md, err := kus.Parse([]byte(story), info)
	if err != nil {
		return nil, err
	}
	out, err := p.NormalizePersistentContext(ctx, plugin.RunContext{HookType: plugin.HookSourceText},
		&plugin.NormalizeInput{Source: info, Text: story, Units: md.Units})
	if err != nil {
		return nil, err
	}
	if out.Status != plugin.StatusSuccess {
		msg := string(out.Status)
		if out.Error != nil {
			msg += ": " + out.Error.Code + ": " + out.Error.Message
		}
		return nil, fmt.Errorf("%s", msg)
	}
	return vm.DocumentFromContextCNL(out.ContextCNL, info, md, story)
}

func ask(ctx context.Context, m *vm.Machine, session string, c Combo, q Question) QuestionResult {
	qr := QuestionResult{ID: q.ID, Combo: c.Label}
	start := time.Now()
	resp, err := m.Ask(ctx, vm.Request{Question: q.Input, SessionID: session, CreateSession: true, Pins: c.pins()})
	qr.Millis = time.Since(start).Milliseconds()
	if err != nil {
		qr.Error = err.Error()
		qr.Status = vm.StatusInvalid
		return qr
	}
	qr.Status, qr.Answer, qr.RequestID = resp.Status, resp.AnswerMarkdown, resp.RequestID
	var ctxText strings.Builder
	for _, e := range resp.Context {
		ctxText.WriteString(e.Title + "\n" + e.Text + "\n" + e.Why + "\n")
	}
	context := strings.ToLower(ctxText.String())
	answer := strings.ToLower(resp.AnswerMarkdown)
	ex := q.Expected
	qr.Missing = mentioned(context, ex.ContextMustMention, false)
	qr.Unwanted = mentioned(context, ex.ContextMustNotMention, true)
	qr.AnswerMiss = mentioned(answer, ex.AnswerMustMention, false)
	qr.AnswerBad = mentioned(answer, ex.AnswerMustNotContain, true)
	qr.ContextPass = len(qr.Missing) == 0 && len(qr.Unwanted) == 0
	qr.AnswerPass = len(qr.AnswerMiss) == 0 && len(qr.AnswerBad) == 0 && resp.Status == vm.StatusAnswered
	recall, precision := 1.0, 1.0
	if n := len(ex.ContextMustMention); n > 0 {
		recall = 1 - float64(len(qr.Missing))/float64(n)
	}
	if n := len(ex.ContextMustNotMention); n > 0 {
		precision = 1 - float64(len(qr.Unwanted))/float64(n)
	}
	if recall+precision > 0 {
		qr.ContextF1 = 2 * recall * precision / (recall + precision)
	}
	var intentText strings.Builder
	for _, in := range resp.Intents {
		intentText.WriteString(in.Target + " " + in.Context + " " + in.Criterion + "\n")
	}
	it := strings.ToLower(intentText.String())
	qr.IntentPass = true
	for _, group := range ex.Intents {
		if len(mentioned(it, group.IntentMustMention, false)) > 0 {
			qr.IntentPass = false
		}
	}
	return qr
}

// mentioned is the terms that lowered, the lower-cased text, contains
// (in is true) or lacks (in is false), compared case-insensitively.
func mentioned(lowered string, terms []string, in bool) []string {
	var out []string
	for _, t := range terms {
		if strings.Contains(lowered, strings.ToLower(t)) == in {
			out = append(out, t)
		}
	}
	return out
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
