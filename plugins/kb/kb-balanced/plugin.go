// Package kbbalanced is the built-in kb-plugin kb-balanced: BM25 candidates reranked with HDC hypervectors and MMR diversity.
//
// It is the variant kbplugin.Balanced of the shared kb-plugin engine
// (plugins/internal/kbplugin); this folder holds its descriptor
// (plugin.json) and the KUs describing it (plugin.kus.md).
package kbbalanced

import (
	"embed"

	"github.com/mrpvm/mrpvm/plugins"
	"github.com/mrpvm/mrpvm/plugins/internal/kbplugin"
)

//go:embed plugin.json plugin.kus.md
var files embed.FS

func init() { plugins.RegisterBuiltin(kbplugin.Balanced.Builtin(files)) }
