package ruby

import (
	"strings"

	"github.com/knowing-dev/knowing/extract"
)

// Comments and what they document: doc comments, signatures, and the
// types YARD tags and Sorbet sigs give a method.

// sorbetSig is a Sorbet sig, read for the def that follows it.
type sorbetSig struct {
	params  map[string]string
	returns string
	line    uint32
	doc     string // the comment above the sig, which documents the def
}

// comment adds comment n to the run that documents what follows; a trailing
// comment or a directive documents nothing.
func (x *extractor) comment(n int32) {
	line, end := x.Line(n), x.EndLine(n)
	txt := x.Text(n)
	if x.docEnd == 0 || x.docEnd+1 < line || x.trailing(n) {
		x.docParts = x.docParts[:0]
	}
	x.docEnd = end
	if x.trailing(n) {
		// end # class Foo: a remark on the code before it, not a doc
		// comment of what follows.
		return
	}
	if strings.HasPrefix(txt, "=begin") {
		txt = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(txt, "=begin"), "=end"))
		x.docParts = append(x.docParts, txt)
		return
	}
	body := strings.TrimSpace(strings.TrimLeft(txt, "#"))
	if isDirective(body) {
		return
	}
	x.docParts = append(x.docParts, body)
}

// trailing reports a comment that follows code on its line.
func (x *extractor) trailing(n int32) bool {
	for i := int(x.N[n].Start) - 1; i >= 0 && i < len(x.Src); i-- {
		switch x.Src[i] {
		case '\n':
			return false
		case ' ', '\t', '\r':
		default:
			return true
		}
	}
	return false
}

// isDirective reports magic comments and linter directives, which are not
// documentation.
func isDirective(s string) bool {
	for _, p := range []string{"frozen_string_literal:", "encoding:", "-*-", "coding:", "warn_indent:",
		"typed:", "rubocop:", "shareable_constant_value:", "@!", ":nodoc:", "standard:", "sorbet", "!/"} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// doc is the comment block ending on the line above line.
func (x *extractor) doc(line uint32) string {
	if x.docEnd == 0 || x.docEnd+1 != line || len(x.docParts) == 0 {
		return ""
	}
	s := strings.TrimSpace(strings.Join(x.docParts, "\n"))
	if len(s) > 4000 {
		s = s[:4000]
	}
	return s
}

// signature is the text of n from its start to end, on one line.
func (x *extractor) signature(n int32, end uint32) string {
	s := x.N[n].Start
	if end > uint32(len(x.Src)) || end < s {
		end = x.N[n].End
	}
	if end > uint32(len(x.Src)) {
		return ""
	}
	sig := strings.Join(strings.Fields(string(x.Src[s:end])), " ")
	if len(sig) > 240 {
		sig = sig[:240] + "…"
	}
	return sig
}

// yardTags are the types a doc comment's YARD tags name.
type yardTags struct {
	returns string
	params  map[string]string
	types   []string
}

// parseYard reads "@return [Type]" and "@param name [Type]" from a doc
// comment.
func parseYard(doc string) yardTags {
	var y yardTags
	if !strings.Contains(doc, "@") {
		return y
	}
	for _, line := range strings.Split(doc, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "@return"):
			if t := yardType(line); t != "" && y.returns == "" {
				y.returns = t
				y.types = append(y.types, t)
			}
		case strings.HasPrefix(line, "@param"):
			rest := strings.TrimSpace(strings.TrimPrefix(line, "@param"))
			t := yardType(rest)
			name := rest
			if strings.HasPrefix(rest, "[") {
				if i := strings.IndexByte(rest, ']'); i >= 0 {
					name = strings.TrimSpace(rest[i+1:])
				}
			}
			if f := strings.Fields(name); len(f) > 0 {
				name = f[0]
			}
			if t != "" && name != "" {
				if y.params == nil {
					y.params = map[string]string{}
				}
				y.params[name] = t
				y.types = append(y.types, t)
			}
		}
	}
	return y
}

// yardType is the first type named in the brackets of a YARD tag, when it
// is a constant: "[Jekyll::Site, nil]" → "Jekyll.Site".
func yardType(s string) string {
	i := strings.IndexByte(s, '[')
	if i < 0 {
		return ""
	}
	j := strings.IndexByte(s[i:], ']')
	if j < 0 {
		return ""
	}
	inner := s[i+1 : i+j]
	if k := strings.IndexAny(inner, ",|<({"); k >= 0 {
		inner = inner[:k]
	}
	return typeText(inner)
}

// typeText turns a written constant path into dotted form, or "".
func typeText(s string) string {
	s = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s), "::"))
	if s == "" || s[0] < 'A' || s[0] > 'Z' {
		return ""
	}
	s = strings.ReplaceAll(s, "::", ".")
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '.' || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return ""
		}
	}
	if coreConstants[extract.FirstName(s)] || s == "Boolean" {
		return ""
	}
	return s
}

// takeSig returns the Sorbet sig read before line, once.
func (x *extractor) takeSig(line uint32) *sorbetSig {
	s := x.sig
	x.sig = nil
	if s == nil || s.line >= line {
		return nil
	}
	return s
}

// sorbetSig reads sig { params(a: Foo).returns(Bar) } for the next def.
func (x *extractor) sorbetSig(n, blk int32) {
	s := &sorbetSig{params: map[string]string{}, line: x.Line(n), doc: x.doc(x.Line(n))}
	var walk func(n int32, depth int)
	walk = func(n int32, depth int) {
		if depth > 12 || x.Code(n) != kCall {
			for c := x.FirstNamed(n); c >= 0; c = x.NextNamed(c) {
				if depth <= 12 {
					walk(c, depth+1)
				}
			}
			return
		}
		if m := x.Field(n, fMethod); m >= 0 {
			switch x.Text(m) {
			case "params":
				for _, a := range x.argNodes(x.Field(n, fArguments)) {
					if x.Code(a) != kPair {
						continue
					}
					k, v := x.Field(a, fKey), x.Field(a, fValue)
					if k >= 0 && v >= 0 {
						s.params[strings.TrimSuffix(x.Text(k), ":")] = x.sorbetType(v)
					}
				}
			case "returns":
				if as := x.argNodes(x.Field(n, fArguments)); len(as) == 1 {
					s.returns = x.sorbetType(as[0])
				}
			}
		}
		if r := x.Field(n, fReceiver); r >= 0 {
			walk(r, depth+1)
		}
	}
	for c := x.FirstNamed(blk); c >= 0; c = x.NextNamed(c) {
		walk(c, 0)
	}
	x.sig = s
}

// sorbetType reads Foo, Foo::Bar and T.nilable(Foo).
func (x *extractor) sorbetType(n int32) string {
	if p := x.constPath(n); p != "" {
		return typeText(p)
	}
	if x.Code(n) == kCall {
		if m := x.Field(n, fMethod); m >= 0 && x.Text(m) == "nilable" {
			if as := x.argNodes(x.Field(n, fArguments)); len(as) == 1 {
				return x.sorbetType(as[0])
			}
		}
	}
	return ""
}
