// Package suite02 runs the original MRP-VM suite02, a story that needs a
// model to reason about, on the offline symbolic path.
package suite02
