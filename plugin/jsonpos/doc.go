// Package jsonpos maps positions in a JSON text: byte offsets to 1-based
// line and column, and every object member and array element to the JSON
// Pointer (RFC 6901) that names it. Loaders use it to report validation
// problems as file:line:col.
package jsonpos
