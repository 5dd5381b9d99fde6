package ruby

import (
	"strconv"
	"strings"

	"github.com/knowing-dev/knowing/extract"
	"github.com/knowing-dev/knowing/snapshot"
)

// Tests written as blocks: RSpec example groups and examples, let and
// subject, shoulda should and ActiveSupport test blocks.

// specCtx is an RSpec example group (describe/context) being read.
type specCtx struct {
	desc      string
	described string            // the described class, dotted
	lets      map[string]string // let/subject name → type
}

// letType is the type of a let or subject name of the enclosing example
// groups; described_class and subject give the described class.
func (x *extractor) letType(name string) (string, bool) {
	for i := len(x.specs) - 1; i >= 0; i-- {
		if t, ok := x.specs[i].lets[name]; ok {
			return t, true
		}
	}
	if name == "described_class" {
		for i := len(x.specs) - 1; i >= 0; i-- {
			if d := x.specs[i].described; d != "" {
				return d, true
			}
		}
	}
	if name == "subject" {
		for i := len(x.specs) - 1; i >= 0; i-- {
			if d := x.specs[i].described; d != "" {
				return d, true
			}
		}
	}
	return "", false
}

// describe reads an example group, whose block sees the described class and
// its lets.
func (x *extractor) describe(n, args, blk int32) {
	sp := &specCtx{lets: map[string]string{}}
	as := x.argNodes(args)
	if len(as) > 0 {
		if p := x.constPath(as[0]); p != "" {
			sp.described = p
			x.typeRef(p, as[0])
		}
		sp.desc = x.descText(as[0])
	}
	x.specs = append(x.specs, sp)
	x.block(blk, nil)
	x.specs = x.specs[:len(x.specs)-1]
}

// let reads a let or subject block and records the type of its value in the
// current group.
func (x *extractor) let(mname string, args, blk int32) {
	name := "subject"
	if as := x.argNodes(args); len(as) > 0 {
		name = x.symbolValue(as[0])
	}
	typ := ""
	// The type of the block's last expression.
	for c := x.FirstNamed(blk); c >= 0; c = x.NextNamed(c) {
		if k := x.Code(c); k == kBlockBody || k == kBodyStatement {
			x.block(blk, nil)
			typ = x.resultTypeLoose(c)
			if len(x.specs) > 0 && name != "" {
				x.specs[len(x.specs)-1].lets[name] = typ
			}
			return
		}
	}
	x.block(blk, nil)
	if len(x.specs) > 0 && name != "" {
		x.specs[len(x.specs)-1].lets[name] = typ
	}
}

// resultTypeLoose is resultType that keeps "call:" results.
func (x *extractor) resultTypeLoose(body int32) string {
	last := int32(-1)
	for c := x.FirstNamed(body); c >= 0; c = x.NextNamed(c) {
		if x.Code(c) != kComment {
			last = c
		}
	}
	if last < 0 {
		return ""
	}
	return x.exprType(last)
}

// example declares an RSpec, shoulda or ActiveSupport test block as a test
// function named after its description.
func (x *extractor) example(n int32, mname string, args, blk int32) {
	desc := ""
	if as := x.argNodes(args); len(as) > 0 {
		desc = x.descText(as[0])
	}
	prefix := "it_"
	switch mname {
	case "should", "should_eventually":
		prefix = "should_"
	case "test":
		prefix = "test_"
	}
	slug := slugify(desc)
	if slug == "" {
		slug = "line_" + strconv.Itoa(int(x.Line(n)))
	}
	var chain []string
	for _, sp := range x.specs {
		if sp.desc != "" {
			chain = append(chain, sp.desc)
		}
	}
	chain = append(chain, desc)
	line := x.Line(n)
	doc := strings.TrimSpace(strings.Join(chain, " "))
	if d := x.doc(line); d != "" {
		doc = d + "\n" + doc
	}
	id := x.Add(extract.Symbol{Name: prefix + slug, Kind: snapshot.KindFunction, Parent: x.container(),
		Start: line, End: x.EndLine(n), Signature: x.signature(n, x.N[blk].Start), Doc: doc,
		Flags: snapshot.FlagTest})
	savedFn, savedFrom := x.fn, x.from
	x.fn, x.from = &fnCtx{sym: id, name: prefix + slug}, id
	x.block(blk, nil)
	x.fn, x.from = savedFn, savedFrom
}

// slugify makes an identifier of a description: "adds items" → adds_items.
func slugify(s string) string {
	var b strings.Builder
	under := false
	for _, r := range strings.ToLower(s) {
		ok := r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127 && r != '…'
		if !ok {
			under = b.Len() > 0
			continue
		}
		if under {
			b.WriteByte('_')
			under = false
		}
		b.WriteRune(r)
		if b.Len() >= 80 {
			break
		}
	}
	return b.String()
}
