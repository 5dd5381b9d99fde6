//go:build unix

package snapshot

import (
	"os"
	"syscall"
)

// lockTemp marks a temporary file as being written: a build holds the lock
// until it renames or removes the file, and the kernel lets it go when the
// process dies, however it dies.
func lockTemp(f *os.File) {
	_ = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
}

// abandoned reports whether no live process holds the temporary file at
// path (taking the lock proves it); the caller then removes it.
func abandoned(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil
}
