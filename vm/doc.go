// Package vm runs the MRP-VM loop over a knowledge base and a plugin
// catalog: seed detection -> plan -> retrieval -> goal solving ->
// validation, with sessions, execution frames, budgets, decomposition,
// backtracking to heavier planners and a trace of every stage.
package vm
