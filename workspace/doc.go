// Package workspace wires an open workspace together, the one place that
// does: it loads the configuration once (the embedded defaults, the user's
// folder, the workspace's .mrpvm/ files), builds the LLM bridge once from
// it, builds the plugin catalog from that same configuration, opens the
// knowledge base with the kb-plugins as its ingest hooks, and hands the
// result to the VM. The command line, the language server, the MCP server,
// evaluation and the tests open workspaces through it; the user-folder
// setting reaches it already decoded (config.UserFolder).
package workspace
