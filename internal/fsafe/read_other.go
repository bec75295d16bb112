//go:build !unix

package fsafe

import (
	"bytes"
	"io"
	"os"
)

// ReadRegular reads the whole file at path, which must be a regular file
// of at most limit bytes; it does not confine the path (callers that found
// it by walking a root have checked that). The open file is checked before
// any read, and the read stops one byte past the limit.
func ReadRegular(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if err := checkRegular(path, info.Mode(), info.Size(), limit); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	buf.Grow(int(info.Size()))
	if _, err := io.Copy(&buf, io.LimitReader(f, limit+1)); err != nil {
		return nil, err
	}
	if int64(buf.Len()) > limit {
		return nil, tooLarge(path, -1, limit)
	}
	if buf.Len() == 0 {
		return []byte{}, nil
	}
	return buf.Bytes(), nil
}
