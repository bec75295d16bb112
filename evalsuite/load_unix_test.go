//go:build unix

package evalsuite

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/mrpvm/mrpvm/internal/fsafe"
)

// TestLoadRefusesHostileStory points a suite's story at /dev/zero, a FIFO
// and a file outside the suite folder: Load returns the refusal's code
// promptly instead of reading, blocking or leaking.
func TestLoadRefusesHostileStory(t *testing.T) {
	base := t.TempDir()
	if err := os.WriteFile(filepath.Join(base, "secret.nl"), []byte("SECRET"), 0o644); err != nil {
		t.Fatal(err)
	}
	suite := func(name, storyFile string, mk func(dir string) error) string {
		dir := filepath.Join(base, name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		js := `{"suiteId": "` + name + `", "storyFile": "` + storyFile + `", "questions": []}`
		if err := os.WriteFile(filepath.Join(dir, "eval.json"), []byte(js), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := mk(dir); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	cases := map[string]string{}
	if _, err := os.Stat("/dev/zero"); err == nil {
		d := suite("zero", "story.nl", func(dir string) error { return os.Symlink("/dev/zero", filepath.Join(dir, "story.nl")) })
		cases[d] = fsafe.CodeOutsideRoot
	}
	d := suite("fifo", "story.nl", func(dir string) error { return syscall.Mkfifo(filepath.Join(dir, "story.nl"), 0o644) })
	cases[d] = fsafe.CodeNotRegular
	d = suite("escape", "../secret.nl", func(string) error { return nil })
	cases[d] = fsafe.CodeOutsideRoot
	d = suite("evaljson", "story.nl", func(dir string) error {
		if err := os.WriteFile(filepath.Join(dir, "story.nl"), []byte("ok"), 0o644); err != nil {
			return err
		}
		os.Remove(filepath.Join(dir, "eval.json"))
		return syscall.Mkfifo(filepath.Join(dir, "eval.json"), 0o644)
	})
	cases[d] = fsafe.CodeNotRegular

	for dir, code := range cases {
		done := make(chan error, 1)
		go func() { _, _, err := Load(dir); done <- err }()
		select {
		case err := <-done:
			if fsafe.Code(err) != code {
				t.Errorf("%s: %v, want %s", filepath.Base(dir), err, code)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("%s: Load hangs", filepath.Base(dir))
		}
	}
}
