// Package bench holds end-to-end benchmarks over the shared corpora. Run
// with `go test -run xxx -bench . ./test/bench`; figures go in the notes.
package bench
