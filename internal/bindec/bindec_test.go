package bindec

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestRoundTrip(t *testing.T) {
	var b []byte
	for _, v := range []uint64{0, 1, 127, 128, 300, math.MaxUint64} {
		b = binary.AppendUvarint(b, v)
	}
	for _, v := range []int64{0, -1, 63, -64, 1 << 40, math.MinInt64} {
		b = binary.AppendVarint(b, v)
	}
	b = append(b, 7)
	b = binary.AppendUvarint(b, 5)
	b = append(b, "héllo"[:5]...)
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(0.25))
	b = append(b, 1, 2, 3)

	d := Decoder{B: b}
	for _, v := range []uint64{0, 1, 127, 128, 300, math.MaxUint64} {
		require.Equal(t, v, d.Uvarint())
	}
	for _, v := range []int64{0, -1, 63, -64, 1 << 40, math.MinInt64} {
		require.Equal(t, v, d.Varint())
	}
	require.Equal(t, byte(7), d.Byte())
	require.Equal(t, "héll", d.Str())
	require.Equal(t, 0.25, d.Float64())
	require.False(t, d.Done())
	require.Equal(t, []byte{1, 2, 3}, d.Bytes(3))
	require.True(t, d.Done())
}

// TestBad checks that every read past the end, or of a malformed number,
// marks the decoder bad, drops what is left and yields a zero value.
func TestBad(t *testing.T) {
	long := []byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01} // 11 bytes: overflow
	for name, read := range map[string]func(d *Decoder) any{
		"uvarint": func(d *Decoder) any { return d.Uvarint() },
		"varint":  func(d *Decoder) any { return d.Varint() },
		"string":  func(d *Decoder) any { return d.Str() },
		"float64": func(d *Decoder) any { return d.Float64() },
		"bytes":   func(d *Decoder) any { return len(d.Bytes(12)) },
	} {
		for _, in := range [][]byte{nil, {0x80}, long} {
			if name == "float64" && len(in) >= 8 {
				continue
			}
			d := Decoder{B: append([]byte(nil), in...)}
			v := read(&d)
			require.True(t, d.Bad, "%s of %x", name, in)
			require.Empty(t, d.B, "%s of %x", name, in)
			require.False(t, d.Done())
			require.Zero(t, v, "%s of %x", name, in)
		}
	}
	d := Decoder{}
	require.Zero(t, d.Byte())
	require.True(t, d.Bad)
	d = Decoder{B: []byte{5, 'a'}}
	require.Equal(t, "", d.Str(), "a length past the end")
	require.True(t, d.Bad)
}

// FuzzVarint checks Varint against the standard library on any bytes.
func FuzzVarint(f *testing.F) {
	f.Add([]byte{0x80, 0x01})
	f.Add(binary.AppendVarint(nil, math.MinInt64))
	f.Fuzz(func(t *testing.T, b []byte) {
		want, n := binary.Varint(b)
		d := Decoder{B: b}
		got := d.Varint()
		if n <= 0 {
			require.True(t, d.Bad)
			require.Zero(t, got)
			return
		}
		require.Equal(t, want, got)
		require.Equal(t, b[n:], d.B)
	})
}
