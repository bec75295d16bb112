// Package plannerdefault is the built-in mrp-plan-plugin planner-default: adaptive cheap-first planning: candidates per stage ordered by learned utility (EWMA statistics persisted in its store), descriptor hints matched to the task, and cost.
//
// It is the variant planning.CheapFirst of the shared planner
// (plugins/internal/planning); this folder holds its descriptor
// (plugin.json) and the KUs describing it (plugin.kus.md).
package plannerdefault
