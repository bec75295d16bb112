// Package bindec reads the compact binary records the knowledge store
// keeps (the KU codec, the BM25 index records): unsigned and signed
// varints, single bytes, byte strings and length-prefixed strings from a
// byte slice. A read past the end or a malformed number marks the decoder
// bad, empties what is left and yields zero values, so that a caller
// decodes a whole record and checks once at the end.
package bindec
