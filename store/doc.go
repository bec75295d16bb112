// Package store is the knowledge base file: a bbolt database holding the
// source records, the Knowledge Units, the small stat bucket the ingest
// check reads, the stored counters and one private namespace per plugin
// (plus the namespaces the built-in kb-plugins share). It owns opening and
// locking the file, detecting and reporting damage (a stable kb_corrupt
// error, never a crash), snapshots and compaction. It knows nothing of
// workspaces or ingest: package ingest writes through Store.Update and the
// Tx methods.
package store
