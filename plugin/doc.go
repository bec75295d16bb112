// Package sdk is the generic glue shared by mrpvm plugins: payload and status
// types, errors, the LLM and store interfaces, and text utilities. It holds no
// retrieval algorithm and imports nothing from engine/, lsp/, config/ or bbolt.
package plugin
