package release

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// config is the part of .goreleaser.yaml the checks read. Decoding is
// strict, so a key misspelled at these levels fails the test.
type config struct {
	Version     int    `yaml:"version"`
	ProjectName string `yaml:"project_name"`
	Before      struct {
		Hooks []string `yaml:"hooks"`
	} `yaml:"before"`
	Builds []struct {
		ID           string   `yaml:"id"`
		Main         string   `yaml:"main"`
		Binary       string   `yaml:"binary"`
		Env          []string `yaml:"env"`
		Goos         []string `yaml:"goos"`
		Goarch       []string `yaml:"goarch"`
		Ignore       []any    `yaml:"ignore"`
		Flags        []string `yaml:"flags"`
		Ldflags      []string `yaml:"ldflags"`
		ModTimestamp string   `yaml:"mod_timestamp"`
	} `yaml:"builds"`
	Archives []struct {
		ID              string   `yaml:"id"`
		IDs             []string `yaml:"ids"`
		Formats         []string `yaml:"formats"`
		FormatOverrides []struct {
			Goos    string   `yaml:"goos"`
			Formats []string `yaml:"formats"`
		} `yaml:"format_overrides"`
		NameTemplate    string   `yaml:"name_template"`
		WrapInDirectory bool     `yaml:"wrap_in_directory"`
		Files           []string `yaml:"files"`
	} `yaml:"archives"`
	Checksum struct {
		NameTemplate string `yaml:"name_template"`
		Algorithm    string `yaml:"algorithm"`
	} `yaml:"checksum"`
	Changelog struct {
		Disable bool `yaml:"disable"`
	} `yaml:"changelog"`
	Release struct {
		GitHub struct {
			Owner string `yaml:"owner"`
			Name  string `yaml:"name"`
		} `yaml:"github"`
	} `yaml:"release"`
}

func root(t *testing.T) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

func load(t *testing.T) config {
	t.Helper()
	f, err := os.Open(filepath.Join(root(t), ".goreleaser.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dec := yaml.NewDecoder(f)
	dec.KnownFields(true)
	var c config
	if err := dec.Decode(&c); err != nil {
		t.Fatalf(".goreleaser.yaml: %v", err)
	}
	return c
}

// wantTargets are the platforms releases support: where the editors run.
var wantTargets = []string{
	"darwin/amd64", "darwin/arm64", "linux/amd64", "linux/arm64", "windows/amd64", "windows/arm64",
}

func TestGoReleaserBuildsEveryTarget(t *testing.T) {
	c := load(t)
	if c.Version != 2 {
		t.Fatalf("version: %d, want 2 (GoReleaser v2 schema)", c.Version)
	}
	if len(c.Builds) != 1 {
		t.Fatalf("builds: %d, want the one mrpvm build", len(c.Builds))
	}
	b := c.Builds[0]
	if b.Main != "./cmd/mrpvm" || b.Binary != "mrpvm" {
		t.Errorf("build main %q binary %q, want ./cmd/mrpvm and mrpvm", b.Main, b.Binary)
	}
	if len(b.Ignore) != 0 {
		t.Errorf("build ignores targets %v; every target must be released", b.Ignore)
	}
	var got []string
	for _, goos := range b.Goos {
		for _, goarch := range b.Goarch {
			got = append(got, goos+"/"+goarch)
		}
	}
	slices.Sort(got)
	if !slices.Equal(got, wantTargets) {
		t.Errorf("targets %v, want %v", got, wantTargets)
	}
	if !slices.Contains(b.Env, "CGO_ENABLED=0") {
		t.Errorf("env %v: cross-builds need CGO_ENABLED=0", b.Env)
	}
	if !slices.Contains(b.Flags, "-trimpath") {
		t.Errorf("flags %v: want -trimpath (reproducible, no local paths in the binary)", b.Flags)
	}
	const x = "-X github.com/mrpvm/mrpvm/version.version={{.Version}}"
	if !slices.ContainsFunc(b.Ldflags, func(s string) bool { return strings.Contains(s, x) }) {
		t.Errorf("ldflags %v: want %q so that --version names the release", b.Ldflags, x)
	}
}

// TestLdflagsVariableExists checks that the variable the ldflags set is a
// package-level string variable of the version package: -X silently does
// nothing for a name that does not exist.
func TestLdflagsVariableExists(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(root(t), "version", "version.go"), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR {
			continue
		}
		for _, s := range g.Specs {
			vs := s.(*ast.ValueSpec)
			id, isIdent := vs.Type.(*ast.Ident)
			for _, n := range vs.Names {
				if n.Name == "version" && isIdent && id.Name == "string" && len(vs.Values) == 0 {
					found = true
				}
			}
		}
	}
	if !found {
		t.Error("version/version.go has no uninitialised `var version string` for -X to set")
	}
}

func TestGoReleaserArchivesAndChecksums(t *testing.T) {
	c := load(t)
	if len(c.Archives) != 1 {
		t.Fatalf("archives: %d, want 1", len(c.Archives))
	}
	a := c.Archives[0]
	if !slices.Equal(a.IDs, []string{c.Builds[0].ID}) {
		t.Errorf("archive ids %v, want the build %q", a.IDs, c.Builds[0].ID)
	}
	if !slices.Equal(a.Formats, []string{"tar.gz"}) {
		t.Errorf("archive formats %v, want tar.gz", a.Formats)
	}
	zip := false
	for _, o := range a.FormatOverrides {
		zip = zip || (o.Goos == "windows" && slices.Equal(o.Formats, []string{"zip"}))
	}
	if !zip {
		t.Error("Windows archives must be zip")
	}
	for _, v := range []string{"{{ .Os }}", "{{ .Arch }}", "{{ .Version }}"} {
		if !strings.Contains(a.NameTemplate, v) {
			t.Errorf("archive name %q lacks %s: archives of different targets would collide", a.NameTemplate, v)
		}
	}
	for _, want := range []string{"LICENSE", "README.md", "CHANGELOG.md"} {
		if !slices.Contains(a.Files, want) {
			t.Errorf("archives do not carry %s", want)
		}
	}
	for _, pat := range a.Files {
		// GoReleaser's globs allow **; filepath.Glob does not, so check
		// the folder before it.
		p := pat
		if i := strings.Index(p, "**"); i >= 0 {
			p = strings.TrimSuffix(p[:i], "/")
		}
		m, err := filepath.Glob(filepath.Join(root(t), p))
		if err != nil || len(m) == 0 {
			t.Errorf("archive file %q matches nothing in the repository", pat)
		}
	}
	if c.Checksum.NameTemplate == "" || c.Checksum.Algorithm != "sha256" {
		t.Errorf("checksum %+v: want a sha256 checksums file", c.Checksum)
	}
}

// TestRunShCrossBuildsTheReleaseTargets keeps CI's cross-build loop and
// the release targets the same list.
func TestRunShCrossBuildsTheReleaseTargets(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(root(t), "test", "run.sh"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^for target in ([^;]+); do$`).FindStringSubmatch(string(b))
	if m == nil {
		t.Fatal("test/run.sh has no `for target in ...; do` cross-build loop")
	}
	got := strings.Fields(m[1])
	slices.Sort(got)
	if !slices.Equal(got, wantTargets) {
		t.Errorf("test/run.sh cross-builds %v, want %v", got, wantTargets)
	}
}
