package testtree

import (
	"os"
	"testing"
)

// BenchWorkspace is the workspace folder MRPVM_BENCH_WS names, for a
// benchmark over a real corpus (a SciFact workspace, say); it skips the
// benchmark when none is named.
func BenchWorkspace(b *testing.B) string {
	b.Helper()
	ws := os.Getenv("MRPVM_BENCH_WS")
	if ws == "" {
		b.Skip("set MRPVM_BENCH_WS to a workspace folder")
	}
	return ws
}
