package csharp

import (
	"strings"

	"github.com/knowing-dev/knowing/extract"
)

// Doc comments: the comments right above a declaration, with the XML of
// /// doc comments reduced to its text.

// docAt is the doc comment of declaration n: the comments right above it
// among its named siblings.
func (x *extractor) docAt(n int32) string {
	line := x.Line(n)
	top, count := n, 0 // the first comment taken, how many
	for {
		p := x.PrevNamed(top)
		if p < 0 || x.Kind(p) != "comment" || x.EndLine(p)+1 < line {
			break
		}
		// A comment trailing the previous declaration's last line.
		if pp := x.PrevNamed(p); pp >= 0 && x.Kind(pp) != "comment" && x.EndLine(pp) == x.Line(p) {
			break
		}
		line = x.Line(p)
		top = p
		count++
		if count > 80 {
			break
		}
	}
	if count == 0 {
		return ""
	}
	parts := make([]string, 0, count)
	for c := top; c != n; c = x.NextNamed(c) {
		parts = append(parts, x.Text(c))
	}
	return cleanDoc(parts)
}

// docBefore finds the doc comment of a node outside a declaration list
// (a local function) through its previous siblings.
func (x *extractor) docBefore(n int32) string {
	var parts []string
	line := x.Line(n)
	for p := x.N[n].Prev; p >= 0 && x.Kind(p) == "comment" && x.EndLine(p)+1 >= line; p = x.N[p].Prev {
		line = x.Line(p)
		parts = append(parts, x.Text(p))
		if len(parts) > 40 {
			break
		}
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return cleanDoc(parts)
}

// cleanDoc strips comment markers and, from XML doc comments, the tags:
// <see cref="T"/> becomes T, <param name="x"> becomes "x: ".
func cleanDoc(parts []string) string {
	if len(parts) == 0 {
		return ""
	}
	xml := false
	var lines []string
	for _, p := range parts {
		p = strings.TrimSpace(p)
		switch {
		case strings.HasPrefix(p, "///"):
			xml = true
			lines = append(lines, strings.TrimPrefix(p, "///"))
		case strings.HasPrefix(p, "/*"):
			if strings.HasPrefix(p, "/**") {
				xml = true
			}
			lines = append(lines, extract.CleanComment(p, ""))
		case strings.HasPrefix(p, "//"):
			lines = append(lines, strings.TrimPrefix(p, "//"))
		default:
			lines = append(lines, p)
		}
	}
	s := strings.Join(lines, "\n")
	if xml && strings.Contains(s, "<") {
		s = stripXML(s)
	}
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.Join(strings.Fields(l), " "); l != "" {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

var entities = strings.NewReplacer("&lt;", "<", "&gt;", ">", "&quot;", `"`, "&apos;", "'", "&amp;", "&")

func stripXML(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != '<' {
			b.WriteByte(s[i])
			i++
			continue
		}
		j := strings.IndexByte(s[i:], '>')
		if j < 0 {
			b.WriteString(s[i:])
			break
		}
		b.WriteString(tagText(s[i+1 : i+j]))
		i += j + 1
	}
	return entities.Replace(b.String())
}

// tagText is what an XML doc tag stands for in plain text.
func tagText(tag string) string {
	closing := strings.HasPrefix(tag, "/")
	tag = strings.TrimSuffix(strings.TrimPrefix(tag, "/"), "/")
	name, attrs, _ := strings.Cut(strings.TrimSpace(tag), " ")
	val := ""
	for _, a := range []string{"cref=", "name=", "langword=", "href="} {
		if i := strings.Index(attrs, a); i >= 0 {
			v := attrs[i+len(a):]
			if len(v) > 0 && (v[0] == '"' || v[0] == '\'') {
				q := v[0]
				v = v[1:]
				if k := strings.IndexByte(v, q); k >= 0 {
					v = v[:k]
				}
			}
			val = v
			break
		}
	}
	switch strings.ToLower(name) {
	case "see", "seealso":
		if closing {
			return ""
		}
		if i := strings.IndexByte(val, ':'); i >= 0 && i < 2 {
			val = val[i+1:]
		}
		if i := strings.IndexAny(val, "({"); i >= 0 {
			val = val[:i]
		}
		return extract.LastPart(val)
	case "paramref", "typeparamref":
		return val
	case "param", "typeparam":
		if closing {
			return "\n"
		}
		return "\n" + val + ": "
	case "returns":
		if closing {
			return "\n"
		}
		return "\nReturns: "
	case "exception":
		if closing {
			return "\n"
		}
		return "\nThrows " + extract.LastPart(strings.TrimPrefix(val, "T:")) + ": "
	case "summary", "remarks", "para", "br", "example", "value", "list", "item", "code":
		return "\n"
	}
	return ""
}
