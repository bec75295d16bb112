package workspace

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const configPath = "github.com/mrpvm/mrpvm/config"

// configLoads lists the calls of config.Load in one Go file, as file:line.
func configLoads(fset *token.FileSet, f *ast.File) []string {
	names := map[string]bool{}
	for _, im := range f.Imports {
		if p, _ := strconv.Unquote(im.Path.Value); p == configPath {
			name := "config"
			if im.Name != nil {
				name = im.Name.Name
			}
			names[name] = true
		}
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "Load" {
			return true
		}
		if id, ok := sel.X.(*ast.Ident); ok && names[id.Name] {
			out = append(out, fset.Position(sel.Pos()).String())
		}
		return true
	})
	return out
}

// TestOnlyWorkspaceLoadsConfiguration: outside tests, the configuration
// files are read by this package alone (the config package itself aside),
// so a workspace's configuration is loaded once and its errors reach the
// catalog instead of being dropped by a second, private load.
func TestOnlyWorkspaceLoadsConfiguration(t *testing.T) {
	fset := token.NewFileSet()
	probe, err := parser.ParseFile(fset, "probe.go", `package p
import cfg "`+configPath+`"
func f() { c, _ := cfg.Load(cfg.Options{}); _ = c }`, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(configLoads(fset, probe)) != 1 {
		t.Fatal("the checker misses a config.Load under another import name")
	}

	var bad []string
	err = filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != ".." && (strings.HasPrefix(n, ".") || n == "testdata" || n == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		dir := filepath.ToSlash(filepath.Dir(path))
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || dir == "../workspace" || dir == "../config" {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		bad = append(bad, configLoads(fset, f)...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(bad) > 0 {
		t.Errorf("config.Load outside the workspace package: %v", bad)
	}
}
