package rust

import (
	"bytes"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/knowing-dev/knowing/extract"
)

// Items inside macro invocations: crates gate whole groups of items behind
// a feature with a macro of their own,
//
//	cfg_rt! {
//	    pub fn spawn<F>(future: F) -> JoinHandle<F::Output> { ... }
//	}
//
// which expands to the items with a #[cfg] attribute each. The grammar
// reads a macro's argument as a token tree, not as items, so the
// functions, impl blocks and structs in it would be no symbols. A file
// with such invocations where items are (a module's top, a mod, impl or
// trait body) is parsed again with the macro's name, its `!`, and the
// braces of its argument blanked out: the items then stand in the
// enclosing module or impl, as they do once expanded, at their own byte
// offsets and lines. An invocation whose argument does not parse as items
// then (lazy_static!'s `static ref`, bitflags!'s `struct F: u32`) keeps
// its braces. Macros within macros are unwrapped in further rounds, at
// most maxMacroRounds. cfg_if! { if #[cfg(unix)] { ... } else { ... } }
// keeps the items of every branch.

// maxMacroRounds bounds the nesting of item macros unwrapped, and so the
// parses of one file.
const maxMacroRounds = 4

// maxMacroCandidates bounds the invocations unwrapped in one round.
const maxMacroCandidates = 256

// itemStarts are the tokens an item (or its visibility, or an attribute)
// starts with.
var itemStarts = extract.WordSet(`pub fn struct enum union impl trait mod use const static type async unsafe extern #`)

// macroSpan is a macro invocation among items whose argument is in braces.
type macroSpan struct {
	start uint32 // the invocation's first byte (its name)
	open  uint32 // the argument's `{`
	end   uint32 // just past the argument's `}`
	// cfgIf holds the bounds of the branches' braces of a cfg_if!
	// invocation: everything else in its argument is blanked too.
	cfgIf [][2]uint32
}

// unwrapItemMacros returns the flat tree of the file with the item macros
// of t unwrapped, or nil when t has none (or none that parses). t is the
// flat tree of src; the caller releases both trees.
func unwrapItemMacros(t *extract.FlatTree, src []byte) *extract.FlatTree {
	if !bytes.Contains(src, []byte("!{")) && !bytes.Contains(src, []byte("! {")) {
		return nil
	}
	var out *extract.FlatTree
	cur := src
	rejected := map[uint32]bool{} // invocations whose argument is no items
	for range maxMacroRounds {
		cands := itemMacros(t, rejected)
		if len(cands) == 0 {
			break
		}
		next := bytes.Clone(cur)
		for _, c := range cands {
			blankMacro(next, c)
		}
		tree := extract.ParseLang("rust", next)
		if tree == nil {
			break
		}
		if bad := brokenMacros(tree.RootNode(), cands); len(bad) > 0 {
			tree.Close()
			for _, c := range bad {
				rejected[c.start] = true
				copy(next[c.start:c.end], cur[c.start:c.end])
			}
			if len(bad) == len(cands) {
				continue // nothing left to unwrap this round; the next finds none new
			}
			if tree = extract.ParseLang("rust", next); tree == nil {
				break
			}
		}
		nt := extract.NewFlatTree(tree.RootNode(), next, kindNames)
		tree.Close()
		if out != nil {
			out.Release()
		}
		out, t, cur = nt, nt, next
	}
	return out
}

// itemMacros lists the invocations among the items of t (at its top and
// in mod, impl and trait bodies) whose argument is in braces and starts
// like an item, leaving out those rejected before.
func itemMacros(t *extract.FlatTree, rejected map[uint32]bool) []macroSpan {
	var out []macroSpan
	var walk func(list int32, depth int)
	walk = func(list int32, depth int) {
		for c := t.FirstNamed(list); c >= 0 && len(out) < maxMacroCandidates; c = t.NextNamed(c) {
			switch t.Kind(c) {
			case "macro_invocation":
				if m, ok := asItemMacro(t, c); ok && !rejected[m.start] {
					out = append(out, m)
				}
			case "mod_item", "impl_item", "trait_item":
				if b := t.Field(c, fBody); b >= 0 && depth < extract.MaxNesting {
					walk(b, depth+1)
				}
			}
		}
	}
	walk(0, 0)
	return out
}

// asItemMacro reads invocation n as an item macro: a plain name (not
// macro_rules), a braced argument whose first token, comments aside,
// starts an item or another invocation (name!).
func asItemMacro(t *extract.FlatTree, n int32) (macroSpan, bool) {
	name := t.Field(n, fMacro)
	if name < 0 || t.Kind(name) != "identifier" && t.Kind(name) != "scoped_identifier" || t.Text(name) == "macro_rules" {
		return macroSpan{}, false
	}
	var tt int32 = -1
	for c := t.FirstNamed(n); c >= 0; c = t.NextNamed(c) {
		if t.Kind(c) == "token_tree" {
			tt = c
		}
	}
	if tt < 0 {
		return macroSpan{}, false
	}
	open, end := t.N[tt].Start, t.N[tt].End
	if end < open+2 || t.Src[open] != '{' || t.Src[end-1] != '}' {
		return macroSpan{}, false
	}
	first := t.FirstChild(tt) // the `{`
	if first >= 0 {
		first = t.N[first].Next
	}
	if last := t.Text(name); last == "cfg_if" || last == "cfg_if::cfg_if" {
		return cfgIfMacro(t, n, tt)
	}
	for first >= 0 && (t.Kind(first) == "line_comment" || t.Kind(first) == "block_comment") {
		first = t.N[first].Next
	}
	if first < 0 {
		return macroSpan{}, false
	}
	k := t.Kind(first)
	nested := k == "identifier" && t.N[first].Next >= 0 && t.Kind(t.N[first].Next) == "!"
	if !itemStarts[k] && !nested {
		return macroSpan{}, false
	}
	return macroSpan{start: t.N[n].Start, open: open, end: end}, true
}

// cfgIfMacro reads a cfg_if! invocation,
//
//	cfg_if! {
//	    if #[cfg(unix)] { items } else if #[cfg(windows)] { items } else { items }
//	}
//
// whose branches' items all belong to the module (one of them is
// compiled; a name declared in two branches is two symbols, as a function
// of two files for two platforms is).
func cfgIfMacro(t *extract.FlatTree, n, tt int32) (macroSpan, bool) {
	m := macroSpan{start: t.N[n].Start, open: t.N[tt].Start, end: t.N[tt].End}
	for c := t.FirstChild(tt); c >= 0; c = t.N[c].Next {
		if t.Kind(c) != "token_tree" || t.Src[t.N[c].Start] != '{' {
			continue
		}
		if p := t.N[c].Prev; p < 0 || t.Kind(p) != "token_tree" && t.Text(p) != "else" {
			continue // a brace after anything but #[cfg(...)] or else
		}
		m.cfgIf = append(m.cfgIf, [2]uint32{t.N[c].Start, t.N[c].End})
	}
	return m, len(m.cfgIf) > 0
}

// blankMacro replaces the invocation's name, `!` and braces with spaces,
// keeping line breaks, so that every other byte keeps its offset and line.
// Of a cfg_if! invocation it keeps the branches' items alone.
func blankMacro(src []byte, m macroSpan) {
	blank := func(from, to uint32) {
		for i := from; i < to; i++ {
			if src[i] != '\n' && src[i] != '\r' {
				src[i] = ' '
			}
		}
	}
	if m.cfgIf == nil {
		blank(m.start, m.open+1)
		blank(m.end-1, m.end)
		return
	}
	from := m.start
	for _, b := range m.cfgIf {
		blank(from, b[0]+1)
		from = b[1] - 1
	}
	blank(from, m.end)
}

// brokenMacros returns the invocations of cands whose unwrapped argument
// holds a syntax error in the new tree. It reads the node API and walks
// only into subtrees with errors.
func brokenMacros(root *sitter.Node, cands []macroSpan) []macroSpan {
	if !root.HasError() {
		return nil
	}
	var spans [][2]uint32
	var walk func(n *sitter.Node)
	walk = func(n *sitter.Node) {
		if len(spans) >= 64 {
			return
		}
		if n.IsError() || n.IsMissing() {
			spans = append(spans, [2]uint32{uint32(n.StartByte()), uint32(n.EndByte())})
			return
		}
		for i := uint(0); i < n.ChildCount(); i++ {
			if c := n.Child(i); c.HasError() {
				walk(c)
			}
		}
	}
	walk(root)
	var bad []macroSpan
	for _, c := range cands {
		for _, s := range spans {
			if s[0] <= c.end && s[1] >= c.open {
				bad = append(bad, c)
				break
			}
		}
	}
	return bad
}
