package lsp

import (
	"os"
	"syscall"
)

// pollableStdin returns standard input as a file the runtime poller serves
// when it is a pipe or a socket, so that Close interrupts a blocked Read
// (os.Stdin is in blocking mode: its Close waits for the read to return,
// which happens only when the editor closes the pipe). A terminal or a
// regular file is left alone: switching a terminal shared with a shell to
// non-blocking mode would outlive the process, and a file reaches its end
// anyway.
func pollableStdin() *os.File {
	var st syscall.Stat_t
	if err := syscall.Fstat(0, &st); err != nil {
		return os.Stdin
	}
	if typ := st.Mode & syscall.S_IFMT; typ != syscall.S_IFIFO && typ != syscall.S_IFSOCK {
		return os.Stdin
	}
	if err := syscall.SetNonblock(0, true); err != nil {
		return os.Stdin
	}
	// NewFile registers a non-blocking descriptor with the poller.
	return os.NewFile(0, "/dev/stdin")
}
