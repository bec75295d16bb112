// Package kbthinkingdb is the built-in kb-plugin kb-thinkingdb: BM25 fused with ThinkingDB facts and bounded proofs.
//
// It is the variant kbplugin.ThinkingDB of the shared kb-plugin engine
// (plugins/internal/kbplugin); this folder holds its descriptor
// (plugin.json) and the KUs describing it (plugin.kus.md).
package kbthinkingdb

import (
	"embed"

	"github.com/mrpvm/mrpvm/plugins"
	"github.com/mrpvm/mrpvm/plugins/internal/kbplugin"
)

//go:embed plugin.json plugin.kus.md
var files embed.FS

func init() { plugins.RegisterBuiltin(kbplugin.ThinkingDB.Builtin(files)) }
