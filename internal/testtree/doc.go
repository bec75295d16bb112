// Package testtree lays out files and folders for tests: a txtar archive
// (a literal or a testdata file) as a new folder, a set of files below a
// folder, or one file with its parent folders. It is the one way the tests
// of every package write a workspace.
package testtree
