// Package lsp drives `mrpvm lsp` end to end: a fake editor talks to the
// server over a pipe with go.lsp.dev/jsonrpc2, as VS Code or Neovim would.
package lsp
