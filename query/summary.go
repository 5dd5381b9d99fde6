package query

import (
	"strings"
	"unicode/utf8"
)

// SummaryMax is the longest doc summary a result carries, in bytes.
const SummaryMax = 240

// minSentence is the shortest opening a cut summary keeps whole.
const minSentence = 40

// Summary returns the opening of a doc comment: its first paragraph on
// one line, without the tag lines that open some comments (@template,
// @experimental), cut at the last sentence end within SummaryMax bytes,
// else at a word boundary with "…". Tag and field lists that follow the
// prose (@param, :param x:, Returns:, # Examples) end the paragraph.
func Summary(doc string) string {
	var b strings.Builder
	started := false
	for line := range strings.Lines(doc) {
		l := strings.TrimSpace(line)
		if l == "" {
			if started {
				break
			}
			continue
		}
		if isDocTag(l) {
			if started {
				break
			}
			continue // a tag before the prose
		}
		if started {
			b.WriteByte(' ')
		}
		started = true
		b.WriteString(strings.Join(strings.Fields(l), " "))
		if b.Len() > 2*SummaryMax {
			break
		}
	}
	return clipSummary(b.String())
}

// isDocTag reports a line that starts a tag or a field list rather than
// prose.
func isDocTag(l string) bool {
	switch l[0] {
	case '@', '#':
		return true
	case ':':
		return strings.HasPrefix(l, ":param") || strings.HasPrefix(l, ":return") ||
			strings.HasPrefix(l, ":raise") || strings.HasPrefix(l, ":type") || strings.HasPrefix(l, ":rtype")
	case '.':
		return strings.HasPrefix(l, "..") // a reStructuredText directive
	}
	for _, p := range [...]string{"Returns:", "Args:", "Arguments:", "Parameters:", "Raises:", "Example:", "Examples:"} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	return false
}

// clipSummary cuts s to SummaryMax bytes: after the last full sentence
// that ends past minSentence bytes, else at the last space, marked "…".
func clipSummary(s string) string {
	if len(s) <= SummaryMax {
		return s
	}
	cut := s[:SummaryMax]
	for cut != "" && !utf8.ValidString(cut) {
		cut = cut[:len(cut)-1]
	}
	if i := strings.LastIndex(cut, ". "); i >= minSentence {
		return cut[:i+1]
	}
	if i := strings.LastIndexByte(cut, ' '); i >= SummaryMax/3 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:") + "…"
}
