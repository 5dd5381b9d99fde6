//go:build cgo

package main

// The languages knowing parses register themselves with extract.
import _ "github.com/knowing-dev/knowing/extract/langs"
