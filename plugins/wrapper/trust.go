package wrapper

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// maxFingerprintBytes bounds each file a fingerprint reads.
const maxFingerprintBytes = 256 << 20

// Fingerprint returns the hex SHA-256 that binds an allowlist entry to a
// wrapper's contents: the SHA-256 of the concatenated SHA-256 digests of
// its manifest.json, its executable and each argument naming a regular file
// of the wrapper folder, in that order. The same value comes from
//
//	sha256sum manifest.json <executable> [argument files] | cut -c1-64 | xxd -r -p | sha256sum
//
// Every file must be a regular file of at most 256 MiB.
func Fingerprint(m *Manifest) (string, error) {
	outer := sha256.New()
	for _, f := range m.fingerprintFiles() {
		sum, err := fileSHA256(f)
		if err != nil {
			return "", fmt.Errorf("fingerprint of wrapper %s: %w", m.Dir, err)
		}
		outer.Write(sum)
	}
	return hex.EncodeToString(outer.Sum(nil)), nil
}

// fingerprintFiles lists the files a fingerprint covers.
func (m *Manifest) fingerprintFiles() []string {
	files := []string{m.File, m.Path}
	for _, a := range m.Args {
		if a == "" || strings.HasPrefix(a, "-") {
			continue
		}
		p := filepath.Join(m.Dir, filepath.FromSlash(a))
		if st, err := os.Lstat(p); err == nil && st.Mode().IsRegular() {
			files = append(files, p)
		}
	}
	return files
}

func fileSHA256(path string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	if st.Size() > maxFingerprintBytes {
		return nil, fmt.Errorf("%s is larger than %d bytes", path, maxFingerprintBytes)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, io.LimitReader(f, maxFingerprintBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if n > maxFingerprintBytes {
		return nil, fmt.Errorf("%s is larger than %d bytes", path, maxFingerprintBytes)
	}
	return h.Sum(nil), nil
}

// SameDir reports whether two folders are the same once symbolic links are
// resolved (an unresolvable path is compared as written, cleaned).
func SameDir(a, b string) bool {
	return resolved(a) == resolved(b)
}

func resolved(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		p = r
	}
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	return filepath.Clean(p)
}

// argLeaves reports whether an argument names a path outside the wrapper
// folder, and which part of it does. Every path-like part is checked, not
// only the whole argument: the values after '=' (--file=/etc/passwd,
// -Dx=/etc), the items of ',' ':' ';' lists (--path=a:/etc), an option
// glued to its value (-f/etc/passwd) and the path of a file: URL. A part
// fails when it is absolute, starts with ~ (a shell or the wrapper may
// expand it to a home folder) or has a ".." element. Other URLs
// (http://host/...) are not paths and pass.
func argLeaves(arg string) (part string, bad bool) {
	for _, p := range argParts(arg) {
		if isAbs(p) || hasDotDot(p) || strings.HasPrefix(p, "~") {
			return p, true
		}
	}
	return "", false
}

// argParts splits an argument into the candidate paths argLeaves checks.
func argParts(arg string) []string {
	var out []string
	add := func(p string) {
		if p == "" {
			return
		}
		out = append(out, p)
		if t := strings.TrimLeft(p, "-"); t != p && t != "" {
			out = append(out, t)
			if len(p) > 2 && p[0] == '-' && p[1] != '-' {
				out = append(out, p[2:]) // -f/etc/passwd
			}
		}
	}
	add(arg)
	for _, seg := range strings.FieldsFunc(arg, func(r rune) bool { return r == '=' || r == ',' || r == ';' }) {
		if scheme, rest, ok := strings.Cut(seg, "://"); ok && isScheme(scheme) {
			if strings.EqualFold(scheme, "file") {
				add(rest)
				// file://host/path and file:///path both name /path.
				if i := strings.IndexByte(rest, '/'); i >= 0 {
					add(rest[i:])
				}
			}
			continue
		}
		add(seg)
		if len(seg) > 2 && seg[1] == ':' {
			continue // a drive letter, checked whole by isAbs
		}
		for _, item := range strings.Split(seg, ":") {
			add(item)
		}
	}
	return out
}

func isScheme(s string) bool {
	if len(s) < 2 {
		return false // a drive letter, not a scheme
	}
	for i, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && (r >= '0' && r <= '9' || r == '+' || r == '-' || r == '.')) {
			return false
		}
	}
	return true
}
