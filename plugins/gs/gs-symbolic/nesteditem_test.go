package gssymbolic

import (
	"strings"
	"testing"

	"github.com/mrpvm/mrpvm/plugins/internal/symbolic"
)

// diagnosticsItem is a list item made long by its nested list, the nested
// item the question asks about last.
var diagnosticsItem = []string{
	"- Diagnostics, with the stable codes of the package that owns each format:",
	"  - `plugin.json` and wrapper manifests: `descriptor_*`, `manifest_invalid`, ...;",
	"  - `plugin.kus.md` blocks: `plugin_kus_invalid`, ...;",
	"  - SOP Lang documents: `sop_parse`, ...;",
	"  - Markdown links: `broken_link`, ...;",
	"  - configuration files — `plugins.json`, `engine.json` in a",
	"    workspace's `.mrpvm/` folder: `config_syntax`, `config_unknown_key`;",
	"  - Markdown sources: the parser's diagnostics.",
}

// TestLongItemKeepsTheNestedItemAsked: a list item made long by its
// nested list keeps its own line and the nested item that holds the
// question's terms, where the item's first lines alone would stop before
// it; with no term held, the first lines are kept.
func TestLongItemKeepsTheNestedItemAsked(t *testing.T) {
	got := strings.Join(cutItem(diagnosticsItem, symbolic.ContentTerms("diagnostic codes for a broken configuration file")), "\n")
	for _, want := range []string{"- Diagnostics, with the stable codes", "`config_syntax`, `config_unknown_key`", "  …"} {
		if !strings.Contains(got, want) {
			t.Errorf("cutItem lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "plugin_kus_invalid") {
		t.Errorf("cutItem kept a nested item the question does not ask about:\n%s", got)
	}
	got = strings.Join(cutItem(diagnosticsItem, symbolic.ContentTerms("keyboard shortcuts")), "\n")
	if !strings.Contains(got, "plugin_kus_invalid") || strings.Contains(got, "config_syntax") {
		t.Errorf("cutItem without a nested item asked should keep the first lines:\n%s", got)
	}
}
