// Package testtree lays out files and folders for tests: a txtar archive
// (a literal or a testdata file) as a new folder, a set of files below a
// folder, or one file with its parent folders; and the special files a
// reader must refuse: symbolic links (to /dev/zero among others) and, on
// Unix, named pipes. It is the one way the tests of every package write a
// workspace; BenchWorkspace names the real one a benchmark reads.
package testtree
