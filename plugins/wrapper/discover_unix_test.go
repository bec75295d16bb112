//go:build unix

package wrapper

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/mrpvm/mrpvm/internal/fsafe"
	"github.com/mrpvm/mrpvm/internal/testtree"
)

// TestDiscoverSpecialManifests ships wrappers whose manifest.json is a
// FIFO, a symlink to /dev/zero and a symlink to a manifest outside the
// wrappers folder: Discover ends, reports each with its code and loads the
// good wrapper.
func TestDiscoverSpecialManifests(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "wrappers")
	good := `{"id": "good", "description": "A good wrapper.", "protocolVersion": 1, "command": "sh"}`
	manifest := func(name string) string { return filepath.Join(root, name, ManifestFile) }
	testtree.WriteFile(t, manifest("good"), good)
	testtree.FIFO(t, manifest("fifo"))
	outside := filepath.Join(base, "outside.json")
	testtree.WriteFile(t, outside, good)
	testtree.Link(t, outside, manifest("escape"))
	want := map[string]string{"fifo": fsafe.CodeNotRegular, "escape": fsafe.CodeOutsideRoot}
	if testtree.LinkDevZero(t, manifest("zero")) {
		want["zero"] = fsafe.CodeOutsideRoot
	}
	type res struct {
		ms []*Manifest
		n  map[string]string
	}
	ch := make(chan res, 1)
	go func() {
		ms, problems := Discover(root)
		got := map[string]string{}
		for _, p := range problems {
			got[filepath.Base(filepath.Dir(p.File))] = p.Code
		}
		ch <- res{ms, got}
	}()
	var r res
	select {
	case r = <-ch:
	case <-time.After(30 * time.Second):
		t.Fatal("Discover hangs")
	}
	if len(r.ms) != 1 || r.ms[0].Descriptor.ID != "good" {
		t.Errorf("loaded %d manifests, want the good one", len(r.ms))
	}
	for name, code := range want {
		if r.n[name] != code {
			t.Errorf("%s: code %q, want %q (%v)", name, r.n[name], code, r.n)
		}
	}
}
