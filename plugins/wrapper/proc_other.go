//go:build !unix

package wrapper

import "os/exec"

// setProcessGroup has no portable equivalent here; only the wrapper
// process itself is killed on timeout.
func setProcessGroup(cmd *exec.Cmd) {}

func killProcessGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	return cmd.Process.Kill()
}

func startContained(build func() *exec.Cmd, tag string) (*exec.Cmd, bool, error) {
	cmd := build()
	return cmd, false, cmd.Start()
}

func killTagged(tag string) {}
