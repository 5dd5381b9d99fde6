package bm25

import (
	"math/rand/v2"
	"strings"
)

// corpus generates code-like documents: symbols grouped by file and package,
// names made of word parts drawn from a Zipf distribution over a vocabulary
// of a few thousand parts (a few dozen real, frequent programming words
// first, then synthetic ones).
type corpus struct {
	r     *rand.Rand
	zipf  *rand.Zipf
	parts []string
}

var commonParts = strings.Fields(`get set new user config parse string file
	read write handler request response error context server client node
	list map value key index search query token build test load save init
	data type name path http json cache item update delete create find
	open close start stop run event message buffer stream reader writer
	manager service store table row column field record format print log`)

func newCorpus(seed uint64, nparts int) *corpus {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	c := &corpus{r: r}
	seen := map[string]bool{}
	for _, p := range commonParts {
		if !seen[p] && len(c.parts) < nparts {
			seen[p] = true
			c.parts = append(c.parts, p)
		}
	}
	const cons, vows = "bcdfghjklmnprstvwz", "aeiou"
	for len(c.parts) < nparts {
		var sb strings.Builder
		for n := 1 + r.IntN(3); n > 0; n-- {
			sb.WriteByte(cons[r.IntN(len(cons))])
			sb.WriteByte(vows[r.IntN(len(vows))])
			if r.IntN(2) == 0 {
				sb.WriteByte(cons[r.IntN(len(cons))])
			}
		}
		if w := sb.String(); len(w) >= 3 && !seen[w] && !isStopWord(w) {
			seen[w] = true
			c.parts = append(c.parts, w)
		}
	}
	c.zipf = rand.NewZipf(r, 1.07, 2, uint64(nparts-1))
	return c
}

func (c *corpus) part() string { return c.parts[c.zipf.Uint64()] }

func title(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

func (c *corpus) camel(n int, upper bool) string {
	var sb strings.Builder
	for i := 0; i < n; i++ {
		p := c.part()
		if i > 0 || upper {
			p = title(p)
		}
		sb.WriteString(p)
	}
	return sb.String()
}

// docs returns n documents, about 25 per file and 20 files per package.
func (c *corpus) docs(n int) []Doc {
	r := c.r
	out := make([]Doc, 0, n)
	var pkg, dir, file, typ string
	for len(out) < n {
		if len(out)%500 == 0 {
			pkg = c.part()
			dir = pkg
			if r.IntN(2) == 0 {
				dir = c.part() + "/" + pkg
			}
		}
		if len(out)%25 == 0 {
			file = c.part()
			if r.IntN(2) == 0 {
				file += "_" + c.part()
			}
			typ = c.camel(1+r.IntN(2), true)
		}
		var d Doc
		var name, recv string
		switch r.IntN(4) {
		case 0:
			name = c.camel(1+r.IntN(2), true)
			d.Fields[FieldSignature] = "type " + name + " struct"
		default:
			name = c.camel(1+r.IntN(3), r.IntN(2) == 0)
			if r.IntN(2) == 0 {
				recv = typ
			}
			var sig strings.Builder
			sig.WriteString("func ")
			if recv != "" {
				sig.WriteString("(r *" + recv + ") ")
			}
			sig.WriteString(name + "(")
			for a := r.IntN(4); a > 0; a-- {
				sig.WriteString(c.part() + " " + c.camel(1, r.IntN(2) == 0) + ", ")
			}
			sig.WriteString(") (*" + c.camel(1+r.IntN(2), true) + ", error)")
			d.Fields[FieldSignature] = sig.String()
		}
		d.Fields[FieldName] = name
		d.Fields[FieldConcepts] = strings.ReplaceAll(file, "_", " ") + " " + pkg
		if recv != "" {
			d.Fields[FieldQName] = pkg + "." + recv + "." + name
		} else {
			d.Fields[FieldQName] = pkg + "." + name
		}
		d.Fields[FieldPath] = dir + "/" + file + ".go"
		if r.IntN(2) == 0 {
			var doc strings.Builder
			doc.WriteString(name + " returns the")
			for w := 4 + r.IntN(12); w > 0; w-- {
				doc.WriteString(" " + c.part())
				if r.IntN(6) == 0 {
					doc.WriteString(" of the")
				}
			}
			doc.WriteString(".")
			d.Fields[FieldDoc] = doc.String()
		}
		out = append(out, d)
	}
	return out
}

// query returns n query terms drawn from the same distribution as the
// documents' parts.
func (c *corpus) query(n int) []QueryTerm {
	q := make([]QueryTerm, n)
	for i := range q {
		q[i].Text = c.part()
	}
	return q
}
