package bm25

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/retrieval/kvtest"
)

// forgetWriteCaches empties the caches of the write path.
func forgetWriteCaches() {
	statsCache.Lock()
	statsCache.entries = nil
	statsCache.Unlock()
	pending.Lock()
	clear(pending.m)
	pending.order = nil
	pending.Unlock()
}

func copyMem(kv *kvtest.Mem) *kvtest.Mem {
	c := kvtest.New()
	for k, v := range kv.Dump() {
		if err := c.Put([]byte(k), slices.Clone(v)); err != nil {
			panic(err)
		}
	}
	return c
}

// replayWrites applies a random sequence of writes to two stores with one
// index, rolling a store back now and then (as an aborted transaction
// does), and returns the stores' final contents. With cold set, the write
// caches are emptied before every write.
func replayWrites(t *testing.T, seed uint64, cold bool) []map[string][]byte {
	r := rand.New(rand.NewPCG(seed, 7))
	p := DefaultParams()
	p.FlushSources, p.MergeFactor = 3, 2
	x := New(p)
	kvs := []*kvtest.Mem{kvtest.New(), kvtest.New()}
	for step := range 300 {
		if cold {
			forgetWriteCaches()
		}
		k := r.IntN(len(kvs))
		before := copyMem(kvs[k])
		src := fmt.Sprintf("s%d.md", r.IntN(8))
		var units []*kus.KU
		for i := range r.IntN(3) {
			units = append(units, ku(src, i, randomText(r, 1+r.IntN(12))))
		}
		require.NoError(t, x.IndexSource(kvs[k], src, units, nil), "step %d", step)
		if r.IntN(6) == 0 {
			kvs[k] = before // rolled back
		}
	}
	return []map[string][]byte{stripGen(kvs[0].Dump()), stripGen(kvs[1].Dump())}
}

// TestWriteCachesFollowTheStore checks that the decoded stats and the
// prepared records kept between writes never stand in for what the store
// holds: the stores end up the same as with the caches emptied before
// every write.
func TestWriteCachesFollowTheStore(t *testing.T) {
	for seed := range uint64(5) {
		warm := replayWrites(t, seed, false)
		cold := replayWrites(t, seed, true)
		require.Equal(t, cold, warm, "seed %d", seed)
	}
}
