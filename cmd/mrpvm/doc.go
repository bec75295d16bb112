// Command mrpvm turns a workspace's Markdown into a knowledge base of
// Knowledge Units and answers questions about it through a typed plugin VM.
//
// Subcommands live in their own files of this package and add themselves to
// the root command in init().
package main
