package bindec

import (
	"encoding/binary"
	"math"
)

// Decoder reads values from the front of B. The zero value reads nothing
// and is not bad.
type Decoder struct {
	B   []byte // what is left to read
	Bad bool   // a read failed; B is then empty
}

// fail marks d bad and drops what is left.
func (d *Decoder) fail() { d.Bad, d.B = true, nil }

// Uvarint reads an unsigned varint (one byte for values below 128, read
// without a call: most numbers of an index record are small).
func (d *Decoder) Uvarint() uint64 {
	if len(d.B) > 0 && d.B[0] < 0x80 {
		v := d.B[0]
		d.B = d.B[1:]
		return uint64(v)
	}
	v, n := binary.Uvarint(d.B)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.B = d.B[n:]
	return v
}

// Varint reads a signed varint: the zig-zag encoding binary.AppendVarint
// writes, an unsigned varint underneath.
func (d *Decoder) Varint() int64 {
	u := d.Uvarint()
	return int64(u>>1) ^ -int64(u&1)
}

// Byte reads one byte.
func (d *Decoder) Byte() byte {
	if len(d.B) == 0 {
		d.Bad = true
		return 0
	}
	c := d.B[0]
	d.B = d.B[1:]
	return c
}

// Bytes reads n bytes, aliasing B (nil when fewer are left).
func (d *Decoder) Bytes(n uint64) []byte {
	if n > uint64(len(d.B)) {
		d.fail()
		return nil
	}
	v := d.B[:n]
	d.B = d.B[n:]
	return v
}

// Str reads a string prefixed by its length as an unsigned varint.
func (d *Decoder) Str() string { return string(d.Bytes(d.Uvarint())) }

// Float64 reads a float64 stored as 8 little-endian bytes.
func (d *Decoder) Float64() float64 {
	b := d.Bytes(8)
	if b == nil {
		return 0
	}
	return math.Float64frombits(binary.LittleEndian.Uint64(b))
}

// Float32 reads a float32 stored as 4 little-endian bytes.
func (d *Decoder) Float32() float32 {
	b := d.Bytes(4)
	if b == nil {
		return 0
	}
	return math.Float32frombits(binary.LittleEndian.Uint32(b))
}

// Done reports whether every read succeeded and nothing is left.
func (d *Decoder) Done() bool { return !d.Bad && len(d.B) == 0 }
