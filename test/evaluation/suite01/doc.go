// Package suite01 runs the original MRP-VM suite01, a story that needs a
// model to reason about, on the offline symbolic path.
package suite01
