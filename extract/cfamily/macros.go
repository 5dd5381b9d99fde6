package cfamily

import (
	"bytes"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/knowing-dev/knowing/extract"
)

// Macros the grammar cannot read: an export or attribute macro between
// class and the class's name (class LEVELDB_EXPORT DB {...}, struct
// GTEST_API_ TestInfo), which makes the class a function definition; one
// before a declaration, named like an attribute (LEVELDB_EXPORT Status
// DestroyDB(...); REDIS_NO_SANITIZE("bounds") on the line above a
// function); thread-safety annotations after a declarator (Mutex mu_
// GUARDED_BY(x); void f() EXCLUSIVE_LOCKS_REQUIRED(mu_);), which break the
// member. A file whose tree has errors and which holds one is parsed again
// with those macros blanked: replaced by spaces, so that every position
// stays where it was; signatures fold the spaces away.

// Conditional compilation the grammar cannot read either: an #if inside
// an expression or an initializer list breaks the declaration around it,
// and the rest of the file with it. A file whose tree has errors among
// its declarations (not only inside function bodies, where they lose a
// few references) and which holds #if lines is parsed again with its
// conditional lines (#if, #ifdef, #ifndef, #elif, #else, #endif) blanked,
// both branches kept, and that tree is kept when it has fewer such
// errors.

// prepared returns f parsed again without such macros and conditionals,
// or nil when that is not better; done closes the new tree.
func prepared(f *extract.File, cpp bool, names []string) (nf *extract.File, done func()) {
	g := "c"
	if cpp {
		g = "cpp"
	}
	// A macro in a class head misleads the grammar without an error
	// (struct LEVELDB_EXPORT Options {...} can read as a function); the
	// others show as errors.
	if src, head, ok := blankMacrosHead(f.Src); ok && (head || f.Root.HasError()) {
		if tree := extract.ParseLang(g, src); tree != nil {
			nf, done = &extract.File{Path: f.Path, Src: src, Root: tree.RootNode(), Repo: f.Repo}, tree.Close
		}
	}
	cur := f
	if nf != nil {
		cur = nf
	}
	if !cur.Root.HasError() || !bytes.Contains(cur.Src, []byte("#if")) {
		return nf, done
	}
	before := structuralErrors(cur.Root, cur.Src, names)
	if before == 0 {
		return nf, done
	}
	src2, ok := blankConditionals(cur.Src)
	if !ok {
		return nf, done
	}
	tree := extract.ParseLang(g, src2)
	if tree == nil {
		return nf, done
	}
	if structuralErrors(tree.RootNode(), src2, names) >= before {
		tree.Close()
		return nf, done
	}
	if done != nil {
		done()
	}
	return &extract.File{Path: f.Path, Src: src2, Root: tree.RootNode(), Repo: f.Repo}, tree.Close
}

// declarationLists hold declarations: an error directly in one loses
// symbols.
var declarationLists = extract.WordSet(`translation_unit declaration_list field_declaration_list
	linkage_specification preproc_if preproc_ifdef preproc_else preproc_elif preproc_elifdef`)

// structuralErrors counts the ERROR nodes of a tree that sit among
// declarations, or are its root.
func structuralErrors(root *sitter.Node, src []byte, names []string) int {
	t := extract.NewFlatTree(root, src, names)
	defer t.Release()
	n := 0
	for i := range t.N {
		if t.Kind(int32(i)) != "ERROR" {
			continue
		}
		if p := t.N[i].Parent; p < 0 || declarationLists[t.Kind(p)] {
			n++
		}
	}
	return n
}

// blankConditionals copies src with its conditional lines blanked (a
// line continued with a backslash goes with it); ok is false when it has
// none.
func blankConditionals(src []byte) ([]byte, bool) {
	var out []byte
	lineEnd := func(i int) int {
		if e := bytes.IndexByte(src[i:], '\n'); e >= 0 {
			return i + e
		}
		return len(src)
	}
	for i := 0; i < len(src); {
		end := lineEnd(i)
		if !conditional(src[i:end]) {
			i = end + 1
			continue
		}
		if out == nil {
			out = append([]byte(nil), src...)
		}
		for {
			for k := i; k < end; k++ {
				if out[k] != '\r' {
					out[k] = ' '
				}
			}
			if !bytes.HasSuffix(bytes.TrimRight(src[i:end], "\r"), []byte("\\")) || end >= len(src) {
				break
			}
			i, end = end+1, lineEnd(end+1)
		}
		i = end + 1
	}
	return out, out != nil
}

// conditional reports a line holding a conditional directive.
func conditional(line []byte) bool {
	line = bytes.TrimLeft(line, " \t")
	if len(line) < 2 || line[0] != '#' {
		return false
	}
	d := bytes.TrimLeft(line[1:], " \t")
	for _, w := range conditionals {
		if bytes.HasPrefix(d, w) && (len(d) == len(w) || !identByte(d[len(w)])) {
			return true
		}
	}
	return false
}

var conditionals = [][]byte{[]byte("ifdef"), []byte("ifndef"), []byte("if"), []byte("elifdef"),
	[]byte("elifndef"), []byte("elif"), []byte("else"), []byte("endif")}

// annotations are the attribute macros written after a declarator, with
// parenthesized arguments.
var annotations = extract.WordSet(`GUARDED_BY PT_GUARDED_BY ACQUIRED_AFTER ACQUIRED_BEFORE
	EXCLUSIVE_LOCKS_REQUIRED SHARED_LOCKS_REQUIRED LOCKS_EXCLUDED LOCK_RETURNED
	EXCLUSIVE_LOCK_FUNCTION SHARED_LOCK_FUNCTION UNLOCK_FUNCTION EXCLUSIVE_TRYLOCK_FUNCTION
	SHARED_TRYLOCK_FUNCTION ASSERT_EXCLUSIVE_LOCK ASSERT_SHARED_LOCK REQUIRES REQUIRES_SHARED
	ACQUIRE ACQUIRE_SHARED RELEASE RELEASE_SHARED EXCLUDES RETURN_CAPABILITY
	ABSL_GUARDED_BY ABSL_PT_GUARDED_BY ABSL_EXCLUSIVE_LOCKS_REQUIRED ABSL_SHARED_LOCKS_REQUIRED
	ABSL_LOCKS_EXCLUDED ABSL_LOCK_RETURNED`)

// blankMacros copies src with the macros above blanked; ok is false
// when there are none (and nothing is copied).
func blankMacros(src []byte) ([]byte, bool) {
	out, _, ok := blankMacrosHead(src)
	return out, ok
}

// blankMacrosHead is blankMacros; head reports a macro blanked in a
// class head.
func blankMacrosHead(src []byte) (out []byte, head, ok bool) {
	blank := func(from, to int) {
		if out == nil {
			out = append([]byte(nil), src...)
		}
		for i := from; i < to; i++ {
			out[i] = ' '
		}
	}
	for i := 0; i < len(src); {
		if !identStart(src[i]) || i > 0 && identByte(src[i-1]) {
			i++
			continue
		}
		j := i
		for j < len(src) && identByte(src[j]) {
			j++
		}
		word := string(src[i:j])
		switch {
		case word == "class" || word == "struct":
			// class MACRO Name: an upper-case word followed by another word.
			a := skipSpace(src, j)
			b := a
			for b < len(src) && identByte(src[b]) {
				b++
			}
			if b-a >= 3 && upperWord(src[a:b]) && classHead(src, b) {
				blank(a, b)
				head = true
			}
		case attributeMacro(word) && !directive(src, i):
			// LEVELDB_EXPORT Status DestroyDB(...), REDIS_NO_SANITIZE("bounds")
			// before a function: an attribute before what it marks.
			end := j
			if k := skipSpace(src, j); k < len(src) && src[k] == '(' {
				if end = closing(src, k); end < 0 {
					break
				}
			}
			if k := skipBlank(src, end); k < len(src) && (identStart(src[k]) || src[k] == '*') {
				blank(i, end)
				j = end
			}
		case annotations[word]:
			if k := skipSpace(src, j); k < len(src) && src[k] == '(' {
				if end := closing(src, k); end > 0 {
					blank(i, end)
					j = end
				}
			}
		}
		i = j
	}
	return out, head, out != nil
}

// classHead reports a class name at i followed by its body or its
// bases: " Name {", " Name : public B", " Name final".
func classHead(src []byte, i int) bool {
	i = skipSpace(src, i)
	j := i
	for j < len(src) && identByte(src[j]) {
		j++
	}
	if j == i || !identStart(src[i]) {
		return false
	}
	for j < len(src) && (src[j] == ' ' || src[j] == '\t' || src[j] == '\n' || src[j] == '\r') {
		j++
	}
	switch {
	case j >= len(src):
		return false
	case src[j] == '{':
		return true
	case src[j] == ':':
		return j+1 < len(src) && src[j+1] != ':'
	}
	return len(src)-j >= 5 && string(src[j:j+5]) == "final"
}

// attributeMarkers are parts of the names of macros that expand to
// attributes: export and visibility, sanitizer and inlining switches.
var attributeMarkers = []string{"EXPORT", "_API", "SANITIZE", "DEPRECATED", "_STATIC", "_INLINE", "NOINLINE",
	"_UNUSED", "NORETURN", "_PUBLIC", "_HIDDEN", "_VISIBLE", "_EXTERN", "_ATTRIBUTE", "_NODISCARD"}

// attributeMacro reports an upper-case word named like such a macro.
func attributeMacro(w string) bool {
	if len(w) < 5 || !upperWord([]byte(w)) {
		return false
	}
	for _, m := range attributeMarkers {
		if strings.Contains(w, m) {
			return true
		}
	}
	return false
}

// directive reports a position on a preprocessor line (#define
// LEVELDB_EXPORT ...).
func directive(src []byte, i int) bool {
	start := bytes.LastIndexByte(src[:i], '\n') + 1
	line := bytes.TrimLeft(src[start:i], " \t")
	return len(line) > 0 && line[0] == '#'
}

// skipBlank skips white space, line ends included.
func skipBlank(src []byte, i int) int {
	for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r') {
		i++
	}
	return i
}

func identStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func identByte(c byte) bool { return identStart(c) || c >= '0' && c <= '9' }

// upperWord reports an identifier of upper-case letters, digits and
// underscores with at least one letter: how macros are written.
func upperWord(w []byte) bool {
	letter := false
	for _, c := range w {
		switch {
		case c >= 'A' && c <= 'Z':
			letter = true
		case c >= '0' && c <= '9' || c == '_':
		default:
			return false
		}
	}
	return letter
}

func skipSpace(src []byte, i int) int {
	for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	return i
}

// closing is the position after the parenthesis that closes the one at
// open, on the same line or a few after; -1 when there is none.
func closing(src []byte, open int) int {
	depth := 0
	for i := open; i < len(src) && i < open+512; i++ {
		switch src[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i + 1
			}
		case ';', '{', '}':
			return -1
		}
	}
	return -1
}
