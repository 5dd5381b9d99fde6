package gitdiff

import "testing"

func TestHunk(t *testing.T) {
	for _, c := range []struct {
		line       string
		a, b, c, d int
		ok         bool
	}{
		{"@@ -10,3 +10,4 @@ func A() {", 10, 3, 10, 4, true},
		{"@@ -40 +41,0 @@", 40, 1, 41, 0, true},
		{"@@ -0,0 +1,3 @@", 0, 0, 1, 3, true},
		{"@@ -z +1 @@", 0, 0, 0, 0, false},
		{"@@ -1 +2", 0, 0, 0, 0, false},
		{"@@ -1,-2 +2 @@", 0, 0, 0, 0, false},
		{"@@@ -1 -1 +1 @@@", 0, 0, 0, 0, false},
	} {
		a, b, cc, d, ok := Hunk(c.line)
		if a != c.a || b != c.b || cc != c.c || d != c.d || ok != c.ok {
			t.Errorf("Hunk(%q) = %d %d %d %d %v, want %d %d %d %d %v", c.line, a, b, cc, d, ok, c.a, c.b, c.c, c.d, c.ok)
		}
	}
}

func TestPath(t *testing.T) {
	for _, c := range []struct{ in, prefix, want string }{
		{"a/x.go", "a/", "x.go"},
		{"b/x.go", "a/", "b/x.go"},
		{"/dev/null", "a/", ""},
		{"x.go\t2024-01-01 10:00:00", "a/", "x.go"},
		{"b/a b.go\t", "b/", "a b.go"},
		{`"b/caf\303\251.go"`, "b/", "café.go"},
		{`"b/broken`, "b/", `"b/broken`},
	} {
		if got := Path(c.in, c.prefix); got != c.want {
			t.Errorf("Path(%q, %q) = %q, want %q", c.in, c.prefix, got, c.want)
		}
	}
}
