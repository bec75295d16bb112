package kvns

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/plugins/kb/internal/kvtest"
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
