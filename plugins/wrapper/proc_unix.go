//go:build unix && !linux

package wrapper

import "os/exec"

// startContained starts the command made by build as the leader of a new
// process group; there is no containment beyond it on this platform.
func startContained(build func() *exec.Cmd, tag string) (*exec.Cmd, bool, error) {
	cmd := build()
	setProcessGroup(cmd)
	return cmd, false, cmd.Start()
}

// killTagged has no portable process listing to search here.
func killTagged(tag string) {}
