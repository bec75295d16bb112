// Package vm runs the MRP-VM loop over a knowledge base and a plugin
// catalog: seed detection -> plan -> retrieval -> goal solving ->
// validation, with sessions, execution frames, budgets, decomposition,
// backtracking to heavier planners and a trace of every stage.
//
// Conversations (followup.go): a follow-up that points back, continues or
// names too little is completed with the topic of the session's last turn;
// one that only names other pages ("What about bzip2?") is the earlier
// turn asked of them, and one that asks to undo what the earlier turn did
// ("and how do I undo that?") is that turn asked with its word's opposite.
// Questions of several parts (parts.go) are answered part by part, each
// part borrowing what it leaves to its siblings; an opening sentence that
// says what the user did or has ("I resized the volume.",
// situation.go) is no task of its own but what the question after it
// borrows. A question naming one of the workspace's libraries
// (libscope.go) is answered from that library before another's.
package vm
