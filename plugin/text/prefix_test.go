package text

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestCommonPrefix(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"", "abc", 0}, {"abc", "abd", 2}, {"abc", "abc", 3}, {"abc", "abcdef", 3},
		{"0123456789abcdefXY", "0123456789abcdefXZ", 17}, {"01234567", "01234567", 8},
		{"012345678", "01234567x", 8}, {"x1234567890", "y1234567890", 0}, {"héllo", "hélp", 4},
	} {
		require.Equal(t, c.want, CommonPrefix(c.a, c.b), "%q %q", c.a, c.b)
		require.Equal(t, c.want, CommonPrefix(c.b, c.a), "%q %q", c.b, c.a)
	}
}
