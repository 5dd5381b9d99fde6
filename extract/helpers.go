package extract

import (
	"strings"

	"github.com/knowing-dev/knowing/snapshot"
)

// Helpers every language extractor shares. They must not assume any one
// grammar.

func isCommentKind(k string) bool {
	return k == "comment" || k == "line_comment" || k == "block_comment"
}

// joinComments joins comment lines collected bottom-up, in source order.
func joinComments(parts []string) string {
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return strings.TrimSpace(strings.Join(parts, "\n"))
}

// CleanComment strips comment markers.
func CleanComment(s, marker string) string {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "/*") {
		s = strings.TrimSuffix(strings.TrimPrefix(s, "/*"), "*/")
		var out []string
		for _, l := range strings.Split(s, "\n") {
			out = append(out, strings.TrimPrefix(strings.TrimSpace(l), "*"))
		}
		return strings.TrimSpace(strings.Join(out, "\n"))
	}
	for _, m := range []string{marker, "///", "//!", "//", "#"} {
		if m != "" && strings.HasPrefix(s, m) {
			return strings.TrimSpace(strings.TrimPrefix(s, m))
		}
	}
	return s
}

// signatureText is src[s:end] on one line, capped.
func signatureText(src []byte, s, end uint) string {
	if end > uint(len(src)) || s > end {
		return ""
	}
	sig := strings.Join(strings.Fields(string(src[s:end])), " ")
	if len(sig) > 240 {
		sig = sig[:240] + "…"
	}
	return sig
}

// ExportedFlag is FlagExported for names starting with an upper-case letter.
func ExportedFlag(name string) snapshot.Flags {
	if name != "" && name[0] >= 'A' && name[0] <= 'Z' {
		return snapshot.FlagExported
	}
	return 0
}

// FirstLine is the first line of s, white space folded, capped.
func FirstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}
