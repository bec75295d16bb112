// Package sdk is the generic glue shared by mrpvm plugins: payload and status
// types, errors, the LLM and store interfaces, and text utilities. It holds no
// retrieval algorithm and imports nothing from engine/, lsp/, config/ or bbolt.
package plugin

// KV is a plugin-private key/value namespace inside one store transaction.
// Keys sort bytewise. Slices returned by Get and passed to callbacks are valid
// only until the transaction ends; copy them to keep them.
type KV interface {
	// Get returns the value for key, or nil when absent.
	Get(key []byte) []byte
	// Put stores value under key. It fails in a read-only transaction.
	Put(key, value []byte) error
	// Delete removes key; deleting an absent key is not an error.
	Delete(key []byte) error
	// Scan calls fn for every key with the given prefix, in key order,
	// starting at the first key >= start (start may be nil). Returning
	// ErrStopScan from fn ends the scan without error.
	Scan(prefix, start []byte, fn func(key, value []byte) error) error
	// Writable reports whether Put and Delete are allowed.
	Writable() bool
}

// Store gives a plugin transactional access to its private namespace.
type Store interface {
	// View runs fn in a read-only transaction.
	View(fn func(KV) error) error
	// Update runs fn in a read-write transaction, committed when fn returns nil.
	Update(fn func(KV) error) error
}

// ErrStopScan ends a KV.Scan early without error.
var ErrStopScan = stopScan{}

type stopScan struct{}

func (stopScan) Error() string { return "stop scan" }
