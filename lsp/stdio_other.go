//go:build !linux

package lsp

import "os"

// pollableStdin returns os.Stdin: outside Linux the poller is not used for
// standard input (kqueue, for one, reports no end of input on a FIFO), and
// Serve stops waiting for a blocked read shortly after exit instead.
func pollableStdin() *os.File { return os.Stdin }
