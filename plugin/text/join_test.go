package text

import "testing"

func TestJoinFunc(t *testing.T) {
	type item struct{ s string }
	raw := func(it item) string { return it.s }
	for _, tc := range []struct {
		items []item
		want  string
	}{
		{nil, ""},
		{[]item{{"a"}}, "a"},
		{[]item{{"a"}, {""}, {"bc"}}, "a--bc"},
	} {
		if got := JoinFunc(tc.items, "-", raw); got != tc.want {
			t.Errorf("JoinFunc(%v) = %q, want %q", tc.items, got, tc.want)
		}
	}
}
