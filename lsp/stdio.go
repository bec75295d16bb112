package lsp

import (
	"io"
	"os"
)

// Stdio returns the process's standard input and output as the stream of
// one Serve call (what `mrpvm lsp` speaks on). Closing it closes standard
// input. Where the platform allows (Linux, standard input a pipe or a
// socket — what editors give a language server), standard input is served
// by the runtime's poller, so closing it also interrupts a read in
// progress: Serve then ends as soon as the client sends exit, instead of
// waiting for the editor to close its end of the pipe.
func Stdio() io.ReadWriteCloser {
	return stdio{in: pollableStdin(), out: os.Stdout}
}

// stdio joins standard input and output into one stream.
type stdio struct {
	in  *os.File
	out *os.File
}

func (s stdio) Read(p []byte) (int, error)  { return s.in.Read(p) }
func (s stdio) Write(p []byte) (int, error) { return s.out.Write(p) }
func (s stdio) Close() error                { return s.in.Close() }
