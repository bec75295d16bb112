package lsp_test

import (
	"strings"
	"testing"
)

// TestSearchCommand runs mrpvm.search over the pipe: hits carry the
// evidence fields (a file URI and a range an editor can open), the plugin
// and k are honoured, and a refused request is InvalidParams with the
// code mrpvm search uses.
func TestSearchCommand(t *testing.T) {
	e := start(t, "basic.txtar", editorOptions{})
	type hit struct {
		KUID     string  `json:"kuId"`
		Title    string  `json:"title"`
		SourceID string  `json:"sourceId"`
		URI      string  `json:"uri"`
		Score    float64 `json:"score"`
		Range    struct {
			StartLine int `json:"startLine"`
			EndLine   int `json:"endLine"`
		} `json:"range"`
	}
	for _, plugin := range []string{"", "kb-fast", "kb-thinkingdb"} {
		var hits []hit
		arg := map[string]any{"query": "zeppelinite caching tier"}
		if plugin != "" {
			arg["plugin"] = plugin
		}
		if err := e.command("mrpvm.search", arg, &hits); err != nil {
			t.Fatalf("%s: %v", plugin, err)
		}
		if len(hits) == 0 {
			t.Fatalf("%s: no hits", plugin)
		}
		top := hits[0]
		if top.SourceID != "glossary.md" || top.URI != e.uri("glossary.md") || top.KUID == "" || top.Title == "" || top.Score <= 0 || top.Range.StartLine < 1 {
			t.Errorf("%s: top hit %+v", plugin, top)
		}
	}
	var hits []hit
	if err := e.command("mrpvm.search", map[string]any{"query": "rollout rollback fleet", "k": 1}, &hits); err != nil || len(hits) != 1 {
		t.Fatalf("k=1: %v %+v", err, hits)
	}
	if err := e.command("mrpvm.search", map[string]any{"query": "the and of"}, &hits); err != nil || len(hits) != 0 {
		t.Errorf("stop words only: %v %+v (want no hits, no error)", err, hits)
	}
	for _, tc := range []struct {
		arg  any
		code string
	}{
		{map[string]any{"query": "  "}, "empty_query"},
		{map[string]any{}, "empty_query"},
		{map[string]any{"query": "x", "k": -1}, "bad_k"},
		{map[string]any{"query": "x", "k": 100000}, "bad_k"},
		{map[string]any{"query": "x", "plugin": "kb-nope"}, "unknown_plugin"},
		{map[string]any{"query": "x", "bogus": true}, "bad_argument"},
		{map[string]any{"query": 3}, "bad_argument"},
	} {
		err := e.command("mrpvm.search", tc.arg, &hits)
		if !hasCode(err, tc.code) {
			t.Errorf("%v: want %s, got %v", tc.arg, tc.code, err)
		}
		if err != nil && !strings.Contains(err.Error(), tc.code+": ") {
			t.Errorf("%v: the message leads with the code: %v", tc.arg, err)
		}
	}
}
