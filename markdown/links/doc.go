// Package links is the link index of a Markdown workspace: every file's
// headings (with GitHub-style anchors) and links (inline, reference-style
// definitions and [[wiki]] links with #anchors and |aliases), with their
// positions in LSP terms (0-based lines, UTF-16 columns), and the questions
// a language server asks of it: what a link points at, who links to a file
// or a heading, which links are broken, and the edits that rename a heading
// or move a file without breaking the links to it. It never reads or
// resolves anything outside the workspace root.
package links
