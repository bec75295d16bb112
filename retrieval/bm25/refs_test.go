package bm25

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/retrieval/kvtest"
)

func TestSourceName(t *testing.T) {
	for in, want := range map[string]string{
		"common/tail.md":        "tail",
		"docs/Configuration.md": "configuration",
		"plugin::kb-fast":       "kb-fast",
		"README":                "readme",
		".hidden":               ".hidden",
		"linux/ssh-keygen.md":   "ssh-keygen",
	} {
		assert.Equal(t, want, SourceName(in), in)
	}
}

func TestReferencesFindsCommands(t *testing.T) {
	text := []byte("# pueue-add\n\n" +
		"> See also: `head`, `tail`.\n" +
		"> More information: <https://example.com/tail>.\n\n" +
		"Read [the guide](docs/Guide.md#flags) and [[Usage|usage]]: links are not references.\n\n" +
		"- Run it:\n\n" +
		"`sudo LANG=C chmod +x {{file}} && ls -l | grep x; echo $(date)`\n\n" +
		"`pueue status` and `pueue-add` are the family; `{{path}}` is no name.\n\n" +
		"```sh\n" +
		"find . -name '*.md' | xargs wc -l\n" +
		"```\n" +
		"Prose words such as find are not references outside code.\n")
	got := References("pueue-add", text)
	assert.Equal(t, []string{"chmod", "date", "echo", "find", "grep", "head", "ls", "tail", "xargs"}, got)
}

func TestReferencesOfAPageToItselfAreNone(t *testing.T) {
	assert.Empty(t, References("tail", []byte("`tail -f file`\n\n```\ntail -n 5 log | tail -1\n```\n")))
	assert.Empty(t, References("git", []byte("`git-commit` and `git commit`\n")))
}

func TestSetReferencesCountsDistinctSourcesAndFollowsUpdates(t *testing.T) {
	kv := kvtest.New()
	count := func(name string) int {
		n, err := Referrers(kv, name)
		require.NoError(t, err)
		return n
	}
	require.NoError(t, SetReferences(kv, "a.md", []string{"chmod", "tail"}))
	require.NoError(t, SetReferences(kv, "b.md", []string{"tail"}))
	assert.Equal(t, 2, count("tail"))
	assert.Equal(t, 1, count("chmod"))
	assert.Equal(t, 0, count("ln"))

	// Re-indexing a source with the same references changes nothing;
	// a changed source moves its votes.
	require.NoError(t, SetReferences(kv, "b.md", []string{"tail"}))
	assert.Equal(t, 2, count("tail"))
	require.NoError(t, SetReferences(kv, "a.md", []string{"ln", "tail"}))
	assert.Equal(t, 0, count("chmod"))
	assert.Equal(t, 1, count("ln"))
	assert.Equal(t, 2, count("tail"))

	// A removed source takes its votes with it and leaves no keys.
	require.NoError(t, SetReferences(kv, "a.md", nil))
	require.NoError(t, SetReferences(kv, "b.md", nil))
	assert.Equal(t, 0, count("tail"))
	assert.Equal(t, 0, count("ln"))
	assert.Nil(t, kv.Get(key(prefixRefs, "a.md")))
	assert.Nil(t, kv.Get(key(prefixReferred, "tail")))
}

func TestReferrersRejectsAGarbledCount(t *testing.T) {
	kv := kvtest.New()
	require.NoError(t, kv.Put(key(prefixReferred, "tail"), []byte{0x80}))
	_, err := Referrers(kv, "tail")
	assert.ErrorIs(t, err, ErrCorrupt)
}
