package vm_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/mrpvm/mrpvm/internal/testtree"
	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/vm"
	"github.com/mrpvm/mrpvm/workspace"
)

// BenchmarkReadSource compares reading the Markdown files of the workspace
// MRPVM_BENCH_WS (e.g. a SciFact workspace made by
// ../shared/tools/mkworkspace) with the Markdown reader itself and through
// the ingest's seed detector (sd-symbolic's normalizePersistentContext),
// in one process, so the detector's overhead shows apart from the noise
// of a loaded machine:
//
//	MRPVM_BENCH_WS=/tmp/ws go test ./vm/ -run '^$' -bench ReadSource -count 6
func BenchmarkReadSource(b *testing.B) {
	ws := testtree.BenchWorkspace(b)
	names, err := filepath.Glob(filepath.Join(ws, "*.md"))
	if err != nil || len(names) == 0 {
		b.Skipf("no Markdown files in %s", ws)
	}
	if len(names) > 1000 {
		names = names[:1000]
	}
	type file struct {
		info kus.SourceInfo
		text []byte
	}
	var files []file
	var size int64
	for _, n := range names {
		text, err := os.ReadFile(n)
		if err != nil {
			b.Fatal(err)
		}
		size += int64(len(text))
		id := filepath.Base(n)
		files = append(files, file{kus.SourceInfo{SourceID: id, SourceName: id, SourceType: kus.SourceMarkdown}, text})
	}
	cat := workspace.LoadCatalog(workspace.Options{Root: b.TempDir(), NoWrappers: true})
	read := vm.IngestReader(cat, nil, nil)
	if read == nil {
		b.Fatal("sd-symbolic is not loaded")
	}
	ctx := context.Background()
	for _, bc := range []struct {
		name string
		read func(context.Context, kus.SourceInfo, []byte) (*kus.Document, error)
	}{
		{"markdown-reader", func(ctx context.Context, info kus.SourceInfo, text []byte) (*kus.Document, error) {
			return kus.ParseContext(ctx, text, info)
		}},
		{"sd-symbolic", read},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				for _, f := range files {
					if _, err := bc.read(ctx, f.info, f.text); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
