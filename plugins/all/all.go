package all

import (
	// Seed detectors.
	_ "github.com/mrpvm/mrpvm/plugins/sd/sd-llm-deep"
	_ "github.com/mrpvm/mrpvm/plugins/sd/sd-llm-fast"
	_ "github.com/mrpvm/mrpvm/plugins/sd/sd-symbolic"

	// Planners.
	_ "github.com/mrpvm/mrpvm/plugins/mrp-plan/planner-default"
	_ "github.com/mrpvm/mrpvm/plugins/mrp-plan/planner-depth"

	// Knowledge retrievers.
	_ "github.com/mrpvm/mrpvm/plugins/kb/kb-balanced"
	_ "github.com/mrpvm/mrpvm/plugins/kb/kb-fast"
	_ "github.com/mrpvm/mrpvm/plugins/kb/kb-thinkingdb"

	// Goal solvers.
	_ "github.com/mrpvm/mrpvm/plugins/gs/gs-llm-deep"
	_ "github.com/mrpvm/mrpvm/plugins/gs/gs-llm-fast"
	_ "github.com/mrpvm/mrpvm/plugins/gs/gs-symbolic"

	// Validators.
	_ "github.com/mrpvm/mrpvm/plugins/val/val-llm"
	_ "github.com/mrpvm/mrpvm/plugins/val/val-symbolic"
)
