package bm25

// liveTop keeps the threshold of a query current while scores accumulate:
// a min-heap of the k best partial scores, one entry per source when the
// query asks for one unit per source (an entry per unit otherwise). Partial
// scores only grow, so an entry's score is raised in place; the heap's
// minimum is then the exact k-th best partial score of distinct sources
// (or units), a lower bound of the final k-th best score that costs one
// comparison per posting instead of a walk over every candidate.
type liveTop struct {
	k     int
	score []float64 // heap of scores, the smallest first
	key   []int32   // heap of keys (source or unit numbers)
	pos   []int32   // key -> 1 + its heap position, 0 when not in the heap
}

// reset prepares the heap for a query of k results over keys keys.
func (h *liveTop) reset(k, keys int) {
	h.k = k
	h.score, h.key = h.score[:0], h.key[:0]
	if cap(h.pos) < keys {
		h.pos = make([]int32, keys, keys+keys/4)
	}
	h.pos = h.pos[:keys]
}

// clear forgets the entries (pos is cleared through them).
func (h *liveTop) clear() {
	for _, key := range h.key {
		h.pos[key] = 0
	}
	h.score, h.key = h.score[:0], h.key[:0]
}

// theta returns the k-th best score, or 0 while fewer than k keys scored.
func (h *liveTop) theta() float64 {
	if len(h.score) < h.k {
		return 0
	}
	return h.score[0]
}

// raise records that key now scores v (scores never go down) and returns
// the new threshold.
func (h *liveTop) raise(key int32, v float64) float64 {
	if p := h.pos[key]; p != 0 {
		i := int(p - 1)
		if v > h.score[i] {
			h.score[i] = v
			h.down(i)
		}
		return h.theta()
	}
	if len(h.score) < h.k {
		h.score = append(h.score, v)
		h.key = append(h.key, key)
		i := len(h.score) - 1
		h.pos[key] = int32(i + 1)
		h.up(i)
		return h.theta()
	}
	if v <= h.score[0] {
		return h.score[0]
	}
	h.pos[h.key[0]] = 0
	h.score[0], h.key[0] = v, key
	h.pos[key] = 1
	h.down(0)
	return h.score[0]
}

// up moves the entry at i towards the root until its parent is not
// larger, shifting the parents down into the hole instead of swapping (the
// same moves as swapping, half the writes).
func (h *liveTop) up(i int) {
	v, key := h.score[i], h.key[i]
	for i > 0 {
		p := (i - 1) / 2
		if h.score[p] <= v {
			break
		}
		h.score[i], h.key[i] = h.score[p], h.key[p]
		h.pos[h.key[i]] = int32(i + 1)
		i = p
	}
	h.score[i], h.key[i] = v, key
	h.pos[key] = int32(i + 1)
}

// down moves the entry at i towards the leaves until no child is smaller,
// shifting the smaller child up into the hole (on equal children the left
// one, as a swap-based sift does).
func (h *liveTop) down(i int) {
	n := len(h.score)
	score := h.score[:n]
	v, key := score[i], h.key[i]
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		m, sm := l, score[l]
		if r := l + 1; r < n && score[r] < sm {
			m, sm = r, score[r]
		}
		if sm >= v {
			break
		}
		score[i], h.key[i] = sm, h.key[m]
		h.pos[h.key[i]] = int32(i + 1)
		i = m
	}
	score[i], h.key[i] = v, key
	h.pos[key] = int32(i + 1)
}
