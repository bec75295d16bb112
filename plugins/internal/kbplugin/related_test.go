package kbplugin

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/retrieval/kvtest"
)

// memStore is an plugin.Store over one in-memory namespace.
type memStore struct{ kv *kvtest.Mem }

func (s memStore) View(fn func(plugin.KV) error) error   { return fn(s.kv) }
func (s memStore) Update(fn func(plugin.KV) error) error { return fn(s.kv) }

// The question says "capitals" and "processor"; the pages that answer it
// say "upper-case" and "CPUs". kb-balanced reaches them through the
// lexicon (capital -> uppercase -> upper-case) and the knowledge base's
// own spellings (cpu -> cpus); kb-fast, which searches the question's
// words alone, does not.
func TestBalancedReachesPagesInOtherWords(t *testing.T) {
	st := memStore{kv: kvtest.New()}
	pages := map[string]string{
		"tr.md":      "Translate a file to upper-case.",
		"nproc.md":   "Print the number of processing units (normally CPUs) available.",
		"tax.md":     "Compute the tax on the gains of a year.",
		"rename.md":  "Rename files, keeping their letters.",
		"printf.md":  "Format and print a file.",
		"lscpu.md":   "Display information about the CPU architecture and every CPU processor.",
		"city.md":    "Show the weather in a city.",
		"ls.md":      "List files in a folder.",
		"gzip.md":    "Compress a file.",
		"top.md":     "Show running processes.",
		"mount.md":   "Mount a file system.",
		"date.md":    "Print the current date.",
		"letters.md": "Send letters by post.",
	}
	// Pages on other subjects, as a knowledge base holds many.
	for i, w := range []string{"image", "audio", "video", "disk", "network", "printer", "mail", "calendar",
		"database", "archive", "package", "kernel", "service", "editor", "browser", "font"} {
		pages[w+".md"] = fmt.Sprintf("Manage the %s settings of tool %d.", w, i)
	}
	fast, balanced := New(Fast, st), New(Balanced, st)
	for src, body := range pages {
		u := &kus.KU{ID: src + "::0", SourceID: src, Level: kus.LevelLeaf, Title: src, TextBody: body}
		require.NoError(t, balanced.index(st.kv, src, []*kus.KU{u}, nil, nil))
	}
	first := func(e *Engine, q string) string {
		r, err := e.Search(context.Background(), plugin.SearchRequest{Query: q, K: 3, BySource: true})
		require.NoError(t, err)
		if len(r.Hits) == 0 {
			return ""
		}
		return r.Hits[0].SourceID
	}
	for q, want := range map[string]string{
		"How do I convert a file to capitals?": "tr.md",
		"Which cpu units are there?":           "nproc.md",
	} {
		assert.Equal(t, want, first(balanced, q), "kb-balanced: %s", q)
		assert.NotEqual(t, want, first(fast, q), "kb-fast: %s", q)
	}
}
