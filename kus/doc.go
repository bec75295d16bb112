// Package kus holds the Knowledge Unit (KU) model, the Markdown reader that
// turns a source file into a KU hierarchy, the `## Context Unit` block form
// used by plugin.kus.md files, and SOP Lang Control.
package kus
