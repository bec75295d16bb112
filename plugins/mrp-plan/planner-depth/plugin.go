// Package plannerdepth is the built-in mrp-plan-plugin planner-depth: heavy-first planning for multi-hop questions and recovery: the deepest, most thorough plugins first.
//
// It is the variant planning.HeavyFirst of the shared planner
// (plugins/internal/planning); this folder holds its descriptor
// (plugin.json) and the KUs describing it (plugin.kus.md).
package plannerdepth

import (
	"embed"

	"github.com/mrpvm/mrpvm/plugins"
	"github.com/mrpvm/mrpvm/plugins/internal/planning"
)

//go:embed plugin.json plugin.kus.md
var files embed.FS

func init() { plugins.RegisterBuiltin(planning.HeavyFirst.Builtin(files)) }
