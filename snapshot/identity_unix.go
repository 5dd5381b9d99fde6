//go:build unix

package snapshot

import (
	"fmt"
	"os"
	"syscall"
)

// fileIdentity names the file behind st: its device and inode.
func fileIdentity(st os.FileInfo) string {
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		return fmt.Sprintf("%d:%d", sys.Dev, sys.Ino)
	}
	return "-"
}
