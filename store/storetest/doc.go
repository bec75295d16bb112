// Package storetest reads a knowledge base file whole, for tests that
// compare its content before and after an operation (a compaction, say),
// and garbles a plugin's namespace, for tests of an index's repair.
package storetest
