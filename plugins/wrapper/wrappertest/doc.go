// Package wrappertest builds the test wrapper program and installs it into
// wrapper folders, for tests that need real subprocess wrappers.
package wrappertest
