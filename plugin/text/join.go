package text

import "strings"

// JoinFunc is strings.Join of the strings str gives for items, built in one
// allocation and without a slice of them; with one item it is that item's
// string itself.
func JoinFunc[T any](items []T, sep string, str func(T) string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return str(items[0])
	}
	n := len(sep) * (len(items) - 1)
	for _, it := range items {
		n += len(str(it))
	}
	var b strings.Builder
	b.Grow(n)
	for i, it := range items {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(str(it))
	}
	return b.String()
}
