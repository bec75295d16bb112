// Package e2e drives the real mrpvm binary as a user would: subprocesses,
// real files, real bbolt databases.
package e2e
