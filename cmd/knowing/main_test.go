package main

import (
	"os"
	"testing"
)

// TestMain keeps the stamps of checked snapshots (see
// snapshot.OpenChecked) in a folder of the test run's own, not in the
// user's cache folder.
func TestMain(m *testing.M) {
	// The test binary stands in for knowing when a test runs it as a
	// command (the MCP server over stdio).
	if os.Getenv("KNOWING_RUN_AS_MAIN") == "1" {
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	dir, err := os.MkdirTemp("", "knowing-test-cache-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CACHE_HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
