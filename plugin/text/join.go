package text

import "strings"

// JoinFunc is strings.Join of the strings str gives for items, without a
// slice of them; str is called once per item, and with one item the result
// is that item's string itself.
func JoinFunc[T any](items []T, sep string, str func(T) string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return str(items[0])
	}
	var b strings.Builder
	for i, it := range items {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(str(it))
	}
	return b.String()
}
