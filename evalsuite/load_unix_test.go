//go:build unix

package evalsuite

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mrpvm/mrpvm/internal/fsafe"
	"github.com/mrpvm/mrpvm/internal/testtree"
)

// TestLoadRefusesHostileStory points a suite's story at /dev/zero, a FIFO
// and a file outside the suite folder: Load returns the refusal's code
// promptly instead of reading, blocking or leaking.
func TestLoadRefusesHostileStory(t *testing.T) {
	base := t.TempDir()
	testtree.WriteFile(t, filepath.Join(base, "secret.nl"), "SECRET")
	suite := func(name, storyFile string) string {
		dir := filepath.Join(base, name)
		testtree.WriteFile(t, filepath.Join(dir, "eval.json"), `{"suiteId": "`+name+`", "storyFile": "`+storyFile+`", "questions": []}`)
		return dir
	}
	cases := map[string]string{}
	if d := suite("zero", "story.nl"); testtree.LinkDevZero(t, filepath.Join(d, "story.nl")) {
		cases[d] = fsafe.CodeOutsideRoot
	}
	d := suite("fifo", "story.nl")
	testtree.FIFO(t, filepath.Join(d, "story.nl"))
	cases[d] = fsafe.CodeNotRegular
	d = suite("escape", "../secret.nl")
	cases[d] = fsafe.CodeOutsideRoot
	d = suite("evaljson", "story.nl")
	testtree.WriteFile(t, filepath.Join(d, "story.nl"), "ok")
	os.Remove(filepath.Join(d, "eval.json"))
	testtree.FIFO(t, filepath.Join(d, "eval.json"))
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
