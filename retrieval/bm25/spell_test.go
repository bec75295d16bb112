package bm25

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/retrieval/kvtest"
)

// indexTitled indexes each page {title, body} into kv as a source named by
// its title, of one leaf unit with that title and topic.
func indexTitled(t *testing.T, x *Index, kv *kvtest.Mem, pages [][2]string) {
	t.Helper()
	for _, p := range pages {
		u := &kus.KU{ID: p[0] + "::1", Title: p[0], Topic: p[0], TextBody: p[1]}
		require.NoError(t, x.IndexSource(kv, p[0], []*kus.KU{u}, nil))
	}
}

// titledKB is an index with the default parameters and a new store
// holding the pages as indexTitled indexes them.
func titledKB(t *testing.T, pages [][2]string) (*Index, *kvtest.Mem) {
	t.Helper()
	x, kv := New(DefaultParams()), kvtest.New()
	indexTitled(t, x, kv, pages)
	return x, kv
}

// correct corrects query against kv, requiring no error.
func correct(t *testing.T, x *Index, kv *kvtest.Mem, query string) (string, []Correction) {
	t.Helper()
	got, fixes, err := x.Correct(kv, query)
	require.NoError(t, err)
	return got, fixes
}

// requireCorrected requires query to be corrected to want.
func requireCorrected(t *testing.T, x *Index, kv *kvtest.Mem, query, want string) {
	t.Helper()
	got, _ := correct(t, x, kv, query)
	require.Equal(t, want, got)
}

// requireKept requires query to come back as typed, with no correction.
func requireKept(t *testing.T, x *Index, kv *kvtest.Mem, query string) {
	t.Helper()
	got, fixes := correct(t, x, kv, query)
	require.Empty(t, fixes)
	require.Equal(t, query, got)
}

func TestCorrectUsesTheIndexVocabulary(t *testing.T) {
	x, kv := titledKB(t, [][2]string{
		{"unzip", "Extract files from a ZIP archive into a specific folder. Extract a file."},
		{"file", "Determine the type of a file. Files and folders."},
		{"fuel", "fuel"},
	})
	got, fixes := correct(t, x, kv, "how do i unzpi a fiel to a specfic folder")
	require.Equal(t, "how do i unzip a file to a specific folder", got)
	require.Len(t, fixes, 3)
	require.Equal(t, Correction{Word: "unzpi", As: "unzip"}, fixes[0])

	// Known words, short words and a word far from every indexed one stay.
	requireKept(t, x, kv, "extract the zip archive of a football club")

	// The vocabulary follows the index: once "fuel" is gone, "feul" has
	// nothing to become but stays as typed.
	requireCorrected(t, x, kv, "feul", "fuel")
	require.NoError(t, x.RemoveSource(kv, "fuel", nil))
	requireKept(t, x, kv, "feul")
}

func TestCorrectKeepsRealWords(t *testing.T) {
	x, kv := titledKB(t, [][2]string{
		{"exit", "Exit the shell. Exit with a status code."},
		{"change", "Change the configuration and write it back."},
		{"file", "Serve the files of a folder."},
	})
	// "edited" is one edit from "exited", but the lexicon relates "edit"
	// to "change" and "write", which the index holds: a real word, kept.
	requireKept(t, x, kv, "reload when the file is edited")

	// "fils" is a word too (a coin), but nothing it relates to is in the
	// index: a slip for "files", corrected.
	_, fixes := correct(t, x, kv, "serve static fils")
	require.Len(t, fixes, 1)
	require.Equal(t, "fils", fixes[0].Word)
	require.Contains(t, []string{"file", "files"}, fixes[0].As)
}

// TestCorrectTakesALooselyTiedWordOfAHastyQueryAsASlip: "tets" analyses
// to "tet" (the holiday Tet), which the lexicon ties to the index only
// through its broader term "day". Alone it is kept as asked; in a query
// with another slip ("mesage") it is one more, corrected to "test".
func TestCorrectTakesALooselyTiedWordOfAHastyQueryAsASlip(t *testing.T) {
	x, kv := titledKB(t, [][2]string{
		{"testing", "Test that a message was logged. Run the tests every day."},
	})
	requireKept(t, x, kv, "how to tets that a message was logged")

	got, fixes := correct(t, x, kv, "how to tets that a mesage was logged")
	require.Len(t, fixes, 2)
	require.Equal(t, "how to test that a message was logged", got)
}

// TestCorrectPrefersTheLikelierSlip: of spellings that analyse to the
// same indexed term, the one a left-out letter explains is searched, not
// one a mistyped letter explains.
func TestCorrectPrefersTheLikelierSlip(t *testing.T) {
	x, kv := titledKB(t, [][2]string{{"env", "Working with environment variables, recursively. Delete them."}})
	requireCorrected(t, x, kv, "enviroment variables recursivly", "environment variables recursively")
	indexTitled(t, x, kv, [][2]string{{"hidden", "Show hidden files with logrus."}})
	requireCorrected(t, x, kv, "hiddne files in logruss", "hidden files in logrus")

	// A slip in a common word is that word, not an indexed term one edit
	// away ("waht" is "what", not "wait"); a word of the language one
	// swap from a common word stays.
	indexTitled(t, x, kv, [][2]string{{"wait", "Wait for a process. Wait again."}})
	requireCorrected(t, x, kv, "waht does it mean", "what does it mean")
	_, fixes := correct(t, x, kv, "submit a form")
	require.Empty(t, fixes)
}

// TestCorrectSwapIntoACommonWord: a word of the language the knowledge
// base never uses, one swap of adjacent letters from a common word, is
// that slip ("dose" is "does", not the indexed "done").
func TestCorrectSwapIntoACommonWord(t *testing.T) {
	x, kv := titledKB(t, [][2]string{{"done", "Mark a task as done. Done tasks are hidden."}})
	got, fixes := correct(t, x, kv, "how dose a task end")
	require.Equal(t, "how does a task end", got)
	require.Equal(t, []Correction{{Word: "dose", As: "does"}}, fixes)

	// So is a three-letter word nothing knows ("teh"), but not one the
	// index holds ("nad").
	indexTitled(t, x, kv, [][2]string{{"nad", "NAD levels in a task."}})
	got, fixes = correct(t, x, kv, "how do I end teh task")
	require.Equal(t, "how do I end the task", got)
	require.Len(t, fixes, 1)
	_, fixes = correct(t, x, kv, "nad task")
	require.Empty(t, fixes)
}

// TestCorrectLeavesContractions: a contraction typed without its
// apostrophe is not a misspelling of an indexed name.
func TestCorrectLeavesContractions(t *testing.T) {
	x, kv := titledKB(t, [][2]string{{"whatis", "Display one-line descriptions from manual pages."}})
	_, fixes := correct(t, x, kv, "whats my address")
	require.Empty(t, fixes)
	_, fixes = correct(t, x, kv, "whatsi")
	require.Len(t, fixes, 1, "a misspelling is still corrected")
}

func TestOSA(t *testing.T) {
	require.Equal(t, 1, osa("unzpi", "unzip", 2))
	require.Equal(t, 1, osa("specf", "specif", 2))
	require.Equal(t, 3, osa("football", "bootable", 2))
	require.Equal(t, 0, osa("same", "same", 2))
}

func TestCorrectWeighsFarKeySubstitutions(t *testing.T) {
	// "limt" is one substitution from "list" (m and s far apart on the
	// keyboard) and one insertion from "limit"; "list" is three times as
	// frequent, which does not outweigh the likelier slip.
	var pages [][2]string
	for i := range 6 {
		pages = append(pages, [2]string{fmt.Sprintf("l%d", i), "list the items"})
	}
	pages = append(pages, [2]string{"m0", "limit the rate"}, [2]string{"m1", "limit the rate"})
	x, kv := titledKB(t, pages)
	requireCorrected(t, x, kv, "limt requests", "limit requests")

	for _, tc := range []struct {
		a, b byte
		near bool
	}{{'a', 's', true}, {'g', 't', true}, {'b', 'h', true}, {'m', 's', false}, {'q', 'p', false}} {
		require.Equal(t, tc.near, keyNeighbours(tc.a, tc.b), "%c %c", tc.a, tc.b)
	}
}

func TestCorrectPrefersCommonTermTwoEditsAway(t *testing.T) {
	// "procces" is one substitution ("procfes") from the rare stem of
	// "procfs", two edits from "process", which the knowledge base uses
	// on every page: the common word explains the slip better.
	pages := [][2]string{{"procfs", "mount the procfs"}}
	for i := range 60 {
		pages = append(pages, [2]string{fmt.Sprintf("p%d", i), "kill the process"})
	}
	x, kv := titledKB(t, pages)
	requireCorrected(t, x, kv, "which procces uses the port", "which process uses the port")

	// A term two edits away that is not far more frequent than the one
	// edit away stays behind it.
	x, kv = titledKB(t, append(pages[:1:1], pages[1:4]...))
	requireCorrected(t, x, kv, "which procces uses the port", "which procfes uses the port")
}

func TestCorrectsThePossessivesNoun(t *testing.T) {
	x, kv := titledKB(t, [][2]string{{"plugin", "A plugin answers questions."}})
	got, fixes := correct(t, x, kv, "what does a pluign's answer hold")
	require.Equal(t, "what does a plugin's answer hold", got)
	require.Equal(t, []Correction{{Word: "pluign", As: "plugin"}}, fixes)
}
