// Package planning holds what the built-in planners share: per-plugin and
// per-planner EWMA statistics persisted in the planner's store, and
// candidate scoring from those statistics, descriptor hints and task signals.
package planning
