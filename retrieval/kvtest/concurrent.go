package kvtest

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// RequireSameConcurrently computes f(i) for every i < n on this goroutine,
// then again on four goroutines at once, each walking all of 0..n-1 from
// another quarter, and fails unless every goroutine got the same results:
// what f shares between calls (pooled scratch space, memos) is never
// shared between concurrent callers.
func RequireSameConcurrently[T any](tb testing.TB, n int, f func(i int) T) {
	tb.Helper()
	want := make([]T, n)
	for i := range want {
		want[i] = f(i)
	}
	var wg sync.WaitGroup
	got := make([][]T, 4)
	for g := range got {
		got[g] = make([]T, n)
		wg.Go(func() {
			for i := range n {
				// A start per quarter (a stride would skip some when it
				// shares a factor with n).
				k := (i + g*n/4) % n
				got[g][k] = f(k)
			}
		})
	}
	wg.Wait()
	for g := range got {
		require.Equal(tb, want, got[g], "goroutine %d", g)
	}
}
