// Package lspclient is the one Language Server Protocol client of the
// tests and the measurement program in test/bench/lsp. It talks to the
// server over a byte stream, as an editor does, in one of two modes:
// Start runs the real `mrpvm lsp` binary as a subprocess and speaks over its
// standard input and output; StartInProcess runs lsp.Serve in the test's
// process over an in-memory pipe (faster to start, and the server's
// lsp.Options are the test's to set). Either way it records every
// notification with its arrival time and answers the server's requests
// (progress tokens, registrations, configuration) the way a capable editor
// would.
package lspclient
