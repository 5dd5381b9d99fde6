//go:build !unix

package snapshot

import "os"

// fileIdentity names the file behind st; without inodes, size and
// modification time (in the stamp beside it) stand for it.
func fileIdentity(st os.FileInfo) string { return "-" }
