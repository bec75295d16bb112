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
//
// Where things are. server.go holds the Server type, Serve and the dispatch
// (the tables of request and notification handlers: a new method is one row
// there and one file); lifecycle.go initialize, initialized, shutdown and
// exit; settings.go the client's settings; folders.go the workspace folders
// and roots.go the roots found for loose files; client.go the calls to the
// client; docs.go text synchronisation and reading documents. Each feature
// is a file named for its method: hover.go (with hoverterm.go,
// hovercache.go, hovercontent.go), symbols.go, completion.go and
// linkcompletion.go, references.go, rename.go, codelens.go, documentlink.go,
// folding.go, codeaction.go, commands.go (the mrpvm.* commands: ask.go,
// search.go, ingestcmd.go, snapshots.go and the small ones), diagnostics.go.
// The answers about one Markdown document share linkdoc.go (the document's
// link index entry and the handler shape); links.go keeps each folder's link
// index current; folder.go, reload.go, partial.go and watch.go keep each
// folder's knowledge base open, current and reloaded.
package lsp
