package extract

import (
	"strings"
	"testing"
)

func TestStartsUpper(t *testing.T) {
	for s, want := range map[string]bool{"Foo": true, "foo": false, "": false, "_Foo": false, "Élan": false} {
		if StartsUpper(s) != want {
			t.Errorf("StartsUpper(%q) = %v", s, !want)
		}
	}
}

func TestOneLineAndCap(t *testing.T) {
	src := []byte("  public void\n\tf(int a,\n   int b) { }")
	end := uint32(strings.Index(string(src), " {"))
	if got := OneLine(src, 2, end); got != "public void f(int a, int b)" {
		t.Errorf("OneLine = %q", got)
	}
	if OneLine(src, 5, 4) != "" || OneLine(src, 0, uint32(len(src)+1)) != "" {
		t.Error("OneLine of a span outside src is not empty")
	}
	long := strings.Repeat("x", 300)
	if got := CapSignature(long); got != long[:240]+"…" {
		t.Errorf("CapSignature of 300 bytes is %d bytes", len(got))
	}
	if got := CapSignature(long[:240]); got != long[:240] {
		t.Error("CapSignature cut a signature of 240 bytes")
	}
}
