package main

import (
	"strings"
	"testing"
)

// TestUsageMistakes: a mistyped command or flag gets one error line with
// the nearest name, not the error twice and the whole help.
func TestUsageMistakes(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"qurey", "x.snap", "task"}, `did you mean "query"?`},
		{[]string{"biuld"}, `did you mean "build"?`},
		{[]string{"query", "--limt", "3", "x.snap", "task"}, "unknown flag --limt; did you mean --limit?"},
		{[]string{"build", "--rpeo", ".", "x.snap"}, "did you mean --repo?"},
		{[]string{"query", "--zzzzzz", "x.snap", "task"}, "unknown flag --zzzzzz\n"},
	} {
		code, out, errs := knowing(t, "", c.args...)
		if code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, %q; want %q", c.args, code, errs, c.want)
		}
		if strings.Count(errs, "unknown") != 1 || strings.Contains(errs, "Flags:") || out != "" {
			t.Errorf("%v: want one error line and no help, got %q", c.args, errs)
		}
	}
	if code, _, errs := knowing(t, "", "query", "--help"); code != 0 || !strings.Contains(errs, "Usage: knowing query") || !strings.Contains(errs, "-limit") {
		t.Errorf("query --help: exit %d, %q", code, errs)
	}
}
