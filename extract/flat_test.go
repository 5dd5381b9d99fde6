package extract

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// TestFlatTreeMatchesNodes checks FlatTree against the tree-sitter node API
// it stands in for: every node's kind, span, lines, named flag, children,
// previous sibling and field children (Node.NextSibling is not compared:
// it skips empty nodes, such as the content of an empty raw string, which
// NamedChild and a cursor do not), on every grammar's test data and
// on net/http (KNOWING_FLAT_ROOT names another folder to check).
func TestFlatTreeMatchesNodes(t *testing.T) {
	var ft FlatTree
	eachTree(t, func(path, gname string, tree *sitter.Tree, src []byte) {
		ft.Names = KindNames(grammar(gname))
		ft.Flatten(tree.RootNode(), src)
		checkFlat(t, path, grammar(gname), tree.RootNode(), &ft)
	})
}

// TestFlattenDirectMatchesCursor checks the walk over tree-sitter's
// subtrees against the TreeCursor walk, node for node and field for field,
// on the same files as TestFlatTreeMatchesNodes: the direct walk copies
// the runtime's layouts, and a go-tree-sitter upgrade that moved them
// fails here.
func TestFlattenDirectMatchesCursor(t *testing.T) {
	if !directWalk {
		t.Skip("no direct walk on this platform")
	}
	var direct, cursor FlatTree
	nodes := 0
	eachTree(t, func(path, gname string, tree *sitter.Tree, src []byte) {
		for _, namedOnly := range []bool{false, true} {
			direct.flatten(tree.RootNode(), src, walkDirect, namedOnly)
			cursor.flatten(tree.RootNode(), src, walkCursor, namedOnly)
			if len(direct.N) != len(cursor.N) {
				t.Errorf("%s (named only: %v): direct walk wrote %d nodes, cursor %d", path, namedOnly, len(direct.N), len(cursor.N))
				return
			}
			for i := range cursor.N {
				if direct.N[i] != cursor.N[i] {
					t.Errorf("%s (named only: %v): node %d: direct %+v, cursor %+v", path, namedOnly, i, direct.N[i], cursor.N[i])
					return
				}
			}
			nodes += len(cursor.N)
		}
	})
	t.Logf("%d nodes compared", nodes)
}

// TestNamedFlatTreeIsFiltered: the named-only tree is the full tree with
// its anonymous leaves taken out and the sibling links joined around
// them, node for node, in both walks, on the same files as above.
func TestNamedFlatTreeIsFiltered(t *testing.T) {
	var full, named FlatTree
	dropped, kept := 0, 0
	eachTree(t, func(path, gname string, tree *sitter.Tree, src []byte) {
		full.flatten(tree.RootNode(), src, walkCursor, false)
		want := dropAnonymousLeaves(full.N)
		for _, how := range []int{walkChecked, walkCursor} {
			named.flatten(tree.RootNode(), src, how, true)
			if len(named.N) != len(want) {
				t.Errorf("%s (walk %d): %d nodes, want %d", path, how, len(named.N), len(want))
				return
			}
			for i := range want {
				if named.N[i] != want[i] {
					t.Errorf("%s (walk %d): node %d: %+v, want %+v", path, how, i, named.N[i], want[i])
					return
				}
			}
		}
		dropped += len(full.N) - len(want)
		kept += len(want)
	})
	if dropped == 0 || kept == 0 {
		t.Fatalf("%d nodes dropped, %d kept: nothing was tested", dropped, kept)
	}
	t.Logf("%d nodes kept, %d anonymous leaves dropped", kept, dropped)
}

// dropAnonymousLeaves is the reference for a named-only flat tree.
func dropAnonymousLeaves(all []FlatNode) []FlatNode {
	keep := make([]int32, len(all)) // new index, -1 when dropped
	var out []FlatNode
	for i := range all {
		leaf := i+1 >= len(all) || all[i+1].Parent != int32(i)
		if i > 0 && !all[i].Named && leaf {
			keep[i] = -1
			continue
		}
		keep[i] = int32(len(out))
		out = append(out, all[i])
	}
	for j := range out {
		n := &out[j]
		if n.Parent >= 0 {
			n.Parent = keep[n.Parent]
		}
		for n.Next >= 0 && keep[n.Next] < 0 {
			n.Next = all[n.Next].Next
		}
		if n.Next >= 0 {
			n.Next = keep[n.Next]
		}
		for n.Prev >= 0 && keep[n.Prev] < 0 {
			n.Prev = all[n.Prev].Prev
		}
		if n.Prev >= 0 {
			n.Prev = keep[n.Prev]
		}
	}
	return out
}

// eachTree parses every file of a known language under testdata, net/http
// and KNOWING_FLAT_ROOT (a folder to check besides) and calls fn on it.
func eachTree(t *testing.T, fn func(path, gname string, tree *sitter.Tree, src []byte)) {
	t.Helper()
	roots := []string{"../testdata"}
	if dir := filepath.Join(goRootSrc(t), "net", "http"); dirExists(dir) {
		roots = append(roots, dir)
	}
	if extra := os.Getenv("KNOWING_FLAT_ROOT"); extra != "" {
		roots = append(roots, extra)
	}
	parsers := map[string]*sitter.Parser{}
	defer func() {
		for _, p := range parsers {
			p.Close()
		}
	}()
	files := 0
	for _, root := range roots {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			gname := grammarForExt(strings.ToLower(filepath.Ext(p)))
			if gname == "" {
				return nil
			}
			src, err := os.ReadFile(p)
			if err != nil {
				return nil
			}
			if l := byExt[strings.ToLower(filepath.Ext(p))]; l != nil && l.Pick != nil {
				if _, g := l.Pick(nil, p, src); g != "" {
					gname = g // a C++ header
				}
			}
			ps := parsers[gname]
			if ps == nil {
				ps = sitter.NewParser()
				if err := ps.SetLanguage(grammar(gname)); err != nil {
					t.Fatal(err)
				}
				parsers[gname] = ps
			}
			tree := ps.Parse(src, nil)
			defer tree.Close()
			fn(p, gname, tree, src)
			files++
			return nil
		})
	}
	if files == 0 {
		t.Fatal("no files checked")
	}
}

func dirExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

func grammarForExt(ext string) string {
	if l := byExt[ext]; l != nil {
		return l.Grammars[ext]
	}
	switch ext { // languages registered by sub-packages, not imported here
	case ".go":
		return "go"
	case ".py":
		return "python"
	case ".js", ".jsx", ".mjs", ".cjs":
		return "javascript"
	case ".ts":
		return "typescript"
	case ".tsx":
		return "tsx"
	case ".rs":
		return "rust"
	case ".java":
		return "java"
	case ".cs":
		return "csharp"
	case ".rb":
		return "ruby"
	}
	return ""
}

func checkFlat(t *testing.T, path string, lang *sitter.Language, root *sitter.Node, ft *FlatTree) {
	t.Helper()
	// Walk the node API in pre-order; the i-th node visited is ft.N[i].
	var nodes []sitter.Node
	index := map[uintptr]int32{}
	var walk func(n sitter.Node)
	walk = func(n sitter.Node) {
		index[n.Id()] = int32(len(nodes))
		nodes = append(nodes, n)
		for i := uint(0); i < n.ChildCount(); i++ {
			walk(*n.Child(i))
		}
	}
	walk(*root)
	if len(nodes) != len(ft.N) {
		t.Fatalf("%s: %d nodes, flat tree has %d", path, len(nodes), len(ft.N))
	}
	at := func(n *sitter.Node) int32 {
		if n == nil {
			return -1
		}
		i, ok := index[n.Id()]
		if !ok {
			t.Fatalf("%s: node %s at %d not in the walk", path, n.Kind(), n.StartByte())
		}
		return i
	}
	fields := int(lang.FieldCount())
	errs := 0
	fail := func(i int, format string, args ...any) {
		t.Helper()
		errs++
		if errs < 10 {
			t.Errorf("%s: node %d (%s at byte %d): "+format, append([]any{path, i, nodes[i].Kind(), nodes[i].StartByte()}, args...)...)
		}
	}
	for i := range nodes {
		n, f := &nodes[i], &ft.N[i]
		if f.Kind != n.KindId() || f.Named != n.IsNamed() || uint(f.Start) != n.StartByte() || uint(f.End) != n.EndByte() ||
			uint(f.StartRow) != n.StartPosition().Row || uint(f.EndRow) != n.EndPosition().Row {
			fail(i, "flat %+v", *f)
		}
		if k := ft.Kind(int32(i)); k != n.Kind() {
			fail(i, "kind %q, flat %q", n.Kind(), k)
		}
		if p := at(n.Parent()); i > 0 && p != f.Parent {
			fail(i, "parent %d, flat %d", p, f.Parent)
		}
		if p := at(n.PrevSibling()); p != f.Prev {
			fail(i, "prev sibling %d, flat %d", p, f.Prev)
		}
		if c := int(n.NamedChildCount()); c != ft.NamedCount(int32(i)) {
			fail(i, "%d named children, flat %d", c, ft.NamedCount(int32(i)))
		}
		k := uint(0)
		for c := ft.FirstNamed(int32(i)); c >= 0; c = ft.NextNamed(c) {
			if w := at(n.NamedChild(k)); w != c {
				fail(i, "named child %d is %d, flat %d", k, w, c)
			}
			k++
		}
		if n.ChildCount() == 0 {
			continue
		}
		for fid := 1; fid <= fields; fid++ {
			if w, g := at(n.ChildByFieldId(uint16(fid))), ft.Field(int32(i), uint16(fid)); w != g {
				fail(i, "field %s: %d, flat %d", lang.FieldNameForId(uint16(fid)), w, g)
			}
		}
	}
}

// goFiles calls fn on every .go file under root, in lexical order;
// unreadable files are passed over.
func goFiles(root string, fn func(path string, src []byte)) {
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
			return nil
		}
		if src, err := os.ReadFile(p); err == nil {
			fn(p, src)
		}
		return nil
	})
}

// BenchmarkFlatten flattens the parsed trees of net/http (or
// KNOWING_FLAT_ROOT); ns/op is per tree node.
func BenchmarkFlatten(b *testing.B) {
	root := os.Getenv("KNOWING_FLAT_ROOT")
	if root == "" {
		root = filepath.Join(goRootSrc(b), "net", "http")
	}
	ps := sitter.NewParser()
	defer ps.Close()
	if err := ps.SetLanguage(grammar("go")); err != nil {
		b.Fatal(err)
	}
	var trees []*sitter.Tree
	var srcs [][]byte
	goFiles(root, func(_ string, src []byte) {
		trees = append(trees, ps.Parse(src, nil))
		srcs = append(srcs, src)
	})
	defer func() {
		for _, t := range trees {
			t.Close()
		}
	}()
	var ft FlatTree
	nodes := 0
	for i, t := range trees {
		ft.Flatten(t.RootNode(), srcs[i])
		nodes += len(ft.N)
	}
	for _, w := range []struct {
		name string
		how  int
	}{{"checked", walkChecked}, {"cursor", walkCursor}} {
		b.Run(w.name, func(b *testing.B) {
			for n := 0; n < b.N; n++ {
				for i, t := range trees {
					ft.flatten(t.RootNode(), srcs[i], w.how, false)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(nodes), "ns/node")
		})
	}
}

// TestNamedPrecedingComments: a comment followed by a token (const /* c */
// (, M /* c */ ; m()) is no doc in either kind of tree, though the
// named-only tree has left the token out. Every named node's preceding
// comments match the full tree's, on these cases, Go's testdata and
// net/http.
func TestNamedPrecedingComments(t *testing.T) {
	edge := []byte("package p\n\nconst /* class */ (\n\tspecial = iota\n\tliteral\n)\n\ntype U interface { M /* ERROR */ ; m() }\n\n// Doc of F.\nfunc F() {}\n")
	p := sitter.NewParser()
	defer p.Close()
	if err := p.SetLanguage(grammar("go")); err != nil {
		t.Fatal(err)
	}
	names := KindNames(grammar("go"))
	compared, docs := 0, 0
	check := func(path string, src []byte) {
		tree := ParseSource(p, src)
		defer tree.Close()
		full := NewFlatTree(tree.RootNode(), src, names)
		defer full.Release()
		named := NewNamedFlatTree(tree.RootNode(), src, names)
		defer named.Release()
		at := map[[3]uint32]int32{}
		for i := range full.N {
			n := &full.N[i]
			at[[3]uint32{n.Start, n.End, uint32(n.Kind)}] = int32(i)
		}
		for i := range named.N {
			n := &named.N[i]
			j, ok := at[[3]uint32{n.Start, n.End, uint32(n.Kind)}]
			if !ok {
				t.Fatalf("%s: named node %d (%s) is not in the full tree", path, i, named.Kind(int32(i)))
			}
			got, want := named.PrecedingComments(int32(i), "//"), full.PrecedingComments(j, "//")
			if got != want {
				t.Fatalf("%s: %s at line %d: comments %q, full tree %q", path, named.Kind(int32(i)), named.Line(int32(i)), got, want)
			}
			compared++
			if got != "" {
				docs++
			}
		}
	}
	check("edge cases", edge)
	roots := []string{"../testdata/go", filepath.Join(goRootSrc(t), "net", "http")}
	for _, root := range roots {
		goFiles(root, check)
	}
	if docs < 100 {
		t.Fatalf("%d nodes compared, %d with comments: too few", compared, docs)
	}
}
