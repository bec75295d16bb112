// Package mrpvmbin builds the mrpvm command from this module's source, for
// the tests and measurement programs that run it as a process.
package mrpvmbin
