package store

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"

	bolt "go.etcd.io/bbolt"

	"github.com/mrpvm/mrpvm/kus"
)

// Stats summarises the knowledge base.
type Stats struct {
	Sources    int            `json:"sources"`
	KUs        int            `json:"kus"`
	KUsByLevel map[string]int `json:"kusByLevel"`
	Plugins    []string       `json:"pluginIndexes"`
	DBBytes    int64          `json:"dbBytes"`
	DBPath     string         `json:"dbPath"`
}

// Stats counts sources and KUs by level.
func (s *Store) Stats() (*Stats, error) {
	st := &Stats{KUsByLevel: map[string]int{}, DBPath: s.path}
	err := s.view(func(tx *bolt.Tx) error {
		st.Sources = tx.Bucket(bucketSources).Stats().KeyN
		kusB := tx.Bucket(bucketKUs)
		get := func(id string) []byte { return kusB.Get([]byte(id)) }
		if err := kusB.ForEach(func(k, v []byte) error {
			var probe kus.KU
			if err := probe.UnmarshalBinaryFrom(v, get); err != nil {
				return s.corrupt(fmt.Errorf("ku %q: %w", k, err))
			}
			st.KUs++
			st.KUsByLevel[probe.Level]++
			return nil
		}); err != nil {
			return err
		}
		return tx.Bucket(bucketPlugins).ForEachBucket(func(k []byte) error {
			st.Plugins = append(st.Plugins, string(k))
			return nil
		})
	})
	sort.Strings(st.Plugins)
	if fi, statErr := os.Stat(s.path); statErr == nil {
		st.DBBytes = fi.Size()
	}
	return st, err
}

// Verify checks that the knowledge base is consistent: every source's KUs
// exist and every KU belongs to a recorded source. It returns the problems found.
func (s *Store) Verify() ([]string, error) {
	if err := checkPageGraph(s.path, true); err != nil {
		return nil, &Error{Code: CodeCorrupt, Path: s.path, Err: err}
	}
	var problems []string
	err := s.view(func(tx *bolt.Tx) error {
		owned := map[string]bool{}
		if err := tx.Bucket(bucketSources).ForEach(func(k, v []byte) error {
			var rec SourceRecord
			if err := json.Unmarshal(v, &rec); err != nil {
				problems = append(problems, fmt.Sprintf("source %s: undecodable record: %v", k, err))
				return nil
			}
			for _, id := range rec.UnitIDs {
				owned[id] = true
				if tx.Bucket(bucketKUs).Get([]byte(id)) == nil {
					problems = append(problems, fmt.Sprintf("source %s: missing KU %s", rec.SourceID, id))
				}
			}
			return nil
		}); err != nil {
			return err
		}
		if err := tx.Bucket(bucketKUs).ForEach(func(k, _ []byte) error {
			if !owned[string(k)] {
				problems = append(problems, fmt.Sprintf("KU %s belongs to no source", k))
			}
			return nil
		}); err != nil {
			return err
		}
		if err := missingIn(tx, bucketStat, bucketSources, &problems, "stat of %s belongs to no source"); err != nil {
			return err
		}
		if err := missingIn(tx, bucketSources, bucketStat, &problems, "source %s has no stat"); err != nil {
			return err
		}
		c, err := readCounts(tx)
		if err != nil {
			return err
		}
		if n := tx.Bucket(bucketSources).Stats().KeyN; int64(n) != c.sources {
			problems = append(problems, fmt.Sprintf("source counter says %d, the bucket holds %d", c.sources, n))
		}
		if n := tx.Bucket(bucketKUs).Stats().KeyN; int64(n) != c.units {
			problems = append(problems, fmt.Sprintf("KU counter says %d, the bucket holds %d", c.units, n))
		}
		return nil
	})
	return problems, err
}

// missingIn adds a problem (format, with the key) for every key of bucket
// from that bucket in lacks.
func missingIn(tx *bolt.Tx, from, in []byte, problems *[]string, format string) error {
	other := tx.Bucket(in)
	return tx.Bucket(from).ForEach(func(k, _ []byte) error {
		if other.Get(k) == nil {
			*problems = append(*problems, fmt.Sprintf(format, k))
		}
		return nil
	})
}

// Counts returns the number of sources and KUs from the counters the
// commits keep in the meta bucket: no page of the sources or KUs is read.
func (s *Store) Counts() (sources, units int, err error) {
	err = s.view(func(tx *bolt.Tx) error {
		c, err := readCounts(tx)
		sources, units = int(c.sources), int(c.units)
		return err
	})
	return sources, units, err
}

// counts are the stored number of sources and KUs (or a change to them).
type counts struct{ sources, units int64 }

var keyCounts = []byte("counts")

func readCounts(tx *bolt.Tx) (counts, error) {
	var c counts
	v := tx.Bucket(bucketMeta).Get(keyCounts)
	if v == nil {
		return c, nil
	}
	var n1, n2 int
	c.sources, n1 = binary.Varint(v)
	if n1 > 0 {
		c.units, n2 = binary.Varint(v[n1:])
	}
	if n1 <= 0 || n2 <= 0 || c.sources < 0 || c.units < 0 {
		return counts{}, &Error{Code: CodeCorrupt, Path: tx.DB().Path(), Err: errors.New("undecodable source and KU counters")}
	}
	return c, nil
}

// addCounts adds d to the stored counters inside a write transaction.
func addCounts(tx *bolt.Tx, d counts) error {
	if d == (counts{}) {
		return nil
	}
	c, err := readCounts(tx)
	if err != nil {
		return err
	}
	c.sources += d.sources
	c.units += d.units
	v := binary.AppendVarint(binary.AppendVarint(nil, c.sources), c.units)
	return tx.Bucket(bucketMeta).Put(keyCounts, v)
}
