// Package testtree writes txtar archives out as folders for tests: the one
// way a test of any package lays out a workspace from a literal or from a
// testdata file.
package testtree
