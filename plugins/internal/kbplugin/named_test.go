package kbplugin

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugin/text"
)

const namedMD = `# widget

## Why widget?

Widget does the following for you:

1. Find and load a configuration file in JSON, TOML or YAML.
2. Provide a mechanism to set default values for your options.
3. Provide a mechanism to set override values for options from flags.
4. Provide an alias system to rename parameters.

## Putting values into widget

Widget takes values from many places.

### Setting Overrides

These could be from a flag, or from your own logic.

` + "```go\nwidget.Set(\"Verbose\", true)\n```\n" + `
### Reading values

Values are read with Get.
`

// analysed is the analysed terms of s, in order.
func analysed(s string) []string {
	var out []string
	text.English().Each(s, func(t text.Token) { out = append(out, t.Term) })
	return out
}

// A how-to whose evidence holds a page's overview list gets the section
// whose heading names the task's rarest term, in place of the weakest
// unit other than the overview when the budget is full.
func TestNamedSectionJoinsOverview(t *testing.T) {
	m := parseUnits(t, "widget.md", namedMD)
	over := unitTitled(t, m, kus.LevelLeaf, "Why widget?")
	weak := unitTitled(t, m, kus.LevelLeaf, "Reading values")
	terms := analysed("override value widget")
	require.Len(t, terms, 3)
	idf := []float64{4, 1, 2}
	ev := []plugin.ScoredKU{{KU: over, Score: 1}, {KU: weak, Score: 0.5}}
	got := withNamedSection(ev, 2, terms, idf, text.English(), m)
	require.Len(t, got, 2)
	assert.Equal(t, over.ID, got[0].KU.ID)
	assert.Equal(t, "Setting Overrides", got[1].KU.Title)
	assert.Equal(t, kus.LevelLeaf, levelOf(got[1].KU))
	assert.Less(t, got[1].Score, got[0].Score)

	// The overview stays when it is the weakest unit.
	ev2 := []plugin.ScoredKU{{KU: weak, Score: 1}, {KU: over, Score: 0.5}}
	got = withNamedSection(ev2, 2, terms, idf, text.English(), m)
	require.Len(t, got, 2)
	assert.Equal(t, over.ID, got[0].KU.ID)
	assert.Equal(t, "Setting Overrides", got[1].KU.Title)

	// Room in the budget: the section is added.
	assert.Len(t, withNamedSection(ev, 5, terms, idf, text.English(), m), 3)
}

// Nothing is gathered when the rarest term names the page itself or no
// heading of the page, when the evidence already holds a unit headed with
// it, or when the evidence holds no overview list.
func TestNamedSectionNeedsOverviewAndNewHeading(t *testing.T) {
	m := parseUnits(t, "widget.md", namedMD)
	over := unitTitled(t, m, kus.LevelLeaf, "Why widget?")
	sec := unitTitled(t, m, kus.LevelLeaf, "Setting Overrides")
	plain := unitTitled(t, m, kus.LevelLeaf, "Reading values")
	terms := analysed("override value widget")

	ev := []plugin.ScoredKU{{KU: over, Score: 1}}
	assert.Len(t, withNamedSection(ev, 5, analysed("widget"), []float64{4}, text.English(), m), 1, "the page's own name")
	assert.Len(t, withNamedSection(ev, 5, analysed("alias widget"), []float64{4, 1}, text.English(), m), 1, "no heading names it")
	ev = []plugin.ScoredKU{{KU: over, Score: 1}, {KU: sec, Score: 0.5}}
	assert.Len(t, withNamedSection(ev, 5, terms, []float64{4, 1, 2}, text.English(), m), 2, "already held")
	ev = []plugin.ScoredKU{{KU: plain, Score: 1}}
	assert.Len(t, withNamedSection(ev, 5, terms, []float64{4, 1, 2}, text.English(), m), 1, "no overview")
	assert.Equal(t, 4, listLines("1. a\n2) b\n- c\n| x | y |", true))
}
