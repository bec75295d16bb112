package store

import (
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/mrpvm/mrpvm/kus"
)

// KU returns one unit by id, or nil.
func (s *Store) KU(id string) (*kus.KU, error) {
	var ku *kus.KU
	err := s.view(func(tx *bolt.Tx) error {
		var err error
		ku, err = getKU(tx, id)
		return err
	})
	return ku, err
}

// SourceKUs returns the units of one source in document order.
func (s *Store) SourceKUs(sourceID string) ([]*kus.KU, error) {
	var out []*kus.KU
	err := s.view(func(tx *bolt.Tx) error {
		rec, err := getSource(tx, sourceID)
		if err != nil || rec == nil {
			return err
		}
		for _, id := range rec.UnitIDs {
			ku, err := getKU(tx, id)
			if err != nil {
				return err
			}
			if ku != nil {
				out = append(out, ku)
			}
		}
		return nil
	})
	return out, err
}

// getKU reads one KU; the fields it shares with other KUs of its source
// are read from them in the same transaction.
func getKU(tx *bolt.Tx, id string) (*kus.KU, error) {
	b := tx.Bucket(bucketKUs)
	v := b.Get([]byte(id))
	if v == nil {
		return nil, nil
	}
	ku := new(kus.KU)
	if err := ku.UnmarshalBinaryFrom(v, func(id string) []byte { return b.Get([]byte(id)) }); err != nil {
		return nil, &Error{Code: CodeCorrupt, Path: tx.DB().Path(), Err: fmt.Errorf("ku %q: %w", id, err)}
	}
	return ku, nil
}

// encodeKU is the stored form of a KU.
func encodeKU(u *kus.KU) ([]byte, error) {
	v, err := u.MarshalBinary()
	if err != nil {
		return nil, fmt.Errorf("encode ku %s: %w", u.ID, err)
	}
	return v, nil
}

// EncodeUnits is the stored form of a source's units, sharing the text
// they repeat (kus.EncodeUnits): they are stored and deleted together. A
// caller prepares it outside the write transaction (SourceWrite).
func EncodeUnits(units []*kus.KU) [][]byte {
	return kus.EncodeUnits(units)
}
