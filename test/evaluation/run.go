package evaluation

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/mrpvm/mrpvm/ingest"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/vm"
	"github.com/mrpvm/mrpvm/workspace"
)

// Options say what to run.
type Options struct {
	Root       string   // the repository (holds go.mod, docs/, plugins/)
	Sets       []*Set   // the question sets to ask
	Workspaces []string // the workspaces to include; nil: all three
	TempDir    string   // where workspaces and knowledge bases are built
	// Logf, when set, receives progress lines (ingest counts and times).
	Logf func(format string, args ...any)
}

// Result is one scored item.
type Result struct {
	Item
	Status    string // the response status, or "error: ..." for a refused request
	First     string // the first cited source (evidence), else the first context source
	Cited     bool   // First came from the answer's evidence
	FileFirst bool   // First is one of the acceptable files
	Missing   [][]string
	Right     bool
	// ValAccepted: the answer was returned as answered after val-symbolic
	// accepted it.
	ValAccepted bool
	GrepFirst   string // the grep baseline's first file
	GrepRight   bool   // GrepFirst is one of the acceptable files
	Answer      string
	Duration    time.Duration
}

// Report is the outcome of a run.
type Report struct {
	Results []Result
	// Skipped maps a workspace left out to the reason.
	Skipped map[string]string
	// Ingest maps a workspace to its ingest summary line.
	Ingest map[string]string
}

// Run prepares each workspace that has questions, ingests it once into a
// fresh bbolt knowledge base (symbolic plugins, no model, no wrappers) and
// asks every item through vm.Machine.Ask, the path of `mrpvm ask`; the turns
// of a session share one session id. A workspace whose material is missing
// (ErrWorkspaceUnavailable) is skipped and named in Report.Skipped.
func Run(ctx context.Context, opt Options) (*Report, error) {
	wss := opt.Workspaces
	if len(wss) == 0 {
		wss = []string{WorkspaceDocs, WorkspaceTLDR, WorkspaceGolibs}
	}
	logf := opt.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	rep := &Report{Skipped: map[string]string{}, Ingest: map[string]string{}}
	for _, ws := range wss {
		if ws != WorkspaceDocs && ws != WorkspaceTLDR && ws != WorkspaceGolibs {
			return nil, fmt.Errorf("unknown workspace %q (use %s, %s or %s)", ws, WorkspaceDocs, WorkspaceTLDR, WorkspaceGolibs)
		}
		var groups [][]Item
		for _, s := range opt.Sets {
			for _, g := range s.Items() {
				if g[0].Workspace == ws {
					groups = append(groups, g)
				}
			}
		}
		if len(groups) == 0 {
			continue
		}
		res, line, err := runWorkspace(ctx, opt, ws, groups)
		if errors.Is(err, ErrWorkspaceUnavailable) {
			rep.Skipped[ws] = err.Error()
			logf("%s: skipped: %v", ws, err)
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("workspace %s: %w", ws, err)
		}
		rep.Ingest[ws] = line
		logf("%s: %s", ws, line)
		rep.Results = append(rep.Results, res...)
	}
	return rep, nil
}

func runWorkspace(ctx context.Context, opt Options, ws string, groups [][]Item) ([]Result, string, error) {
	dir := filepath.Join(opt.TempDir, ws)
	if err := mkdir(dir); err != nil {
		return nil, "", err
	}
	if err := Prepare(opt.Root, ws, dir); err != nil {
		return nil, "", err
	}
	w, err := workspace.Open(workspace.Options{Root: dir, DBPath: filepath.Join(opt.TempDir, ws+".db"), NoWrappers: true, NoLLM: true})
	if err != nil {
		return nil, "", err
	}
	defer w.Close()
	start := time.Now()
	ing, err := w.KB.Ingest(ctx, ingest.RunOptions{})
	if err != nil {
		return nil, "", err
	}
	if ing.Failed() {
		return nil, "", fmt.Errorf("ingest failed: %+v", ing.Errors)
	}
	line := fmt.Sprintf("%d files, %d KUs ingested in %.1fs", ing.Files, ing.KUs, time.Since(start).Seconds())
	grep, err := newGrepIndex(opt.Root, dir)
	if err != nil {
		return nil, "", err
	}
	var out []Result
	for _, g := range groups {
		session := ""
		for _, it := range g {
			r := ask(ctx, w.VM, it, session)
			if session == "" && r.sessionID != "" {
				session = r.sessionID
			}
			r.GrepFirst = grep.first(it.Question)
			r.GrepRight = !it.NoContext && slices.Contains(it.Files, r.GrepFirst)
			out = append(out, r.Result)
		}
	}
	return out, line, nil
}

type asked struct {
	Result
	sessionID string
}

func mkdir(dir string) error { return os.MkdirAll(dir, 0o755) }

func ask(ctx context.Context, m *vm.Machine, it Item, session string) asked {
	r := asked{Result: Result{Item: it}}
	start := time.Now()
	resp, err := m.Ask(ctx, vm.Request{Question: it.Question, SessionID: session})
	r.Duration = time.Since(start)
	if err != nil {
		r.Status = "error: " + err.Error()
		return r
	}
	r.sessionID = resp.SessionID
	r.Status = resp.Status
	r.Answer = resp.AnswerMarkdown
	switch {
	case len(resp.Evidence) > 0:
		r.First, r.Cited = resp.Evidence[0].SourceID, true
	case len(resp.Context) > 0:
		r.First = resp.Context[0].SourceID
	}
	if resp.Status == vm.StatusAnswered && resp.Trace != nil {
		for _, s := range resp.Trace.Outcome.Stages {
			if s.Stage == plugin.LoopValidation && s.PluginID == "val-symbolic" && s.Status == plugin.StatusAccepted {
				r.ValAccepted = true
			}
		}
	}
	if it.NoContext {
		r.Right = resp.Status == vm.StatusNoContext
		return r
	}
	r.FileFirst = slices.Contains(it.Files, r.First)
	r.Missing = MissingPhrases(resp.AnswerMarkdown, it.Phrases)
	r.Right = resp.Status == vm.StatusAnswered && r.Cited && r.FileFirst && len(r.Missing) == 0
	return r
}

var (
	sourcesLine = regexp.MustCompile(`(?im)^[ \t]*(\*\*|#+[ \t]*)?sources:?(\*\*)?:?[ \t]*$`)
	mdEscape    = regexp.MustCompile(`\\([[:punct:]])`)
	spaces      = regexp.MustCompile(`\s+`)
)

// AnswerBody returns an answer without its trailing list of sources, so
// that a phrase is never matched by a file name or title in that list.
func AnswerBody(answer string) string {
	if locs := sourcesLine.FindAllStringIndex(answer, -1); len(locs) > 0 {
		return answer[:locs[len(locs)-1][0]]
	}
	return answer
}

// normalize lowercases text, drops Markdown backslash escapes and collapses
// runs of white space, so that phrases match across wrapped lines.
func normalize(s string) string {
	s = mdEscape.ReplaceAllString(s, "$1")
	return strings.TrimSpace(spaces.ReplaceAllString(strings.ToLower(s), " "))
}

// MissingPhrases returns the phrase groups none of whose alternatives occur
// in the answer's body (case-insensitively, white space collapsed).
func MissingPhrases(answer string, groups [][]string) [][]string {
	return missingIn(AnswerBody(answer), groups)
}

// MissingFromSource is MissingPhrases for the text of a source file: all of
// it counts, including what follows a "Sources:" line of an example answer
// the file shows.
func MissingFromSource(text string, groups [][]string) [][]string {
	return missingIn(text, groups)
}

func missingIn(text string, groups [][]string) [][]string {
	body := " " + normalize(text) + " "
	var missing [][]string
	for _, g := range groups {
		found := false
		for _, p := range g {
			// Not trimmed: a phrase may end in a space to match a word
			// ("od ") rather than any text holding it ("mode").
			needle := spaces.ReplaceAllString(strings.ToLower(mdEscape.ReplaceAllString(p, "$1")), " ")
			if strings.TrimSpace(needle) != "" && strings.Contains(body, needle) {
				found = true
				break
			}
		}
		if !found {
			missing = append(missing, g)
		}
	}
	return missing
}
