package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// This file runs the command line in tests: the root command in process
// with the global flags reset, and the checks every command shares.

// runCLI runs the root command in-process and returns what it printed on
// standard output.
func runCLI(t *testing.T, args ...string) (string, error) {
	t.Helper()
	out, err := os.CreateTemp(t.TempDir(), "stdout")
	if err != nil {
		t.Fatal(err)
	}
	old := os.Stdout
	os.Stdout = out
	flags = globalFlags{workspace: "."}
	rootCmd.SetArgs(args)
	runErr := rootCmd.Execute()
	os.Stdout = old
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out.Name())
	if err != nil {
		t.Fatal(err)
	}
	return string(b), runErr
}

// runCLIWithin is runCLI failing the test when the command does not end
// within a generous bound (the failure guarded against is hanging).
func runCLIWithin(t *testing.T, args ...string) (string, error) {
	t.Helper()
	type res struct {
		out string
		err error
	}
	ch := make(chan res, 1)
	go func() { out, err := runCLI(t, args...); ch <- res{out, err} }()
	select {
	case r := <-ch:
		return r.out, r.err
	case <-time.After(30 * time.Second):
		t.Fatalf("mrpvm %s hangs", strings.Join(args, " "))
		return "", nil
	}
}

// TestStartProfileBadPath: a profile file that cannot be created is an
// error, and the stop function returned with it can still be called.
func TestStartProfileBadPath(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "missing", "cpu.out")
	for _, set := range []func(){
		func() { flags = globalFlags{cpuProfile: bad} },
		func() { flags = globalFlags{traceFile: bad} },
	} {
		set()
		stop, err := startProfile()
		if err == nil || stop == nil {
			t.Fatalf("startProfile with %q: stop %v, err %v; want an error and a stop function", bad, stop != nil, err)
		}
		stop()
	}
	flags = globalFlags{workspace: "."}
}
