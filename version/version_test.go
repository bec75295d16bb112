package version

import (
	"runtime/debug"
	"testing"
)

func TestFromBuildInfo(t *testing.T) {
	bi := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/mrpvm/mrpvm", Version: "v0.3.1"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.time", Value: "2026-01-02T03:04:05Z"}, {Key: "vcs.modified", Value: "true"}}}
	got := fromBuildInfo(bi, "")
	want := Info{Version: "v0.3.1", Revision: "0123456789abcdef0123", Time: "2026-01-02T03:04:05Z", Modified: true, GoVersion: "go1.26.8"}
	if got != want {
		t.Fatalf("fromBuildInfo = %+v, want %+v", got, want)
	}
	if s := got.String(); s != "v0.3.1 (rev 0123456789ab, 2026-01-02T03:04:05Z, modified, go1.26.8)" {
		t.Errorf("String = %q", s)
	}
	if got := fromBuildInfo(bi, "v9.9.9").Version; got != "v9.9.9" {
		t.Errorf("a link-time version must win over the module version, got %q", got)
	}
}

func TestDevelWithoutVersion(t *testing.T) {
	if got := fromBuildInfo(nil, ""); got.Version != Devel || got.String() != Devel {
		t.Errorf("no build information: %+v, want version %s", got, Devel)
	}
	bi := &debug.BuildInfo{Main: debug.Module{Version: ""}}
	if got := fromBuildInfo(bi, "").Version; got != Devel {
		t.Errorf("empty module version: %q, want %s", got, Devel)
	}
}

func TestRunningBinary(t *testing.T) {
	// A test binary has build information; its main module is unversioned.
	in := Get()
	if in.Version == "" || in.GoVersion == "" {
		t.Fatalf("Get() = %+v: want a version and a Go version", in)
	}
}
