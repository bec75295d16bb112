// Package lsp is the mrpvm language server: LSP over a byte stream (stdio
// in `mrpvm lsp`), one knowledge base per workspace folder kept current in
// the background, hover and symbols from Knowledge Units, diagnostics for
// plugin files, and the mrpvm.* commands that reach the plugin VM.
//
// Concurrency model. jsonrpc2 runs a handler inline on its read loop unless
// the handler releases itself with jsonrpc2.Async. Notifications (text
// synchronisation, watched files, folders) are handled inline, so they are
// applied in wire order and are always visible to the requests that follow
// them; they only update in-memory state and schedule background work.
// Every request except initialize and shutdown is released at once, so no
// request waits behind a long command. Calls to the client (progress
// tokens, registrations, configuration) are only made from goroutines,
// never from the read loop.
package lsp
