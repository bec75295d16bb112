// Command evalreport runs the question sets of test/evaluation against
// fresh knowledge bases and prints the figures as Markdown.
//
//	go run ./test/evaluation/cmd/evalreport -set dev -misses
//
// Run it from the repository (it finds go.mod upwards). The tldr workspace
// needs the tldr-pages archive beside the checkout
// (../shared/data/tldr-pages.tar.gz) or MRPVM_TLDR_ARCHIVE; without it that
// workspace is skipped.
package main
