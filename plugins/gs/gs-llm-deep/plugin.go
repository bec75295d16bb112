package gsllmdeep

import (
	"embed"

	"github.com/mrpvm/mrpvm/plugins"
	"github.com/mrpvm/mrpvm/plugins/internal/llmplug"
)

//go:embed plugin.json plugin.kus.md prompts/*.tmpl
var files embed.FS

func init() { plugins.RegisterBuiltin(llmplug.DeepGoalSolver.Builtin(files)) }
