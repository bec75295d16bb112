//go:build linux

package wrapper

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mrpvm/mrpvm/plugin"
)

// marker returns a sleep duration no other process uses, to find the
// process in /proc.
func marker() string {
	return fmt.Sprintf("%d.%06d", 3000+rand.IntN(1000), rand.IntN(1000000))
}

// sleepers lists the pids of running processes whose command line holds m.
func sleepers(m string) []int {
	var out []int
	names, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil || !strings.Contains(string(b), m) {
			continue
		}
		pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(n)))
		if pid != os.Getpid() && alive(pid) {
			out = append(out, pid)
		}
	}
	return out
}

// TestSetsidGrandchildDoesNotOutliveTheCall: a wrapper that starts a
// grandchild in a session of its own (setsid, a double fork) must not
// leave it running, whether the wrapper answers or times out. Both the
// namespace containment and the fallback (process group plus the call's
// environment tag) are exercised.
func TestSetsidGrandchildDoesNotOutliveTheCall(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("checks /proc; other platforms kill the process group only")
	}
	for _, mode := range []string{"namespaces", "fallback"} {
		for _, tc := range []struct{ name, tail string }{
			{"answers", "printf '## Plugin Result\\nStatus: success\\nResult: done\\n'\n"},
			{"hangs", "exec sleep 60\n"},
		} {
			t.Run(mode+"/"+tc.name, func(t *testing.T) {
				if mode == "fallback" {
					disableNamespaces = true
					defer func() { disableNamespaces = false }()
				}
				m1, m2 := marker(), marker()
				t.Cleanup(func() {
					for _, pid := range append(sleepers(m1), sleepers(m2)...) {
						_ = syscall.Kill(pid, syscall.SIGKILL)
					}
				})
				script := "cat >/dev/null\n" +
					"setsid sleep " + m1 + " </dev/null >/dev/null 2>&1 &\n" +
					"( setsid sh -c 'touch started; exec sleep " + m2 + "' </dev/null >/dev/null 2>&1 & )\n" +
					"i=0; while [ $i -lt 100 ] && [ ! -e started ]; do sleep 0.02; i=$((i+1)); done\n" +
					tc.tail
				// The answering script starts two processes and waits for
				// them, which on a loaded machine can outlast the 500 ms
				// that make the hanging case quick.
				timeout := 500
				if tc.name == "answers" {
					timeout = 20000
				}
				dir := writeShellWrapperTimeout(t, `[]`, script, timeout)
				m, errs := LoadManifest(filepath.Join(dir, ManifestFile))
				if m == nil {
					t.Fatal(errs)
				}
				_, err := NewRunner(m, Limits{}).Call(context.Background(), plugin.Payload{Prompt: "q"})
				var pe *plugin.PluginError
				if tc.name == "hangs" && (!errors.As(err, &pe) || pe.Code != plugin.CodeWrapperTimeout) {
					t.Fatalf("err %v", err)
				}
				if tc.name == "answers" && err != nil {
					t.Fatal(err)
				}
				// Generous bound: this is about dying at all, not speed.
				deadline := time.Now().Add(20 * time.Second)
				for {
					left := append(sleepers(m1), sleepers(m2)...)
					if len(left) == 0 {
						break
					}
					if time.Now().After(deadline) {
						t.Fatalf("processes %v outlived the call", left)
					}
					time.Sleep(20 * time.Millisecond)
				}
			})
		}
	}
}
