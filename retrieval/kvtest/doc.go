// Package kvtest provides an in-memory plugin.KV for the tests of the retrieval
// cores.
package kvtest
