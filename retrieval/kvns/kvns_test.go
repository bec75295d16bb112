package kvns

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/retrieval/kvtest"
)

func TestDeletePrefix(t *testing.T) {
	kv := kvtest.New()
	for _, k := range []string{"a.1", "a.2", "a.3", "ab", "b.1"} {
		require.NoError(t, kv.Put([]byte(k), []byte("v")))
	}
	require.NoError(t, DeletePrefix(kv, []byte("a.")))
	require.Equal(t, []string{"ab", "b.1"}, kv.Keys())
	require.NoError(t, Clear(kv, "x", []byte("b.")))
	require.Equal(t, []string{"ab"}, kv.Keys())
}

func TestClearReportsTheIndex(t *testing.T) {
	kv := kvtest.New()
	require.NoError(t, kv.Put([]byte("h.1"), []byte("v")))
	kv.ReadOnly = true
	err := Clear(kv, "hdc", []byte("h."))
	require.ErrorContains(t, err, "hdc: clear: kvtest: read-only")
	require.Equal(t, []string{"h.1"}, kv.Keys())
}

func TestWriteSource(t *testing.T) {
	kv := kvtest.New()
	drops, writes := 0, 0
	drop := func() { drops++ }
	ok := func() error { writes++; return nil }
	require.NoError(t, WriteSource(kv, "bm25", "a.md", ok, drop))
	require.Equal(t, 1, writes)
	require.Zero(t, drops)

	err := WriteSource(kv, "bm25", "a.md", func() error { return errors.New("bad record") }, drop)
	require.EqualError(t, err, "bm25: index source a.md: bad record")
	require.Equal(t, 1, drops, "a failed write drops the in-memory state")

	kv.ReadOnly = true
	err = WriteSource(kv, "thinkingdb", "b.md", ok, drop)
	require.EqualError(t, err, "thinkingdb: index source b.md: read-only transaction")
	require.Equal(t, 1, writes, "nothing is written in a read-only transaction")
	require.Equal(t, 2, drops)
}

func TestHeader(t *testing.T) {
	v := AppendHeader([]byte(nil), 3, 0x0102030405060708, 42)
	v = append(v, "rest"...)
	nonce, gen, rest, ok := readHeader(v, 3)
	require.True(t, ok)
	require.Equal(t, uint64(0x0102030405060708), nonce)
	require.Equal(t, uint64(42), gen)
	require.Equal(t, "rest", string(rest))
	_, _, _, ok = readHeader(v, 4)
	require.False(t, ok, "another format version")
	_, _, _, ok = readHeader(v[:16], 3)
	require.False(t, ok, "a short record")
	require.Equal(t, uint64(1), NewNonce()&1, "a nonce is never zero")
}
