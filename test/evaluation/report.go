package evaluation

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// Tally counts one group of results.
type Tally struct {
	N, Right int
	// Answerable counts the items with acceptable files; FileFirst and
	// GrepFirst how many of them had one first for mrpvm and for grep.
	Answerable, FileFirst, GrepFirst int
	// Wrong counts the wrong results, ValAccepted those of them returned as
	// answered after val-symbolic accepted them.
	Wrong, ValAccepted int
}

func (t *Tally) add(r Result) {
	t.N++
	if r.Right {
		t.Right++
	} else {
		t.Wrong++
		if r.ValAccepted {
			t.ValAccepted++
		}
	}
	if !r.NoContext {
		t.Answerable++
		if r.FileFirst {
			t.FileFirst++
		}
		if r.GrepRight {
			t.GrepFirst++
		}
	}
}

// Rate is Right/N (0 for no items).
func (t Tally) Rate() float64 { return ratio(t.Right, t.N) }

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// Summary is the tallies of one set (or of all sets).
type Summary struct {
	Set         string
	All         Tally
	ByKind      map[string]*Tally
	ByWorkspace map[string]*Tally
	// Paraphrased counts the paraphrased tldr how-to questions.
	Paraphrased Tally
}

// Summarize tallies the results of one set ("" for every set).
func (r *Report) Summarize(set string) *Summary {
	if set == "" {
		return r.SummarizeSets()
	}
	return r.SummarizeSets(set)
}

// SummarizeSets tallies the results of the named sets together (every set
// when none is named).
func (r *Report) SummarizeSets(sets ...string) *Summary {
	s := &Summary{Set: strings.Join(sets, "+"), ByKind: map[string]*Tally{}, ByWorkspace: map[string]*Tally{}}
	for _, res := range r.Results {
		if len(sets) > 0 && !slices.Contains(sets, res.Set) {
			continue
		}
		s.All.add(res)
		if s.ByKind[res.Kind] == nil {
			s.ByKind[res.Kind] = &Tally{}
		}
		s.ByKind[res.Kind].add(res)
		if s.ByWorkspace[res.Workspace] == nil {
			s.ByWorkspace[res.Workspace] = &Tally{}
		}
		s.ByWorkspace[res.Workspace].add(res)
		if res.Paraphrased {
			s.Paraphrased.add(res)
		}
	}
	return s
}

// reportKinds is the row order of the per-kind table.
var reportKinds = []string{KindHowTo, KindDefinition, KindComparison, KindWhy, KindList, KindMultiPart,
	KindOpener, KindFollowUp, KindTypo, KindUnanswerable}

func pct(a, b int) string {
	if b == 0 {
		return "–"
	}
	return fmt.Sprintf("%d/%d (%.0f%%)", a, b, 100*ratio(a, b))
}

func times(a, b int) string {
	if b == 0 {
		if a == 0 {
			return "–"
		}
		return "∞"
	}
	return fmt.Sprintf("%.2fx", float64(a)/float64(b))
}

// WriteMarkdown writes the figures of every set as Markdown tables: per
// kind and per workspace, right answers, right file first for mrpvm and for
// the grep baseline, and val-symbolic's acceptance of wrong answers.
func (r *Report) WriteMarkdown(w io.Writer) {
	var sets []string
	for _, res := range r.Results {
		if !slices.Contains(sets, res.Set) {
			sets = append(sets, res.Set)
		}
	}
	for _, set := range sets {
		s := r.Summarize(set)
		fmt.Fprintf(w, "### Set %s\n\n", set)
		fmt.Fprintln(w, "| kind | right answers | right file first (mrpvm) | right file first (grep) | wrong answers val-symbolic accepted |")
		fmt.Fprintln(w, "| --- | --- | --- | --- | --- |")
		for _, k := range reportKinds {
			if t := s.ByKind[k]; t != nil {
				writeRow(w, k, t)
			}
		}
		writeRow(w, "**overall**", &s.All)
		fmt.Fprintln(w)
		fmt.Fprintln(w, "| workspace | right answers | right file first (mrpvm) | right file first (grep) | wrong answers val-symbolic accepted |")
		fmt.Fprintln(w, "| --- | --- | --- | --- | --- |")
		for _, ws := range []string{WorkspaceDocs, WorkspaceTLDR, WorkspaceGolibs} {
			if t := s.ByWorkspace[ws]; t != nil {
				writeRow(w, ws, t)
			}
		}
		fmt.Fprintln(w)
		p := s.Paraphrased
		fmt.Fprintf(w, "- Paraphrased tldr how-to questions: right page first %s for mrpvm, %s for grep (ratio %s); right answers %s.\n",
			pct(p.FileFirst, p.Answerable), pct(p.GrepFirst, p.Answerable), times(p.FileFirst, p.GrepFirst), pct(p.Right, p.N))
		fmt.Fprintf(w, "- Right file first on all answerable items: mrpvm %s, grep %s (ratio %s).\n",
			pct(s.All.FileFirst, s.All.Answerable), pct(s.All.GrepFirst, s.All.Answerable), times(s.All.FileFirst, s.All.GrepFirst))
		fmt.Fprintf(w, "- val-symbolic accepted %s of the wrong answers.\n\n", pct(s.All.ValAccepted, s.All.Wrong))
	}
	for ws, why := range r.Skipped {
		fmt.Fprintf(w, "Skipped workspace %s: %s\n\n", ws, why)
	}
}

func writeRow(w io.Writer, name string, t *Tally) {
	fmt.Fprintf(w, "| %s | %s | %s | %s | %s |\n", name, pct(t.Right, t.N), pct(t.FileFirst, t.Answerable),
		pct(t.GrepFirst, t.Answerable), pct(t.ValAccepted, t.Wrong))
}

// WriteMisses writes one line per wrong result of a set ("" for all), for
// the people tuning on the development set.
func (r *Report) WriteMisses(w io.Writer, set string) {
	for _, res := range r.Results {
		if res.Right || (set != "" && res.Set != set) {
			continue
		}
		want := ExpectNoContext
		if !res.NoContext {
			want = strings.Join(res.Files, " | ")
		}
		fmt.Fprintf(w, "- %s [%s/%s] %q: status %s, first %q (want %s), grep %q", res.ID, res.Workspace, res.Kind,
			res.Question, res.Status, res.First, want, res.GrepFirst)
		if len(res.Missing) > 0 {
			fmt.Fprintf(w, ", missing phrases %v", res.Missing)
		}
		if res.ValAccepted {
			fmt.Fprint(w, ", val-symbolic accepted")
		}
		fmt.Fprintln(w)
	}
}
