package plugins

import (
	"os/exec"
	"strings"
	"testing"
)

// engineSide lists the packages that wire, run or serve the program. A
// plugin implementation (anything under plugins/ or retrieval/ but the
// registry and catalog of this package) is reached through the registry
// and the plugin contract, and imports none of them.
var engineSide = []string{
	"github.com/mrpvm/mrpvm/config",
	"github.com/mrpvm/mrpvm/vm",
	"github.com/mrpvm/mrpvm/store",
	"github.com/mrpvm/mrpvm/ingest",
	"github.com/mrpvm/mrpvm/workspace",
	"github.com/mrpvm/mrpvm/evalsuite",
	"github.com/mrpvm/mrpvm/kbsearch",
	"github.com/mrpvm/mrpvm/lsp",
	"github.com/mrpvm/mrpvm/mcp",
	"github.com/mrpvm/mrpvm/cmd",
}

// importViolations lists "package -> import" for the packages matched by
// patterns whose non-test code imports an engine-side package directly,
// leaving out the packages named in except.
func importViolations(t *testing.T, except map[string]bool, patterns ...string) []string {
	t.Helper()
	args := append([]string{"list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}"}, patterns...)
	out, err := exec.Command("go", args...).Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	var bad []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || except[f[0]] {
			continue
		}
		for _, imp := range f[1:] {
			for _, e := range engineSide {
				if imp == e || strings.HasPrefix(imp, e+"/") {
					bad = append(bad, f[0]+" -> "+imp)
				}
			}
		}
	}
	return bad
}

func TestPluginsImportNothingOfTheEngine(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go command not available")
	}
	registry := "github.com/mrpvm/mrpvm/plugins"
	if bad := importViolations(t, map[string]bool{registry: true}, "../plugins/...", "../retrieval/..."); len(bad) > 0 {
		t.Errorf("plugin code imports engine-side packages: %v", bad)
	}
	// The checker itself must notice a violation: the registry reads the
	// configuration.
	if bad := importViolations(t, nil, "."); len(bad) == 0 {
		t.Error("the import checker missed the registry's import of config")
	}
}
