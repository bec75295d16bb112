// Package tldr checks that how-to questions about the tldr-pages workspace
// (pages/common, 4,612 real Markdown files) are answered from the right page.
package tldr
