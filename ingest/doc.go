// Package ingest keeps a workspace's knowledge base in step with its
// Markdown files. A run plans (walks the workspace and compares each
// file's size and mtime with the stored stat), parses the new and changed
// files on every core, commits each source with its KUs and the ingest
// hooks' index changes in one transaction, and cleans up the sources whose
// file went away. The KB type is the open knowledge base of one workspace:
// its hooks, built-in sources, reader and walk rules are given when it is
// opened (Open) and fixed from then on.
package ingest
