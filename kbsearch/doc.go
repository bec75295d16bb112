// Package kbsearch ranks a knowledge base with one kb-plugin, outside the
// VM loop: it checks the request, finds the plugin, rebuilds the plugin's
// index once from the stored KUs when the plugin reports it corrupt, and
// answers single queries and batches. mrpvm search, the language server's
// mrpvm.search command and the MCP server's search tool all search through
// it, so they accept the same requests and fail with the same codes.
package kbsearch
