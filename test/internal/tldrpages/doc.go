// Package tldrpages locates the shared tldr-pages archive and unpacks its
// pages into a temporary workspace, for the tests and the evaluation runner
// that ask questions of tldr-pages.
package tldrpages
