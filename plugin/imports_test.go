package plugin

import (
	"os/exec"
	"strings"
	"testing"
)

// forbidden lists the import path prefixes nothing under plugin may
// depend on, directly or transitively.
var forbidden = []string{
	"github.com/mrpvm/mrpvm/engine",
	"github.com/mrpvm/mrpvm/ingest",
	"github.com/mrpvm/mrpvm/store",
	"github.com/mrpvm/mrpvm/lsp",
	"github.com/mrpvm/mrpvm/config",
	"github.com/mrpvm/mrpvm/cmd",
	"go.etcd.io/bbolt",
}

// violations lists the forbidden packages in the dependency closure of the
// given package patterns, as reported by `go list -deps`.
func violations(t *testing.T, patterns ...string) []string {
	t.Helper()
	args := append([]string{"list", "-e", "-deps", "-f", "{{.ImportPath}}"}, patterns...)
	out, err := exec.Command("go", args...).Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	var bad []string
	for _, p := range strings.Fields(string(out)) {
		for _, f := range forbidden {
			if p == f || strings.HasPrefix(p, f+"/") {
				bad = append(bad, p)
			}
		}
	}
	return bad
}

func TestSDKImportRule(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go command not available")
	}
	if bad := violations(t, "./..."); len(bad) > 0 {
		t.Errorf("plugin depends on forbidden packages: %v", bad)
	}
	// The checker itself must notice a violation.
	if bad := violations(t, "./testdata/badimport"); len(bad) == 0 {
		t.Error("the import checker missed bbolt in testdata/badimport")
	}
}
