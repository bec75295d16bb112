package tldrpages

import (
	"archive/tar"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// EnvArchive names an environment variable that, when set, gives the path
// of the archive (for checkouts that do not sit beside ../shared).
const EnvArchive = "MRPVM_TLDR_ARCHIVE"

// ErrNoArchive is returned when the archive cannot be found.
var ErrNoArchive = errors.New("tldr-pages archive not available")

// maxPageBytes bounds one page; real pages are a few kilobytes.
const maxPageBytes = 1 << 20

// Archive returns the path of tldr-pages.tar.gz: $MRPVM_TLDR_ARCHIVE when
// set, else shared/data/tldr-pages.tar.gz beside the checkout (the folder
// holding go.mod, found upwards from the working directory), as CI lays
// them out. The error wraps ErrNoArchive when neither exists.
func Archive() (string, error) {
	if p := os.Getenv(EnvArchive); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("%w: %s=%s: %v", ErrNoArchive, EnvArchive, p, err)
		}
		return p, nil
	}
	root, err := ModuleRoot()
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrNoArchive, err)
	}
	p := filepath.Join(filepath.Dir(root), "shared", "data", "tldr-pages.tar.gz")
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("%w: %v (set %s to its path)", ErrNoArchive, err, EnvArchive)
	}
	return p, nil
}

// ModuleRoot returns the nearest folder at or above the working directory
// that holds a go.mod file.
func ModuleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = parent
	}
}

// Extract unpacks the pages of the archive's platforms (pages/<platform>/*.md)
// into dst: platforms maps a platform name ("common", "linux") to the folder
// under dst that receives its pages ("" for dst itself). Only regular files
// directly inside a platform folder are written. It returns the number of
// pages written per platform.
func Extract(archive, dst string, platforms map[string]string) (map[string]int, error) {
	f, err := os.Open(archive)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoArchive, err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", archive, err)
	}
	defer gz.Close()
	for _, sub := range platforms {
		if err := os.MkdirAll(filepath.Join(dst, sub), 0o755); err != nil {
			return nil, err
		}
	}
	counts := map[string]int{}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return counts, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", archive, err)
		}
		name := strings.TrimPrefix(h.Name, "./")
		rest, ok := strings.CutPrefix(name, "pages/")
		if !ok || h.Typeflag != tar.TypeReg {
			continue
		}
		platform, page, ok := strings.Cut(rest, "/")
		sub, want := platforms[platform]
		if !ok || !want || page == "" || strings.Contains(page, "/") || page == ".." || !strings.HasSuffix(page, ".md") {
			continue
		}
		b, err := io.ReadAll(io.LimitReader(tr, maxPageBytes))
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", archive, name, err)
		}
		if err := os.WriteFile(filepath.Join(dst, sub, page), b, 0o644); err != nil {
			return nil, err
		}
		counts[platform]++
	}
}

// ExtractCommon unpacks pages/common of the archive into dir and returns
// the number of pages; the test is skipped when the archive is not
// available.
func ExtractCommon(tb testing.TB, dir string) int {
	tb.Helper()
	archive, err := Archive()
	if err != nil {
		tb.Skipf("%v", err)
	}
	n, err := Extract(archive, dir, map[string]string{"common": ""})
	if err != nil {
		tb.Fatal(err)
	}
	return n["common"]
}
