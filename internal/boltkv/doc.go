// Package boltkv adapts bbolt buckets to plugin.KV: the one adapter the
// knowledge base file (store) and the IR evaluation harness
// (retrieval/ireval) hand to plugins, so both scan, write and refuse
// writes alike.
package boltkv
