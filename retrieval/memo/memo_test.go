package memo

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCacheEvictsOldest(t *testing.T) {
	c := New[string](2)
	c.Put(1, "a")
	c.Put(2, "b")
	c.Put(1, "a2") // update, no eviction
	c.Put(3, "c")  // evicts 1, the oldest
	_, ok := c.Get(1)
	assert.False(t, ok)
	v, ok := c.Get(2)
	assert.True(t, ok)
	assert.Equal(t, "b", v)
	c.Put(4, "d") // evicts 2
	_, ok = c.Get(2)
	assert.False(t, ok)
	assert.Equal(t, 2, c.Len())
	assert.Equal(t, 1, New[int](0).limit)
}

func TestCacheConcurrent(t *testing.T) {
	c := New[int](16)
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 1000; i++ {
				c.Put(uint64(i%40), i)
				c.Get(uint64(i % 7))
			}
		}()
	}
	wg.Wait()
	assert.LessOrEqual(t, c.Len(), 16)
}
