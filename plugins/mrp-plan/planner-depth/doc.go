// Package plannerdepth is the built-in mrp-plan-plugin planner-depth: heavy-first planning for multi-hop questions and recovery: the deepest, most thorough plugins first.
//
// It is the variant planning.HeavyFirst of the shared planner
// (plugins/internal/planning); this folder holds its descriptor
// (plugin.json) and the KUs describing it (plugin.kus.md).
package plannerdepth
