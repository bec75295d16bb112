package kus

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
)

// The binary form of a KU is how the knowledge base stores it: a version
// byte, then every field in declaration order, strings and lists as a
// uvarint length followed by their bytes, integers as varints. It is about
// a third smaller than the JSON form (no field names, no escaping) and
// several times faster to write and to read. The JSON form (which starts
// with '{') is still read, so older stores stay readable.

// codecVersion is the first byte of the binary form.
const codecVersion = 1

// ErrBadEncoding reports bytes that are neither form of a KU.
var ErrBadEncoding = errors.New("kus: undecodable KU")

// AppendBinary appends the binary form of k to b.
func (k *KU) AppendBinary(b []byte) []byte {
	str := func(s string) {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	list := func(l []string) {
		b = binary.AppendUvarint(b, uint64(len(l)))
		for _, s := range l {
			str(s)
		}
	}
	num := func(n int) { b = binary.AppendVarint(b, int64(n)) }

	b = append(b, codecVersion)
	str(k.ID)
	str(k.KUType)
	str(k.Level)
	str(k.Title)
	str(k.Role)
	str(k.Topic)
	str(k.Claim)
	str(k.Procedure)
	str(k.Condition)
	str(k.TextBody)
	list(k.Tags)
	str(k.SymbolicSubject)
	str(k.SymbolicRelation)
	str(k.SymbolicObject)
	if k.Confidence == nil {
		b = append(b, 0)
	} else {
		b = append(b, 1)
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(*k.Confidence))
	}
	list(k.ParentUnitIDs)
	list(k.ChildUnitIDs)
	list(k.DerivedFromUnitIDs)
	str(k.SourceID)
	str(k.SourceName)
	str(k.SourceType)
	str(k.ChunkID)
	num(k.ChunkIndex)
	num(k.UnitIndex)
	num(k.CharStart)
	num(k.CharEnd)
	if k.IngestedAt.IsZero() {
		b = append(b, 0)
	} else {
		t, err := k.IngestedAt.MarshalBinary()
		if err != nil { // a zone offset that is not whole minutes
			t, _ = k.IngestedAt.UTC().MarshalBinary()
		}
		b = append(b, byte(len(t)))
		b = append(b, t...)
	}
	num(k.Range.StartLine)
	num(k.Range.StartCol)
	num(k.Range.EndLine)
	num(k.Range.EndCol)
	list(k.UtilityActs)
	list(k.PhaseScopes)
	str(k.UtilityNote)
	str(k.Hash)
	return b
}

// MarshalBinary returns the binary form of k.
func (k *KU) MarshalBinary() ([]byte, error) {
	return k.AppendBinary(make([]byte, 0, k.binarySize())), nil
}

// binarySize estimates the size of the binary form.
func (k *KU) binarySize() int {
	n := 96 + len(k.ID) + len(k.KUType) + len(k.Level) + len(k.Title) + len(k.Role) + len(k.Topic) +
		len(k.Claim) + len(k.Procedure) + len(k.Condition) + len(k.TextBody) + len(k.SymbolicSubject) +
		len(k.SymbolicRelation) + len(k.SymbolicObject) + len(k.SourceID) + len(k.SourceName) +
		len(k.SourceType) + len(k.ChunkID) + len(k.UtilityNote) + len(k.Hash)
	for _, l := range [][]string{k.Tags, k.ParentUnitIDs, k.ChildUnitIDs, k.DerivedFromUnitIDs, k.UtilityActs, k.PhaseScopes} {
		for _, s := range l {
			n += len(s) + 2
		}
	}
	return n
}

// UnmarshalBinary decodes either form of a KU into k (replacing it).
// Malformed input is an error wrapping ErrBadEncoding, never a panic.
func (k *KU) UnmarshalBinary(data []byte) error {
	if len(data) > 0 && data[0] == '{' {
		*k = KU{}
		if err := json.Unmarshal(data, k); err != nil {
			return fmt.Errorf("%w: %v", ErrBadEncoding, err)
		}
		return nil
	}
	if len(data) == 0 || data[0] != codecVersion {
		return fmt.Errorf("%w: unknown version", ErrBadEncoding)
	}
	d := decoder{b: data[1:]}
	var u KU
	u.ID = d.str()
	u.KUType = d.str()
	u.Level = d.str()
	u.Title = d.str()
	u.Role = d.str()
	u.Topic = d.str()
	u.Claim = d.str()
	u.Procedure = d.str()
	u.Condition = d.str()
	u.TextBody = d.str()
	u.Tags = d.list()
	u.SymbolicSubject = d.str()
	u.SymbolicRelation = d.str()
	u.SymbolicObject = d.str()
	if d.byte() == 1 {
		c := math.Float64frombits(binary.LittleEndian.Uint64(d.bytes(8)))
		u.Confidence = &c
	}
	u.ParentUnitIDs = d.list()
	u.ChildUnitIDs = d.list()
	u.DerivedFromUnitIDs = d.list()
	u.SourceID = d.str()
	u.SourceName = d.str()
	u.SourceType = d.str()
	u.ChunkID = d.str()
	u.ChunkIndex = d.num()
	u.UnitIndex = d.num()
	u.CharStart = d.num()
	u.CharEnd = d.num()
	if n := int(d.byte()); n > 0 {
		if err := u.IngestedAt.UnmarshalBinary(d.bytes(n)); err != nil && !d.bad {
			return fmt.Errorf("%w: ingestedAt: %v", ErrBadEncoding, err)
		}
	}
	u.Range.StartLine = d.num()
	u.Range.StartCol = d.num()
	u.Range.EndLine = d.num()
	u.Range.EndCol = d.num()
	u.UtilityActs = d.list()
	u.PhaseScopes = d.list()
	u.UtilityNote = d.str()
	u.Hash = d.str()
	if d.bad || len(d.b) != 0 {
		return fmt.Errorf("%w: truncated or trailing bytes", ErrBadEncoding)
	}
	*k = u
	return nil
}

// decoder reads the binary form; a read past the end sets bad and yields
// zero values.
type decoder struct {
	b   []byte
	bad bool
}

func (d *decoder) bytes(n int) []byte {
	if n < 0 || n > len(d.b) {
		d.bad, d.b = true, nil
		return make([]byte, 8) // zeros for the caller, whose result is discarded
	}
	v := d.b[:n]
	d.b = d.b[n:]
	return v
}

func (d *decoder) byte() byte {
	if len(d.b) == 0 {
		d.bad = true
		return 0
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c
}

func (d *decoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.bad, d.b = true, nil
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) num() int {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.bad, d.b = true, nil
		return 0
	}
	d.b = d.b[n:]
	return int(v)
}

func (d *decoder) str() string {
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		d.bad, d.b = true, nil
		return ""
	}
	return string(d.bytes(int(n)))
}

func (d *decoder) list() []string {
	n := d.uvarint()
	if n == 0 {
		return nil
	}
	if n > uint64(len(d.b)) { // every element takes at least one byte
		d.bad, d.b = true, nil
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = d.str()
	}
	return out
}
