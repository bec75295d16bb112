// Package storetest reads a knowledge base file whole, for tests that
// compare its content before and after an operation (a compaction, say).
package storetest
