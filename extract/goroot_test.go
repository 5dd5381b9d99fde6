package extract

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// goRootSrc is $(go env GOROOT)/src: the Go standard library's source,
// which every machine with Go has, for tests on real code.
func goRootSrc(tb testing.TB) string {
	tb.Helper()
	goroot := runtime.GOROOT()
	if out, err := exec.Command("go", "env", "GOROOT").Output(); err == nil {
		goroot = strings.TrimSpace(string(out))
	}
	return filepath.Join(goroot, "src")
}

// GoRootSrc is goRootSrc for the package's external tests.
var GoRootSrc = goRootSrc

// SetScribbleSource turns scribbleSource on or off, for external tests.
func SetScribbleSource(on bool) { scribbleSource = on }
