package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestVersionOfACheckoutBuild(t *testing.T) {
	r := run(t, isolatedEnv(t), "--version")
	require.Equal(t, 0, r.code, r.stderr)
	assert.True(t, strings.HasPrefix(r.stdout, "mrpvm (devel)"), "a build from a checkout is (devel): %q", r.stdout)

	r = run(t, isolatedEnv(t), "version", "--json")
	require.Equal(t, 0, r.code, r.stderr)
	var v struct {
		Version   string `json:"version"`
		GoVersion string `json:"goVersion"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &v))
	assert.Equal(t, "(devel)", v.Version)
	assert.Equal(t, runtime.Version(), v.GoVersion)
}

// TestVersionOfAReleaseBuild builds the binary the way .goreleaser.yaml
// does (-trimpath, the version set with -X) and checks --version names it.
func TestVersionOfAReleaseBuild(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..", "..")
	bin := filepath.Join(t.TempDir(), "mrpvm")
	build := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w -X github.com/mrpvm/mrpvm/version.version=1.2.3", "-o", bin, "./cmd/mrpvm")
	build.Dir = root
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "%s", out)
	got, err := exec.Command(bin, "--version").Output()
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(got), "mrpvm 1.2.3"), "%q", got)
}
