package store

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/mrpvm/mrpvm/kus"
)

// SourceRecord is what the store keeps about one ingested source.
type SourceRecord struct {
	SourceID   string    `json:"sourceId"`
	Path       string    `json:"path,omitempty"` // absolute path; empty for built-in sources
	Size       int64     `json:"size"`
	ModTime    int64     `json:"modTime"` // unix nanoseconds
	Hash       string    `json:"hash"`    // hex SHA-256 of the text
	Title      string    `json:"title"`
	UnitIDs    []string  `json:"unitIds"`
	IngestedAt time.Time `json:"ingestedAt"`
}

// Source returns the record of one source, or nil.
func (s *Store) Source(id string) (*SourceRecord, error) {
	var rec *SourceRecord
	err := s.view(func(tx *bolt.Tx) error {
		var err error
		rec, err = getSource(tx, id)
		return err
	})
	return rec, err
}

// Sources returns every source record, sorted by id.
func (s *Store) Sources() ([]*SourceRecord, error) {
	var out []*SourceRecord
	err := s.view(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketSources).ForEach(func(k, v []byte) error {
			rec := new(SourceRecord)
			if err := json.Unmarshal(v, rec); err != nil {
				return s.corrupt(fmt.Errorf("source %q: undecodable record: %w", k, err))
			}
			out = append(out, rec)
			return nil
		})
	})
	return out, err
}

func getSource(tx *bolt.Tx, id string) (*SourceRecord, error) {
	v := tx.Bucket(bucketSources).Get([]byte(id))
	if v == nil {
		return nil, nil
	}
	rec := new(SourceRecord)
	if err := json.Unmarshal(v, rec); err != nil {
		return nil, &Error{Code: CodeCorrupt, Path: tx.DB().Path(), Err: fmt.Errorf("source %q: undecodable record: %w", id, err)}
	}
	return rec, nil
}

// FileStat is a source's stored size and mtime, what the ingest check
// compares to decide a file is unchanged.
type FileStat struct {
	SourceID      string
	Size, ModTime int64
}

// putFileStat records rec's size and mtime in the stat bucket.
func putFileStat(tx *bolt.Tx, rec *SourceRecord) error {
	b := tx.Bucket(bucketStat)
	b.FillPercent = appendFill
	v := binary.AppendVarint(binary.AppendVarint(make([]byte, 0, 16), rec.Size), rec.ModTime)
	if err := b.Put([]byte(rec.SourceID), v); err != nil {
		return fmt.Errorf("store stat of %s: %w", rec.SourceID, err)
	}
	return nil
}

// FileStats returns the size and mtime of every source sorted by source
// id (bytewise, as bbolt keeps them), read from the small stat bucket: no
// page of the source records is touched. The ids are substrings of one
// string made for the whole list: a workspace of 50,000 files costs two
// allocations, not 50,000 strings.
func (s *Store) FileStats() ([]FileStat, error) {
	var out []FileStat
	err := s.view(func(tx *bolt.Tx) error {
		c, err := readCounts(tx) // a size hint: the sources stored
		if err != nil {
			c = counts{}
		}
		type entry struct {
			end           int
			size, modTime int64
		}
		n := int(min(c.sources, 1<<24))
		keys := make([]byte, 0, 32*n)
		ents := make([]entry, 0, n)
		err = tx.Bucket(bucketStat).ForEach(func(k, v []byte) error {
			size, n1 := binary.Varint(v)
			if n1 <= 0 {
				return &Error{Code: CodeCorrupt, Path: s.path, Err: fmt.Errorf("stat of source %s undecodable", k)}
			}
			mt, n2 := binary.Varint(v[n1:])
			if n2 <= 0 {
				return &Error{Code: CodeCorrupt, Path: s.path, Err: fmt.Errorf("stat of source %s undecodable", k)}
			}
			keys = append(keys, k...)
			ents = append(ents, entry{end: len(keys), size: size, modTime: mt})
			return nil
		})
		if err != nil {
			return err
		}
		all, start := string(keys), 0
		out = make([]FileStat, len(ents))
		for i, e := range ents {
			out[i] = FileStat{SourceID: all[start:e.end], Size: e.size, ModTime: e.modTime}
			start = e.end
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read source stats: %w", err)
	}
	return out, nil
}

// EncodeRecord is the stored form of a source record, for a caller that
// prepares it outside the write transaction (SourceWrite.Record).
func EncodeRecord(rec *SourceRecord) ([]byte, error) { return json.Marshal(rec) }

// SourceWrite is one source as PutSource stores it.
type SourceWrite struct {
	Record *SourceRecord
	// Encoded is Record's stored form made ahead (EncodeRecord); nil: made here.
	Encoded []byte
	// Units are the source's KUs in document order; EncodedUnits holds
	// their stored form made ahead (EncodeUnits), and units past its end
	// are encoded here.
	Units        []*kus.KU
	EncodedUnits [][]byte
	// OldUnitIDs are the ids of the KUs the source had: they are deleted
	// first.
	OldUnitIDs []string
}

// PutSource replaces one source's KUs, record and stat and keeps the
// stored counters in step.
func (t *Tx) PutSource(w SourceWrite) error {
	kusB := t.tx.Bucket(bucketKUs)
	kusB.FillPercent = appendFill
	var c counts
	if err := deleteUnits(kusB, w.OldUnitIDs, &c); err != nil {
		return err
	}
	for i, u := range w.Units {
		var v []byte
		if i < len(w.EncodedUnits) {
			v = w.EncodedUnits[i]
		} else {
			var err error
			if v, err = encodeKU(u); err != nil {
				return err
			}
		}
		if kusB.Get([]byte(u.ID)) == nil {
			c.units++
		}
		if err := kusB.Put([]byte(u.ID), v); err != nil {
			return fmt.Errorf("store ku %s: %w", u.ID, err)
		}
	}
	v := w.Encoded
	if v == nil {
		var err error
		if v, err = EncodeRecord(w.Record); err != nil {
			return err
		}
	}
	id := []byte(w.Record.SourceID)
	srcB := t.tx.Bucket(bucketSources)
	srcB.FillPercent = appendFill
	if srcB.Get(id) == nil {
		c.sources++
	}
	if err := srcB.Put(id, v); err != nil {
		return err
	}
	if err := putFileStat(t.tx, w.Record); err != nil {
		return err
	}
	return addCounts(t.tx, c)
}

// TouchSource stores a new record for a source whose content did not
// change (its size, mtime or path did); its KUs stay as they are.
func (t *Tx) TouchSource(rec *SourceRecord) error {
	v, err := EncodeRecord(rec)
	if err != nil {
		return err
	}
	if err := t.tx.Bucket(bucketSources).Put([]byte(rec.SourceID), v); err != nil {
		return err
	}
	return putFileStat(t.tx, rec)
}

// RemoveSource deletes a source's record, stat and KUs.
func (t *Tx) RemoveSource(rec *SourceRecord) error {
	var c counts
	if err := deleteUnits(t.tx.Bucket(bucketKUs), rec.UnitIDs, &c); err != nil {
		return err
	}
	srcB := t.tx.Bucket(bucketSources)
	if srcB.Get([]byte(rec.SourceID)) != nil {
		if err := srcB.Delete([]byte(rec.SourceID)); err != nil {
			return err
		}
		c.sources--
	}
	if err := t.tx.Bucket(bucketStat).Delete([]byte(rec.SourceID)); err != nil {
		return err
	}
	return addCounts(t.tx, c)
}

// deleteUnits deletes the KUs ids from kusB, counting each one that was
// there in c.
func deleteUnits(kusB *bolt.Bucket, ids []string, c *counts) error {
	for _, id := range ids {
		if kusB.Get([]byte(id)) == nil {
			continue
		}
		if err := kusB.Delete([]byte(id)); err != nil {
			return err
		}
		c.units--
	}
	return nil
}
