package plannerdefault

import (
	"embed"

	"github.com/mrpvm/mrpvm/plugins"
	"github.com/mrpvm/mrpvm/plugins/internal/planning"
)

//go:embed plugin.json plugin.kus.md
var files embed.FS

func init() { plugins.RegisterBuiltin(planning.CheapFirst.Builtin(files)) }
