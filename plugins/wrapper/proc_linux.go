package wrapper

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"strconv"
	"sync/atomic"
	"syscall"
)

// namespacesOff is set once the kernel refused to create the user and PID
// namespaces (unprivileged user namespaces disabled, a seccomp profile, a
// nesting limit): later calls go straight to the fallback.
var namespacesOff atomic.Bool

// disableNamespaces makes every call take the fallback; tests use it.
var disableNamespaces = false

// startContained starts the command made by build so that nothing it
// spawns can outlive the call. The wrapper runs as PID 1 of a new PID
// namespace (inside a new user namespace that maps only the caller's uid
// and gid, so no privilege is needed): when it exits or is killed, the
// kernel kills every process left in that namespace, whatever setsid,
// double forks or new process groups they used. Where the kernel refuses
// the namespaces, the wrapper is started as the leader of a new process
// group and contained reports false; the caller then also kills every
// process carrying the call's tag in its environment (killTagged).
func startContained(build func() *exec.Cmd, tag string) (*exec.Cmd, bool, error) {
	refused := false
	if !disableNamespaces && !namespacesOff.Load() {
		cmd := build()
		uid, gid := os.Getuid(), os.Getgid()
		cmd.SysProcAttr = &syscall.SysProcAttr{
			Setpgid:     true,
			Cloneflags:  syscall.CLONE_NEWUSER | syscall.CLONE_NEWPID,
			UidMappings: []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}},
			GidMappings: []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}},
		}
		err := cmd.Start()
		if err == nil {
			return cmd, true, nil
		}
		if !namespaceRefused(err) {
			return cmd, false, err
		}
		refused = true
	}
	cmd := build()
	setProcessGroup(cmd)
	err := cmd.Start()
	if err == nil && refused {
		// The program starts without namespaces: it was the namespaces
		// the kernel refused, so stop asking for them.
		namespacesOff.Store(true)
	}
	return cmd, false, err
}

// namespaceRefused reports whether a start may have failed for want of
// namespaces rather than for the program itself.
func namespaceRefused(err error) bool {
	return errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENOSPC) ||
		errors.Is(err, syscall.EUSERS) || errors.Is(err, syscall.ENOSYS)
}

// maxEnvironBytes bounds what is read of one process's environment.
const maxEnvironBytes = 1 << 20

// killTagged sends SIGKILL to every process of this user whose environment
// holds the call's tag: the descendants that left the wrapper's process
// group (setsid, setpgid). A process that cleared or replaced its
// environment before exec is not found.
func killTagged(tag string) {
	needle := []byte("\x00" + tagEnv + "=" + tag + "\x00")
	d, err := os.Open("/proc")
	if err != nil {
		return
	}
	defer d.Close()
	names, _ := d.Readdirnames(-1)
	self := os.Getpid()
	for _, n := range names {
		pid, err := strconv.Atoi(n)
		if err != nil || pid == self {
			continue
		}
		f, err := os.Open("/proc/" + n + "/environ")
		if err != nil {
			continue // another user's process, or gone
		}
		b, _ := io.ReadAll(io.LimitReader(f, maxEnvironBytes))
		f.Close()
		if bytes.Contains(append([]byte{0}, b...), needle) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}
