//go:build unix

package extract

import (
	"syscall"
	"time"
)

// ProcessCPU is the CPU time (user and system) the process has used so
// far, for phase timings; 0 where the platform cannot tell.
func ProcessCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
