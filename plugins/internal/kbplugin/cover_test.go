package kbplugin

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin/text"
)

// Two sections of one guide match different words of the question; a
// one-leaf page matches one of them. The guide's units gain from what the
// other section covers, the one-leaf page gains nothing, and a unit that
// already covers everything its source does gains nothing either.
func TestCoverSources(t *testing.T) {
	e := &Engine{an: text.English()}
	terms := []string{"upload", "file", "gin"}
	idf := []float64{2, 1, 3}
	cands := []scored{
		{id: "g::1", source: "gin.md", score: 1, ku: &kus.KU{Title: "Upload a file", TextBody: "Single file upload."}},
		{id: "g::2", source: "gin.md", score: 1, ku: &kus.KU{Title: "Gin", TextBody: "Gin is a web framework."}},
		{id: "t::1", source: "tool.md", score: 1, ku: &kus.KU{Title: "Upload", TextBody: "Upload a file."}},
		{id: "g::3", source: "gin.md", score: 1, ku: &kus.KU{Title: "Gin upload", TextBody: "Upload a file with gin."}},
	}
	e.coverSources(cands, terms, idf)
	assert.InDelta(t, 1+coverBonus*3.0/6, cands[0].score, 1e-9, "the guide covers gin besides the unit's upload file")
	assert.InDelta(t, 1+coverBonus*3.0/6, cands[1].score, 1e-9, "and upload file besides the unit's gin")
	assert.Equal(t, 1.0, cands[2].score, "a source with one candidate unit gains nothing")
	assert.Equal(t, 1.0, cands[3].score, "a unit covering all its source covers gains nothing")
}

// boosted reports whether boostNamedTitles lifts a unit titled title for
// query.
func boosted(query, title string) bool {
	e := &Engine{an: text.English()}
	terms := e.an.Append(nil, query)
	cands := []scored{{id: "a", score: 1, ku: &kus.KU{Title: title}}}
	e.boostNamedTitles(cands, terms, query)
	return cands[0].score > 1
}

// A page is named by the question only when the question writes its
// title's words as they are: "two sorted files" shares the stem of sort
// without naming the tool; "sort the lines", "a tar.gz file" and "with
// Jq" name sort, tar and jq.
func TestBoostNamedTitlesWantsTheNameAsWritten(t *testing.T) {
	assert.False(t, boosted("print the lines two sorted files share", "sort"))
	assert.False(t, boosted("splitting a file into pieces", "split"))
	assert.True(t, boosted("How do I sort the lines of a file?", "sort"))
	assert.True(t, boosted("pack a folder into a tar.gz file", "tar"))
	assert.True(t, boosted("pretty-print JSON with Jq", "jq"))
	assert.True(t, boosted("how do I stash changes in git?", "git stash"))
	assert.True(t, boosted("What logging levels does logrus have?", "Level logging"))
	assert.False(t, boosted("print the current time as a Unix timestamp", "times"))
	assert.False(t, boosted("fix a typo in the last commit", "typos"))
	assert.True(t, boosted("count the typos in a file", "typos"))
	assert.True(t, boosted("which plugins are there?", "plugin"))
}

// A heading that names what it documents after a colon ("Searching and
// measuring retrieval: mrpvm search") is named by a question that names
// that thing, however long the words before the colon.
func TestBoostNamedTitlesAfterColon(t *testing.T) {
	assert.True(t, boosted("How is mrpvm search different from mrpvm ask?", "Searching and measuring retrieval: mrpvm search"))
	assert.False(t, boosted("How is mrpvm search different from mrpvm ask?", "Searching and measuring retrieval: mrpvm bench"))
}

// A question that names a tool ("over SSH") also speaks of the tools whose
// names extend that name (sshfs, ssh-copy-id): they gain extendedBoost,
// less than the named page's titleBoost; a page whose name does not
// extend it gains nothing.
func TestBoostNamedTitlesExtendsToNamesBuiltOnIt(t *testing.T) {
	scores := titleBoosts("How can I mount a folder from a remote server over SSH?", "ssh", "sshfs", "ssh-copy-id", "scp")
	assert.InDelta(t, titleBoost, scores[0], 1e-9, "the named page")
	assert.InDelta(t, extendedBoost, scores[1], 1e-9, "a name built on the named one")
	assert.InDelta(t, extendedBoost, scores[2], 1e-9, "a subcommand-like name")
	assert.Equal(t, 1.0, scores[3], "another name")
}

// An English word runs on into other names ("findfs" after find): a name
// extends a named English word only after a separator ("git commit").
func TestBoostNamedTitlesExtendsEnglishWordsAfterASeparator(t *testing.T) {
	scores := titleBoosts("How do I find the changes in git?", "find", "findfs", "find-up", "git commit", "git")
	assert.InDelta(t, titleBoost, scores[0], 1e-9, "the named page")
	assert.Equal(t, 1.0, scores[1], "another word's run-on")
	assert.InDelta(t, extendedBoost, scores[2], 1e-9, "after a separator")
	assert.InDelta(t, extendedBoost, scores[3], 1e-9, "a subcommand of a named name")
	assert.InDelta(t, titleBoost, scores[4], 1e-9, "the named page")
}

// titleBoosts returns the scores boostNamedTitles gives pages of the
// given titles, each scored 1 before, for query.
func titleBoosts(query string, titles ...string) []float64 {
	e := &Engine{an: text.English()}
	cands := make([]scored, len(titles))
	for i, title := range titles {
		cands[i] = scored{id: title, score: 1, ku: &kus.KU{Title: title}}
	}
	e.boostNamedTitles(cands, e.an.Append(nil, query), query)
	scores := make([]float64, len(cands))
	for i, c := range cands {
		scores[i] = c.score
	}
	return scores
}
