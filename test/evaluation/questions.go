package evaluation

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Workspace names used by the question files.
const (
	WorkspaceDocs   = "mrpvm-docs"
	WorkspaceTLDR   = "tldr"
	WorkspaceGolibs = "golibs"
)

// Question kinds. A follow-up session is one record of kind KindFollowUp
// whose first turn is scored as KindOpener and later turns as KindFollowUp.
const (
	KindHowTo        = "how-to"
	KindDefinition   = "definition"
	KindComparison   = "comparison"
	KindWhy          = "why"
	KindList         = "list"
	KindMultiPart    = "multi-part"
	KindFollowUp     = "follow-up"
	KindOpener       = "session-opener"
	KindTypo         = "typo"
	KindUnanswerable = "unanswerable"
)

// Kinds lists the kinds a record may have, in report order.
var Kinds = []string{KindHowTo, KindDefinition, KindComparison, KindWhy, KindList, KindMultiPart,
	KindFollowUp, KindTypo, KindUnanswerable}

// ExpectNoContext is the only value of Question.Expect: the workspace does
// not answer the question and the right status is no-context.
const ExpectNoContext = "no-context"

// Set is one question file.
type Set struct {
	Name      string     `json:"set"`  // one of SetNames
	Note      string     `json:"note"` // what the set may be used for
	Questions []Question `json:"questions"`
}

// Question is one record: a single question, or a session of turns.
type Question struct {
	ID        string `json:"id"`
	Workspace string `json:"workspace"`
	Kind      string `json:"kind"`
	// Paraphrased marks a how-to question written without the command's
	// name, as a user who does not know it would ask.
	Paraphrased bool   `json:"paraphrased,omitempty"`
	Question    string `json:"question,omitempty"`
	// Files are the acceptable first sources (workspace-relative paths or
	// plugin::<id>); Phrases are groups of case-insensitive alternatives,
	// one of each group must appear in the answer.
	Files   []string   `json:"files,omitempty"`
	Phrases [][]string `json:"phrases,omitempty"`
	Expect  string     `json:"expect,omitempty"`
	Turns   []Turn     `json:"turns,omitempty"`
}

// Turn is one turn of a follow-up session.
type Turn struct {
	Question string     `json:"question"`
	Files    []string   `json:"files"`
	Phrases  [][]string `json:"phrases"`
}

// LoadSet reads a question file, rejecting unknown fields.
func LoadSet(path string) (*Set, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	var s Set
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &s, nil
}

// SetNames are the question sets, in the order they are loaded and asked.
// The held-out sets were written by someone who had not seen the system's
// answers and are never tuned on; each development set was written from
// the source pages before the system was run on it, then tuned on. A set
// asked later never changes what an earlier one measures, since the
// earlier items of a workspace are asked first.
var SetNames = []string{"dev", "heldout", "heldout2", "dev2", "heldout3", "dev3", "dev4", "dev5", "dev6", "dev7", "dev8", "dev9", "dev10", "dev11", "dev12", "dev13", "dev14", "dev15"}

// LoadSets reads questions/<name>.json under dir for every name of SetNames.
func LoadSets(dir string) ([]*Set, error) {
	var out []*Set
	for _, name := range SetNames {
		s, err := LoadSet(filepath.Join(dir, "questions", name+".json"))
		if err != nil {
			return nil, err
		}
		if s.Name != name {
			return nil, fmt.Errorf("questions/%s.json: set is %q, want %q", name, s.Name, name)
		}
		out = append(out, s)
	}
	return out, nil
}

// Check reports every schema problem of a set: missing fields, unknown
// kinds or workspaces, answerable questions without files or phrases,
// unanswerable ones with them, sessions of fewer than two turns.
func (s *Set) Check() error {
	var errs []error
	bad := func(q Question, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s/%s: %s", s.Name, q.ID, fmt.Sprintf(format, args...)))
	}
	seen := map[string]bool{}
	for _, q := range s.Questions {
		if q.ID == "" {
			bad(q, "no id")
		}
		if seen[q.ID] {
			bad(q, "duplicate id")
		}
		seen[q.ID] = true
		switch q.Workspace {
		case WorkspaceDocs, WorkspaceTLDR, WorkspaceGolibs:
		default:
			bad(q, "unknown workspace %q", q.Workspace)
		}
		known := false
		for _, k := range Kinds {
			known = known || k == q.Kind
		}
		if !known {
			bad(q, "unknown kind %q", q.Kind)
		}
		if q.Paraphrased && (q.Kind != KindHowTo || q.Workspace != WorkspaceTLDR) {
			bad(q, "paraphrased is for tldr how-to questions")
		}
		switch {
		case q.Kind == KindFollowUp:
			if q.Question != "" || len(q.Files) > 0 || len(q.Phrases) > 0 || q.Expect != "" {
				bad(q, "a session keeps its questions, files and phrases in turns")
			}
			if len(q.Turns) < 2 {
				bad(q, "a session needs at least two turns")
			}
			for i, t := range q.Turns {
				if strings.TrimSpace(t.Question) == "" || len(t.Files) == 0 || len(t.Phrases) == 0 {
					bad(q, "turn %d needs a question, files and phrases", i+1)
				}
				checkPhrases(t.Phrases, func(m string) { bad(q, "turn %d: %s", i+1, m) })
			}
		case q.Kind == KindUnanswerable:
			if q.Expect != ExpectNoContext || len(q.Files) > 0 || len(q.Phrases) > 0 || len(q.Turns) > 0 {
				bad(q, "an unanswerable question has expect %q and no files, phrases or turns", ExpectNoContext)
			}
		default:
			if strings.TrimSpace(q.Question) == "" || len(q.Files) == 0 || len(q.Phrases) == 0 || q.Expect != "" || len(q.Turns) > 0 {
				bad(q, "needs a question, files and phrases (and no expect or turns)")
			}
			checkPhrases(q.Phrases, func(m string) { bad(q, "%s", m) })
		}
		if q.Kind == KindUnanswerable && strings.TrimSpace(q.Question) == "" {
			bad(q, "no question")
		}
	}
	return errors.Join(errs...)
}

func checkPhrases(groups [][]string, bad func(string)) {
	for _, g := range groups {
		if len(g) == 0 {
			bad("an empty phrase group")
		}
		for _, p := range g {
			if strings.TrimSpace(p) == "" {
				bad("an empty phrase")
			}
		}
	}
}

// Item is one scored unit: a question, or one turn of a session.
type Item struct {
	ID          string // question id, with "#n" for turn n (1-based) of a session
	Set         string
	Workspace   string
	Kind        string // KindOpener for a session's first turn
	Paraphrased bool
	Question    string
	Files       []string
	Phrases     [][]string
	NoContext   bool // the right status is no-context
}

// Items flattens a set into scored items, sessions as consecutive turns.
func (s *Set) Items() [][]Item {
	var out [][]Item
	for _, q := range s.Questions {
		if q.Kind != KindFollowUp {
			out = append(out, []Item{{ID: q.ID, Set: s.Name, Workspace: q.Workspace, Kind: q.Kind, Paraphrased: q.Paraphrased,
				Question: q.Question, Files: q.Files, Phrases: q.Phrases, NoContext: q.Kind == KindUnanswerable}})
			continue
		}
		var sess []Item
		for i, t := range q.Turns {
			kind := KindFollowUp
			if i == 0 {
				kind = KindOpener
			}
			sess = append(sess, Item{ID: fmt.Sprintf("%s#%d", q.ID, i+1), Set: s.Name, Workspace: q.Workspace, Kind: kind,
				Question: t.Question, Files: t.Files, Phrases: t.Phrases})
		}
		out = append(out, sess)
	}
	return out
}
