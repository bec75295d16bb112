package evaluation

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/mrpvm/mrpvm/plugins/all"
)

const root = "../.."

func loadSets(t *testing.T) []*Set {
	t.Helper()
	sets, err := LoadSets(".")
	require.NoError(t, err)
	return sets
}

// TestQuestionFiles checks the question sets against what the evaluation
// promises: a valid schema, ids disjoint across the sets, the minimum
// counts of each kind (for the first two sets together, and for each later
// set alone), every kind in every set, every acceptable file
// present in its workspace, and every phrase group attainable from the
// text of an acceptable file.
func TestQuestionFiles(t *testing.T) {
	sets := loadSets(t)
	require.Len(t, sets, len(SetNames))
	// The first two sets are counted together; every later one (laterSets)
	// stands on its own.
	dev, held := sets[0], sets[1]
	require.Equal(t, []string{"dev", "heldout"}, []string{dev.Name, held.Name})
	laterSets := sets[2:]
	for _, s := range sets[1:] {
		if strings.HasPrefix(s.Name, "heldout") {
			assert.Contains(t, strings.ToLower(s.Note), "never tune", "the held-out set %s must say it is never tuned on", s.Name)
		} else {
			assert.NotContains(t, strings.ToLower(s.Note), "never tune", "%s is a development set", s.Name)
		}
	}

	kinds := map[string]map[string]int{}
	workspaces := map[string]bool{}
	records, followUps, paraphrased := 0, 0, map[string]int{}
	sessions := map[string]int{}
	ids := map[string]string{}
	for _, s := range sets {
		require.NoError(t, s.Check())
		kinds[s.Name] = map[string]int{}
		for _, q := range s.Questions {
			if other, dup := ids[q.ID]; dup {
				t.Errorf("id %s is in both %s and %s", q.ID, other, s.Name)
			}
			ids[q.ID] = s.Name
			kinds[s.Name][q.Kind]++
			if q.Paraphrased {
				paraphrased[s.Name]++
			}
			if q.Kind == KindFollowUp && len(q.Turns) <= 3 {
				sessions[s.Name]++
			}
			if slices.Contains(laterSets, s) {
				continue
			}
			records++
			workspaces[q.Workspace] = true
			if q.Kind == KindFollowUp {
				followUps += len(q.Turns) - 1
			}
		}
	}
	assert.GreaterOrEqual(t, records, 120, "questions in the development and held-out sets")
	assert.GreaterOrEqual(t, len(workspaces), 3, "workspaces")
	assert.GreaterOrEqual(t, followUps, 12, "follow-up turns that depend on an earlier turn")
	assert.GreaterOrEqual(t, kinds["dev"][KindTypo]+kinds["heldout"][KindTypo], 8, "typo'd questions")
	assert.GreaterOrEqual(t, kinds["dev"][KindUnanswerable]+kinds["heldout"][KindUnanswerable], 12, "unanswerable questions")
	assert.GreaterOrEqual(t, paraphrased["dev"]+paraphrased["heldout"], 40, "paraphrased tldr how-to questions")
	for _, s := range sets {
		assert.Positive(t, paraphrased[s.Name], "paraphrased questions in %s", s.Name)
		for _, k := range Kinds {
			assert.Positive(t, kinds[s.Name][k], "kind %s in set %s", k, s.Name)
		}
	}
	share := float64(len(dev.Questions)) / float64(records)
	assert.InDelta(t, 0.58, share, 0.08, "the development set holds about 58%% of the first two sets' questions (50-66%%)")

	// Every later set stands on its own: enough of each kind to give a
	// figure per kind.
	for _, s := range laterSets {
		sWorkspaces := map[string]bool{}
		for _, q := range s.Questions {
			sWorkspaces[q.Workspace] = true
		}
		assert.Len(t, sWorkspaces, 3, "workspaces of %s", s.Name)
		assert.GreaterOrEqual(t, len(s.Questions), 70, "questions in %s", s.Name)
		assert.GreaterOrEqual(t, paraphrased[s.Name], 15, "paraphrased tldr how-to questions in %s", s.Name)
		assert.GreaterOrEqual(t, kinds[s.Name][KindMultiPart], 4, "multi-part questions in %s", s.Name)
		assert.GreaterOrEqual(t, sessions[s.Name], 5, "sessions of 2-3 turns in %s", s.Name)
		assert.GreaterOrEqual(t, kinds[s.Name][KindTypo], 8, "typo'd questions in %s", s.Name)
		assert.GreaterOrEqual(t, kinds[s.Name][KindUnanswerable], 8, "unanswerable questions in %s", s.Name)
	}

	// Acceptable files and phrases, per workspace.
	tmp := t.TempDir()
	texts := map[string]func(string) (string, bool){}
	for _, ws := range []string{WorkspaceDocs, WorkspaceTLDR, WorkspaceGolibs} {
		dir := filepath.Join(tmp, ws)
		require.NoError(t, os.MkdirAll(dir, 0o755))
		err := Prepare(root, ws, dir)
		if errors.Is(err, ErrWorkspaceUnavailable) {
			t.Logf("workspace %s not checked: %v", ws, err)
			continue
		}
		require.NoError(t, err)
		texts[ws] = func(source string) (string, bool) {
			if !SourceExists(root, dir, source) {
				return "", false
			}
			p := filepath.Join(dir, filepath.FromSlash(source))
			if id, ok := strings.CutPrefix(source, "plugin::"); ok {
				m, _ := filepath.Glob(filepath.Join(root, "plugins", "*", id, "plugin.kus.md"))
				p = m[0]
			}
			b, err := os.ReadFile(p)
			return string(b), err == nil
		}
	}
	for _, s := range sets {
		for _, g := range s.Items() {
			for _, it := range g {
				text, ok := texts[it.Workspace]
				if !ok {
					continue
				}
				var all strings.Builder
				for _, f := range it.Files {
					body, exists := text(f)
					if !exists {
						t.Errorf("%s: acceptable file %s is not in workspace %s", it.ID, f, it.Workspace)
					}
					all.WriteString(body + "\n")
				}
				// A phrase the sources cannot supply could never be matched.
				for _, miss := range MissingFromSource(all.String(), it.Phrases) {
					t.Errorf("%s: no acceptable file contains any of %q", it.ID, miss)
				}
			}
		}
	}
}

func TestMissingPhrases(t *testing.T) {
	answer := "Show the last lines and keep\n  reading: `tail {{[-f|--follow]}} file` \\[1\\]\n\nSources:\n[1] tail — common/tail.md:3\n"
	assert.Empty(t, MissingPhrases(answer, [][]string{{"KEEP READING"}, {"--follow", "tail -f"}, {"[1]"}}))
	// The list of sources does not count: a file name there is no phrase of the answer.
	assert.Equal(t, [][]string{{"common/tail.md"}}, MissingPhrases(answer, [][]string{{"common/tail.md"}}))
	// A trailing space asks for the word, not any text holding it.
	assert.Len(t, MissingPhrases("change the mode bits", [][]string{{"od "}}), 1)
	assert.Empty(t, MissingPhrases("run od -x file", [][]string{{"od "}}))
	// A source file's text counts whole, even after an example answer's
	// list of sources.
	page := "Example:\n\nSources:\n[1] a.md\n\n## Caching\n\n`--llm-cache` is off by default.\n"
	assert.Len(t, MissingPhrases(page, [][]string{{"off by default"}}), 1)
	assert.Empty(t, MissingFromSource(page, [][]string{{"off by default"}, {"--llm-cache"}}))
}

func TestGrepBaseline(t *testing.T) {
	ws := t.TempDir()
	for name, text := range map[string]string{
		"b.md": "follow a log file as it grows",
		"a.md": "grows a log",
		"c.md": "nothing to see",
	} {
		require.NoError(t, os.WriteFile(filepath.Join(ws, name), []byte(text), 0o644))
	}
	g, err := newGrepIndex(t.TempDir(), ws)
	require.NoError(t, err)
	assert.Equal(t, "b.md", g.first("How do I follow a log file as it grows?"))
	assert.Equal(t, "a.md", g.first("log grows"), "ties go to the first path")
	assert.Equal(t, "", g.first("How do I do it?"), "stop words alone match nothing")
}

// ratchet is one floor of the ratchet: the least share of right answers
// over some sets, by workspace and overall (all three workspaces, only
// checked when all three ran).
type ratchet struct {
	name   string   // how failures name the sets
	sets   []string // the sets tallied together
	floors floors
}

// floors are the least shares of right answers of one ratchet.
type floors struct {
	docs, tldr, golibs, overall float64
}

// of is the floor of workspace ws (0 for a workspace with none).
func (f floors) of(ws string) float64 {
	switch ws {
	case WorkspaceDocs:
		return f.docs
	case WorkspaceTLDR:
		return f.tldr
	case WorkspaceGolibs:
		return f.golibs
	}
	return 0
}

// ratchets are the floors the evaluation must keep. Whoever improves the
// answers raises them to just under the new figures, so that a later
// change cannot quietly undo the gain. Each floor sits one answer under
// the figure of the run that set it (the comment beside it, in the order
// docs, tldr, golibs; overall). Runs on one machine give the same figures,
// but planner learning still weighs the latencies it measures, in steps
// of 100 ms, so a much slower machine could order the plugins differently
// for a question.
var ratchets = []ratchet{
	// The development and held-out sets together, set just under the
	// figures measured when the evaluation was written
	// (test/evaluation/README.md, Baseline). When questions are added, the
	// floors are set again just under the figures the same system reaches
	// on the enlarged sets.
	{"right answers", []string{"dev", "heldout"}, floors{0.89, 0.57, 0.89, 0.75}}, // 42/47, 58/99, 61/67; 161/213
	// The held-out set alone. That set never changes (questions are added
	// to the development set only), so these floors only ever rise,
	// whatever the development set grows by.
	{"held-out right answers", []string{"heldout"}, floors{0.80, 0.50, 0.82, 0.65}}, // 12/15, 20/38, 19/23; 51/76
	// The second held-out set alone, set just under what the system reached
	// on the tree the set was merged into. Like the held-out set it never
	// changes, so these floors only ever rise.
	{"second held-out right answers", []string{"heldout2"}, floors{0.88, 0.40, 0.56, 0.58}}, // 24/27, 19/45, 19/32; 62/104
	// The third held-out set alone, set at what the system reached on the
	// tree it was first reported on. It never changes, so these floors
	// only ever rise.
	{"third held-out right answers", []string{"heldout3"}, floors{0.76, 0.44, 0.53, 0.58}}, // 20/25, 17/36, 16/28; 53/89
	// The third development set alone. It is tuned on, so whoever raises
	// its figures raises these.
	{"third development set right answers", []string{"dev3"}, floors{0.85, 0.69, 0.89, 0.81}}, // 24/28, 28/39, 26/28; 78/95
	// The fourth development set alone, at the figures of its first run
	// (the tree it was written on). It is tuned on, so whoever raises its
	// figures raises these.
	{"fourth development set right answers", []string{"dev4"}, floors{0.82, 0.53, 0.80, 0.71}}, // 25/29, 25/45, 25/30; 75/104
	// The seventh development set alone, one answer under its figures
	// (it was written before the system was run on it, and is tuned on
	// since): whoever raises its figures raises these.
	{"seventh development set right answers", []string{"dev7"}, floors{0.52, 0.48, 0.66, 0.56}}, // 13/23, 23/45, 17/24; 53/92
	// The eighth development set alone, one answer under its figures (it
	// was written before the system was run on it, and is tuned on since;
	// its first run was 13/23, 28/51, 6/23; 47/97): whoever raises its
	// figures raises these.
	{"eighth development set right answers", []string{"dev8"}, floors{0.60, 0.60, 0.47, 0.59}}, // 15/23, 32/51, 12/23; 59/97
	// The ninth development set alone, one answer under its first run (it
	// was written before the system was run on it): whoever raises its
	// figures raises these.
	{"ninth development set right answers", []string{"dev9"}, floors{0.60, 0.50, 0.68, 0.59}}, // 19/30, 30/57, 21/29; 70/116
	// The tenth development set alone, one answer under its first run (it
	// was written before the system was run on it): whoever raises its
	// figures raises these.
	{"tenth development set right answers", []string{"dev10"}, floors{0.53, 0.54, 0.58, 0.56}}, // 17/30, 32/57, 19/31; 68/118
	// The eleventh development set alone, one answer under its first run
	// (it was written before the system was run on it): whoever raises
	// its figures raises these.
	{"eleventh development set right answers", []string{"dev11"}, floors{0.44, 0.50, 0.41, 0.48}}, // 16/34, 31/59, 15/34; 62/127
	// The twelfth development set alone, one answer under its first run
	// (it was written before the system was run on it): whoever raises
	// its figures raises these.
	{"twelfth development set right answers", []string{"dev12"}, floors{0.70, 0.39, 0.54, 0.53}}, // 25/34, 23/56, 20/35; 68/125
	// The thirteenth development set alone, one answer under its first
	// run (it was written before the system was run on it): whoever
	// raises its figures raises these.
	{"thirteenth development set right answers", []string{"dev13"}, floors{0.44, 0.44, 0.51, 0.48}}, // 16/34, 26/56, 19/35; 61/125
	// The fourteenth development set alone, one answer under its first
	// run (it was written before the system was run on it): whoever
	// raises its figures raises these.
	{"fourteenth development set right answers", []string{"dev14"}, floors{0.41, 0.41, 0.54, 0.46}}, // 15/34, 24/56, 20/35; 59/125
	// The fifteenth development set alone, one answer under its first
	// run (it was written before the system was run on it): whoever
	// raises its figures raises these.
	{"fifteenth development set right answers", []string{"dev15"}, floors{0.47, 0.33, 0.48, 0.43}}, // 17/34, 20/56, 18/35; 55/125
	// The sixth development set alone, set at its first run (written
	// before the system was run on it): whoever raises its figures raises
	// these.
	{"sixth development set right answers", []string{"dev6"}, floors{0.65, 0.61, 0.84, 0.70}}, // 16/23, 28/44, 22/25; 66/92
	// The fifth development set alone, set at its figures: it is tuned on,
	// so whoever raises its figures raises these.
	{"fifth development set right answers", []string{"dev5"}, floors{0.78, 0.49, 0.66, 0.63}}, // 26/32, 26/51, 23/33; 75/116
	// The second development set alone, set just under what the system
	// reached when that set was first run. It is tuned on, so whoever
	// raises its figures raises these.
	{"second development set right answers", []string{"dev2"}, floors{0.90, 0.75, 0.85, 0.83}}, // 20/21, 31/40, 24/28; 75/89
}

// kindFloors are floors of the right answers of one kind, over the
// development and held-out sets together, checked when all three workspaces ran.
var kindFloors = map[string]float64{
	KindFollowUp:  0.85, // 19/21
	KindMultiPart: 0.50, // 6/12
}

// TestEvaluationRatchet asks every question of every set and fails when
// the right answers of a workspace, or of all of them, fall below its
// floor: over the development and held-out sets together, and over each
// of the sets its ratchets name alone. The tldr
// workspace is skipped when the tldr-pages archive is not available (as in
// test/tldr).
func TestEvaluationRatchet(t *testing.T) {
	if testing.Short() {
		t.Skip("ingests tldr-pages common + linux")
	}
	rep, err := Run(context.Background(), Options{Root: root, Sets: loadSets(t), TempDir: t.TempDir(), Logf: t.Logf})
	require.NoError(t, err)
	var md strings.Builder
	rep.WriteMarkdown(&md)
	t.Log("\n" + md.String())
	for _, r := range ratchets {
		sum := rep.SummarizeSets(r.sets...)
		for ws, tally := range sum.ByWorkspace {
			assert.GreaterOrEqual(t, tally.Rate(), r.floors.of(ws), "%s over %s: %d/%d", r.name, ws, tally.Right, tally.N)
		}
		if len(rep.Skipped) == 0 {
			assert.GreaterOrEqual(t, sum.All.Rate(), r.floors.overall, "%s overall: %d/%d", r.name, sum.All.Right, sum.All.N)
		}
	}
	if len(rep.Skipped) == 0 {
		all := rep.SummarizeSets("dev", "heldout")
		for kind, floor := range kindFloors {
			tally := all.ByKind[kind]
			require.NotNil(t, tally, kind)
			assert.GreaterOrEqual(t, tally.Rate(), floor, "right answers of kind %s: %d/%d", kind, tally.Right, tally.N)
		}
	}
}
