package store

import (
	"errors"
	"path/filepath"
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/mrpvm/mrpvm/plugin"
)

// A panic in the code a transaction runs (a decoder meeting a damaged
// value) is a kb_corrupt error, and the store stays usable: only a panic
// raised inside bbolt marks it broken.
func TestTransactionPanicIsKBCorrupt(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "kb.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var b []byte
	err = s.view(func(*bolt.Tx) error { _ = b[3]; return nil })
	if !errors.Is(err, ErrCorrupt) || !errors.Is(err, plugin.ErrKBCorrupt) {
		t.Fatalf("view panic: %v, want kb_corrupt", err)
	}
	err = s.PluginStore("p").Update(func(plugin.KV) error { panic("bad record") })
	if !errors.Is(err, ErrCorrupt) {
		t.Fatalf("update panic: %v, want kb_corrupt", err)
	}
	if s.broken.Load() != nil {
		t.Fatal("a panic outside bbolt marked the store broken")
	}
	if err := s.view(func(*bolt.Tx) error { return nil }); err != nil {
		t.Fatalf("view after a recovered panic: %v", err)
	}
}
