package version

import (
	"runtime/debug"
	"strings"
)

// version is set at link time by release builds (see the package comment);
// empty means: use the module version from the build information.
var version string

// Devel is the version of a build that records no module version, such as
// `go build` or `go install ./cmd/mrpvm` in a checkout.
const Devel = "(devel)"

// Info describes a build. Fields the toolchain did not record are empty.
type Info struct {
	Version   string `json:"version"`
	Revision  string `json:"revision,omitempty"`
	Time      string `json:"time,omitempty"`
	Modified  bool   `json:"modified,omitempty"`
	GoVersion string `json:"goVersion,omitempty"`
}

// Get returns the running binary's build information.
func Get() Info {
	bi, _ := debug.ReadBuildInfo()
	return fromBuildInfo(bi, version)
}

// fromBuildInfo builds an Info from build information (nil when the binary
// has none) and a link-time version override (empty: none).
func fromBuildInfo(bi *debug.BuildInfo, override string) Info {
	var in Info
	if bi != nil {
		in.Version = bi.Main.Version
		in.GoVersion = bi.GoVersion
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				in.Revision = s.Value
			case "vcs.time":
				in.Time = s.Value
			case "vcs.modified":
				in.Modified = s.Value == "true"
			}
		}
	}
	if override != "" {
		in.Version = override
	}
	if in.Version == "" {
		in.Version = Devel
	}
	return in
}

// Version returns the version alone, e.g. "v0.2.0" or "(devel)".
func Version() string { return Get().Version }

// String renders the build on one line, e.g.
// "v0.2.0 (rev 1a2b3c4d5e6f, 2026-01-02T03:04:05Z, modified, go1.26.8)".
func (in Info) String() string {
	var extra []string
	if in.Revision != "" {
		extra = append(extra, "rev "+short(in.Revision))
	}
	if in.Time != "" {
		extra = append(extra, in.Time)
	}
	if in.Modified {
		extra = append(extra, "modified")
	}
	if in.GoVersion != "" {
		extra = append(extra, in.GoVersion)
	}
	if len(extra) == 0 {
		return in.Version
	}
	return in.Version + " (" + strings.Join(extra, ", ") + ")"
}

// String is Get().String().
func String() string { return Get().String() }

func short(rev string) string {
	if len(rev) > 12 {
		return rev[:12]
	}
	return rev
}
