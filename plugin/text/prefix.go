package text

// CommonPrefix returns the length in bytes of the longest common prefix of
// a and b (compared eight bytes at a time while they agree).
func CommonPrefix(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	for i+8 <= n && a[i:i+8] == b[i:i+8] {
		i += 8
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}
