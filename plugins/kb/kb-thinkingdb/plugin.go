package kbthinkingdb

import (
	"embed"

	"github.com/mrpvm/mrpvm/plugins"
	"github.com/mrpvm/mrpvm/plugins/internal/kbplugin"
)

//go:embed plugin.json plugin.kus.md
var files embed.FS

func init() { plugins.RegisterBuiltin(kbplugin.ThinkingDB.Builtin(files)) }
