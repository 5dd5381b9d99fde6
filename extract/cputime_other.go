//go:build !unix

package extract

import "time"

// ProcessCPU is the CPU time the process has used so far; this platform
// cannot tell, so it is 0.
func ProcessCPU() time.Duration { return 0 }
