package engine

import (
	"bytes"
	"fmt"
	"runtime/debug"
)

// panicInBolt reports whether the panic being recovered was raised inside
// bbolt (its page decoders and assertions) rather than in the code a
// transaction runs. It must be called from the deferred function that
// recovers: until that returns, the goroutine's stack still holds the
// frames of the panic, and the first one after the runtime's own is where
// it was raised.
func panicInBolt() bool {
	st := debug.Stack()
	i := bytes.Index(st, []byte("\npanic("))
	if i < 0 {
		return false
	}
	lines := bytes.Split(st[i+1:], []byte("\n"))
	for _, line := range lines[1:] {
		if len(line) == 0 || line[0] == '\t' || bytes.HasPrefix(line, []byte("runtime.")) {
			continue
		}
		return bytes.HasPrefix(line, []byte("go.etcd.io/bbolt"))
	}
	return false
}

// hookPanic is the error of a hook that panicked inside its transaction: a
// panic raised by bbolt while the hook read its index is a damaged file
// (CodeCorrupt, with the rebuild hint); any other is the hook's own failure.
func hookPanic(path, hook string, r any, inBolt bool) error {
	if inBolt {
		return &StoreError{Code: CodeCorrupt, Path: path, Err: fmt.Errorf("%s: reading a page failed: %v", hook, r)}
	}
	return fmt.Errorf("panic: %v", r)
}

// dbPath is the knowledge base file ev's transaction writes.
func (ev *SourceEvent) dbPath() string {
	if kv, ok := ev.KV.(boltKV); ok {
		return kv.b.Tx().DB().Path()
	}
	return ""
}
