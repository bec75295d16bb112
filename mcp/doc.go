// Package mcp serves an open mrpvm workspace over the Model Context
// Protocol, so that AI coding agents can use its knowledge base: the tools
// ask (the VM loop's cited answer), search (one kb-plugin's ranking),
// trace (a past request's trace) and ingest (bring the knowledge base up
// to date), and the resources mrpvm://ku/<id> (one Knowledge Unit) and
// mrpvm://source/<path> (an ingested source file of the workspace, read
// inside the workspace root under the knowledge base's size cap). It is
// glue over vm and the kb-plugins' search; the caller opens the
// workspace the way the command line does, so a workspace can neither
// widen the wrapper allowlist nor redirect the model endpoint. It uses
// the official Go SDK (github.com/modelcontextprotocol/go-sdk).
package mcp
