// Package kbsearch is the one search path over the knowledge base's
// kb-plugins. Repair is the one repair-and-retry rule: when a kb-plugin
// reports its index corrupt, the index is rebuilt once from the stored KUs
// and the call made again; it takes a Repairer (ingest.KB), so that the
// VM's kb stage, hover and the search commands share it without importing
// each other. Searcher ranks with one kb-plugin outside the VM loop: it
// checks the request, finds the plugin and answers single queries and
// batches; mrpvm search, the language server's mrpvm.search command and
// the MCP server's search tool all search through it, so they accept the
// same requests and fail with the same codes. HoverPlugin chooses the
// kb-plugin of the editors' hover and workspace symbols from the
// configuration (engine.json's hoverPlugin).
package kbsearch
