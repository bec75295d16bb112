// Package kbfast is the built-in kb-plugin kb-fast: lexical-first BM25 retrieval with a small result budget.
//
// It is the variant kbplugin.Fast of the shared kb-plugin engine
// (plugins/internal/kbplugin); this folder holds its descriptor
// (plugin.json) and the KUs describing it (plugin.kus.md).
package kbfast

import (
	"embed"

	"github.com/mrpvm/mrpvm/plugins"
	"github.com/mrpvm/mrpvm/plugins/internal/kbplugin"
)

//go:embed plugin.json plugin.kus.md
var files embed.FS

func init() { plugins.RegisterBuiltin(kbplugin.Fast.Builtin(files)) }
