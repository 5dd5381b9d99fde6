package snapshot

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/knowing-dev/knowing/bm25"
)

func writeOpen(t testing.TB, g *Graph, opt *WriteOptions) *Snapshot {
	t.Helper()
	p := filepath.Join(t.TempDir(), "repo.snap")
	if err := Write(p, g, opt); err != nil {
		t.Fatal(err)
	}
	s, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

type halfEdge struct {
	node uint32
	attr uint8
}

func sortHalf(h []halfEdge) {
	sort.Slice(h, func(i, j int) bool {
		if h[i].node != h[j].node {
			return h[i].node < h[j].node
		}
		return h[i].attr < h[j].attr
	})
}

// expectedParts mirrors the documented part rule independently of the
// writer: the whole lower-cased name plus each lower-cased token.
func expectedParts(name string) []string {
	lower := strings.ToLower(name)
	if lower == "" {
		return nil
	}
	out := []string{lower}
	for _, t := range bm25.AppendTokens(nil, name) {
		t = strings.ToLower(t)
		if t != "" && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

func TestRoundTrip(t *testing.T) {
	g := randomGraph(1, 300, 4000, 16000)
	s := writeOpen(t, g, testOptions())
	if err := s.Verify(); err != nil {
		t.Fatalf("Verify: %v", err)
	}
	if s.NumNodes() != len(g.Nodes) || s.NumFiles() != len(g.Files) || s.NumEdges() != len(g.Edges) {
		t.Fatalf("counts %d/%d/%d", s.NumNodes(), s.NumFiles(), s.NumEdges())
	}

	for i, f := range g.Files {
		got, err := s.File(i)
		if err != nil || got != f {
			t.Fatalf("file %d: got %+v, %v; want %+v", i, got, err, f)
		}
		if s.FilePath(i) != f.Path || s.FileLang(i) != f.Lang || s.FileFlags(i) != f.Flags || s.FileSize(i) != f.Size {
			t.Fatalf("file %d accessors differ", i)
		}
	}
	for i, n := range g.Nodes {
		id := uint32(i)
		got, err := s.Node(id)
		if err != nil {
			t.Fatalf("node %d: %v", i, err)
		}
		if !reflect.DeepEqual(got, n) {
			t.Fatalf("node %d:\n got %+v\nwant %+v", i, got, n)
		}
		start, end := s.Lines(id)
		if s.Name(id) != n.Name || s.QName(id) != n.QName || s.Kind(id) != n.Kind || s.Lang(id) != n.Lang ||
			s.Flags(id) != n.Flags || s.FileIndex(id) != n.File || start != n.StartLine || end != n.EndLine ||
			s.SignatureLen(id) != len(n.Signature) {
			t.Fatalf("node %d accessors differ", i)
		}
		sig, err1 := s.Signature(id)
		doc, err2 := s.Doc(id)
		if sig != n.Signature || doc != n.Doc || err1 != nil || err2 != nil {
			t.Fatalf("node %d cold text differs (%v, %v)", i, err1, err2)
		}
	}
	if s.Name(uint32(len(g.Nodes))) != "" || s.FilePath(-1) != "" {
		t.Fatal("out-of-range accessors return data")
	}
	if st, ok := s.Stamps(); !ok || !reflect.DeepEqual(st, g.Stamps) {
		t.Fatalf("stamps:\n got %+v\nwant %+v", st, g.Stamps)
	}
	if mt, h := s.FileStamp(len(g.Files)); mt != 0 || h != 0 {
		t.Fatal("out-of-range file stamp")
	}

	// edges, both directions, type and confidence bucket
	out := make([][]halfEdge, len(g.Nodes))
	in := make([][]halfEdge, len(g.Nodes))
	for _, e := range g.Edges {
		a := PackAttr(e.Type, e.Confidence)
		out[e.From] = append(out[e.From], halfEdge{e.To, a})
		in[e.To] = append(in[e.To], halfEdge{e.From, a})
	}
	for dir, want := range [][][]halfEdge{out, in} {
		for u := range want {
			sortHalf(want[u])
			var got []halfEdge
			it := s.Neighbors(uint32(u), Direction(dir))
			if it.Len() != len(want[u]) || s.Degree(uint32(u), Direction(dir)) != len(want[u]) {
				t.Fatalf("dir %d node %d: degree %d, want %d", dir, u, it.Len(), len(want[u]))
			}
			for it.Next() {
				if it.Type() != AttrType(it.Attr()) || it.Confidence() != AttrConfidence(it.Attr()) {
					t.Fatal("attribute accessors disagree")
				}
				got = append(got, halfEdge{it.Node(), PackAttr(it.Type(), it.Confidence())})
			}
			if it.Err() != nil {
				t.Fatal(it.Err())
			}
			sortHalf(got)
			if !reflect.DeepEqual(got, want[u]) && !(len(got) == 0 && len(want[u]) == 0) {
				t.Fatalf("dir %d node %d: got %v want %v", dir, u, got, want[u])
			}
		}
	}

	// names and parts: every key, exact and by prefix
	names := map[string][]uint32{}
	parts := map[string][]uint32{}
	for i, n := range g.Nodes {
		if l := strings.ToLower(n.Name); l != "" {
			names[l] = append(names[l], uint32(i))
		}
		for _, p := range expectedParts(n.Name) {
			parts[p] = append(parts[p], uint32(i))
		}
	}
	checkKeys(t, "names", names, s.LookupName, s.NewNameIter())
	checkKeys(t, "parts", parts, s.LookupPart, nil)

	info, err := s.Info()
	if err != nil {
		t.Fatal(err)
	}
	m := g.Meta
	m.Files, m.Nodes, m.Edges = len(g.Files), len(g.Nodes), len(g.Edges)
	if !reflect.DeepEqual(info.Meta, m) || info.NameKeys != len(names) || info.PartKeys > len(parts) {
		t.Fatalf("info %+v", info)
	}
	if got, _ := s.Meta(); !reflect.DeepEqual(got, m) {
		t.Fatalf("meta %+v", got)
	}
	if info.Sections["graph.out"] == 0 || info.Sections["nodes"] != int64(nodeRecSize*len(g.Nodes)) {
		t.Fatalf("section sizes %v", info.Sections)
	}

	if !bm25Ready() {
		t.Log("bm25 not implemented yet: BM25 round trip skipped")
		return
	}
	ix, err := s.BM25()
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for i := range g.Nodes {
		if searchable(&g.Nodes[i]) {
			want++
		}
	}
	if ix.NumDocs() != want {
		t.Fatalf("BM25 has %d docs, want %d searchable nodes", ix.NumDocs(), want)
	}
	sr := bm25.NewSearcher(ix)
	checked := 0
	for name, ids := range names {
		if len(ids) != 1 || !strings.HasPrefix(name, "zq") || !searchable(&g.Nodes[ids[0]]) {
			continue
		}
		var q []bm25.QueryTerm
		for _, tok := range bm25.AppendTokens(nil, g.Nodes[ids[0]].Name) {
			q = append(q, bm25.QueryTerm{Text: tok})
		}
		hits := sr.Search(q, 5)
		if len(hits) == 0 || hits[0].Doc != ids[0] {
			t.Errorf("BM25 search %q: hits %v, want %d first", name, hits, ids[0])
		}
		checked++
	}
	if checked < 20 {
		t.Fatalf("only %d unique names checked", checked)
	}
}

func checkKeys(t *testing.T, what string, want map[string][]uint32, lookup func(string, []uint32) []uint32, it *KeyIter) {
	t.Helper()
	keys := make([]string, 0, len(want))
	for k, ids := range want {
		keys = append(keys, k)
		if got := lookup(k, nil); !slices.Equal(got, ids) {
			t.Fatalf("%s %q: got %v want %v", what, k, got, ids)
		}
	}
	sort.Strings(keys)
	if it == nil {
		return
	}
	for _, miss := range []string{"", "zzzzzz-missing", "PARSE", "\xff"} {
		if _, ok := want[miss]; !ok && len(lookup(miss, nil)) != 0 {
			t.Fatalf("%s %q: found", what, miss)
		}
	}
	// every prefix of every 50th key, plus edge cases
	prefixes := []string{"", "p", "pa", "par", "zq", "\xff", "i", "ü", "get_", "zzzz"}
	for i := 0; i < len(keys); i += 50 {
		for j := 1; j <= len(keys[i]); j++ {
			prefixes = append(prefixes, keys[i][:j])
		}
	}
	for _, p := range prefixes {
		var wantKeys []string
		for _, k := range keys {
			if strings.HasPrefix(k, p) {
				wantKeys = append(wantKeys, k)
			}
		}
		it.Reset(p)
		var got []string
		for it.Next() {
			k := string(it.Key())
			got = append(got, k)
			if ids := it.Nodes(nil); !slices.Equal(ids, want[k]) {
				t.Fatalf("%s iter %q: key %q nodes %v, want %v", what, p, k, ids, want[k])
			}
		}
		if it.Err() != nil {
			t.Fatal(it.Err())
		}
		if !slices.Equal(got, wantKeys) {
			t.Fatalf("%s prefix %q: %d keys, want %d\n got %q\nwant %q", what, p, len(got), len(wantKeys), head(got), head(wantKeys))
		}
	}
}

func head(s []string) []string { return s[:min(len(s), 10)] }

func TestEmptyGraph(t *testing.T) {
	s := writeOpen(t, &Graph{}, testOptions())
	if err := s.Verify(); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Stamps(); ok {
		t.Fatal("a graph without stamps has stamps")
	}
	if r, err := s.Stale(t.TempDir(), 0); err != nil || r.Stamped || r.Stale() {
		t.Fatalf("Stale of a snapshot without stamps: %+v, %v", r, err)
	}
	if s.NumNodes() != 0 || len(s.LookupName("x", nil)) != 0 {
		t.Fatal("empty graph not empty")
	}
	it := s.NewNameIter()
	it.Reset("")
	if it.Next() {
		t.Fatal("key in empty graph")
	}
	nb := s.Neighbors(0, Out)
	if nb.Next() {
		t.Fatal("edge in empty graph")
	}
}

func TestNoBM25(t *testing.T) {
	g := randomGraph(2, 5, 50, 100)
	s := writeOpen(t, g, &WriteOptions{NoBM25: true})
	if _, err := s.BM25(); err != ErrNoBM25 {
		t.Fatalf("BM25: %v", err)
	}
	if err := s.Verify(); err != nil {
		t.Fatal(err)
	}
	// Without BM25 the parts index holds every part itself.
	parts := map[string][]uint32{}
	for i, n := range g.Nodes {
		for _, p := range expectedParts(n.Name) {
			parts[p] = append(parts[p], uint32(i))
		}
	}
	checkKeys(t, "parts", parts, s.LookupPart, nil)
	if in, _ := s.Info(); in.PartKeys != len(parts) {
		t.Fatalf("%d part keys, want %d", in.PartKeys, len(parts))
	}
}

func TestConcepts(t *testing.T) {
	for in, want := range map[string]string{
		"cli/commandLineParser.ts":  "commandLineParser cli",
		"src/cli/commandLineParser": "commandLineParser cli",
		"main.go":                   "main",
		".eslintrc":                 ".eslintrc",
		"a/b/c.tar.gz":              "c.tar b",
	} {
		if got := concepts(in); got != want {
			t.Errorf("concepts(%q) = %q, want %q", in, got, want)
		}
	}
	g := &Graph{Files: []File{{Path: "cli/commandLineParser.ts"}}, Nodes: []Node{
		{Name: "parse", QName: "cli.parse", File: 0, Signature: "parse()", Doc: strings.Repeat("é", 400)},
		{Name: "fmt", QName: "fmt", File: -1, Flags: FlagExternal, Signature: "x", Doc: "y"},
	}}
	var d bm25.Doc
	bm25Doc(&d, g, &g.Nodes[0], concepts(g.Files[0].Path))
	if d.Fields[bm25.FieldConcepts] != "commandLineParser cli" || d.Fields[bm25.FieldPath] != "cli/commandLineParser.ts" ||
		len(d.Fields[bm25.FieldDoc]) > bm25DocBytes || !strings.HasPrefix(g.Nodes[0].Doc, d.Fields[bm25.FieldDoc]) ||
		d.Fields[bm25.FieldSignature] != "parse()" {
		t.Fatalf("doc %q", d.Fields)
	}
	if bm25Doc(&d, g, &g.Nodes[1], "stale"); d.Fields != [bm25.NumFields]string{bm25.FieldName: "fmt", bm25.FieldQName: "fmt"} {
		t.Fatalf("external doc %q", d.Fields)
	}
}

// TestBM25ConceptsPerFile: buildBM25 computes a file's concepts once per
// run of its symbols; the index must equal one built with the concepts
// computed node by node, with files interleaved.
func TestBM25ConceptsPerFile(t *testing.T) {
	g := &Graph{Files: []File{{Path: "cli/commandLineParser.ts"}, {Path: "server/http_handler.go"}}}
	for i, f := range []int32{0, 0, 1, 0, -1, 1, 1, 0} {
		g.Nodes = append(g.Nodes, Node{Name: fmt.Sprintf("fn%d", i), QName: fmt.Sprintf("pkg.fn%d", i), File: f, Kind: KindFunction})
	}
	got, err := buildBM25(g, bm25.DefaultParams(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	b := bm25.NewBuilder(bm25.DefaultParams())
	for i := range g.Nodes {
		n := &g.Nodes[i]
		c := ""
		if n.File >= 0 {
			c = concepts(g.Files[n.File].Path)
		}
		var d bm25.Doc
		bm25Doc(&d, g, n, c)
		b.Add(uint32(i), &d)
	}
	want, err := b.Finish()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Terms, want.Terms) || !bytes.Equal(got.Postings, want.Postings) || !bytes.Equal(got.Stats, want.Stats) {
		t.Fatal("the index differs from one built with per-node concepts")
	}
}

func TestSharedNameStrings(t *testing.T) {
	// A name that ends its qualified name is stored once.
	g := &Graph{Nodes: []Node{{Name: "before_request", QName: "flask.Scaffold.before_request", File: -1}}}
	img, err := encode(g, &WriteOptions{NoBM25: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := string(img.sec[secStrings]); got != "flask.Scaffold.before_request" {
		t.Fatalf("strings %q", got)
	}
}

func TestConcurrentReaders(t *testing.T) {
	g := randomGraph(3, 50, 2000, 6000)
	s := writeOpen(t, g, testOptions())
	done := make(chan error)
	for w := 0; w < 4; w++ {
		go func(w int) {
			it := s.NewNameIter()
			var ids []uint32
			for i := w; i < len(g.Nodes); i += 3 {
				id := uint32(i)
				doc, err := s.Doc(id)
				if err != nil || doc != g.Nodes[i].Doc {
					done <- err
					return
				}
				ids = s.LookupName(strings.ToLower(g.Nodes[i].Name), ids[:0])
				if g.Nodes[i].Name != "" && !slices.Contains(ids, id) {
					done <- os.ErrInvalid
					return
				}
				it.Reset(strings.ToLower(g.Nodes[i].Name))
				for it.Next() {
					ids = it.Nodes(ids[:0])
				}
			}
			done <- nil
		}(w)
	}
	for w := 0; w < 4; w++ {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}

func TestWriteIsDeterministic(t *testing.T) {
	g := randomGraph(4, 20, 300, 900)
	a, err := encode(g, testOptions())
	if err != nil {
		t.Fatal(err)
	}
	b, err := encode(g, testOptions())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.bytes(), b.bytes()) {
		t.Fatal("two writes of one graph differ")
	}
}

func TestWriteOrderCoversSections(t *testing.T) {
	seen := map[sectionID]bool{}
	for _, id := range writeOrder {
		if seen[id] || id == 0 || id >= numSectionIDs {
			t.Fatalf("writeOrder: bad or repeated %s", id)
		}
		seen[id] = true
	}
	if len(seen) != int(numSectionIDs)-1 {
		t.Fatalf("writeOrder lists %d of %d sections", len(seen), numSectionIDs-1)
	}
}

// TestRecordLimits writes fields wider than a node record holds: long
// names are cut at a rune boundary, lines saturate, and a signature of 64
// KiB or more still reports its exact length.
func TestRecordLimits(t *testing.T) {
	long := strings.Repeat("é", 40000) // 80,000 bytes
	sig := strings.Repeat("s", 70000)
	g := &Graph{Files: []File{{Path: "a.go", Lang: LangGo}}, Nodes: []Node{
		{Name: long, QName: "pkg." + long, Kind: KindFunction, Lang: LangGo, File: 0, StartLine: 1 << 25, EndLine: 1<<25 + 5, Signature: sig},
		{Name: "b", QName: "pkg.b", Kind: KindMethod, Lang: LangRust, Flags: FlagExported | FlagTest, File: -1, StartLine: 7, EndLine: 9, Signature: "x"},
		{Name: "file.go", QName: "dir/file.go", Kind: KindFile, File: 0, StartLine: 1, EndLine: 0},
	}}
	img, err := encode(g, nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := openBytes(img.bytes())
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Verify(); err != nil {
		t.Fatal(err)
	}
	if q := s.QName(0); len(q) > maxQNameLen || !strings.HasPrefix("pkg."+long, q) || !utf8.ValidString(q) {
		t.Errorf("qname of %d bytes", len(q))
	}
	if n := s.Name(0); len(n) > maxNameLen || !strings.HasPrefix(long, n) || !utf8.ValidString(n) {
		t.Errorf("name of %d bytes", len(n))
	}
	if a, b := s.Lines(0); a != maxLine || b != maxLine {
		t.Errorf("lines %d %d", a, b)
	}
	if n := s.SignatureLen(0); n != len(sig) {
		t.Errorf("signature length %d, want %d", n, len(sig))
	}
	if s.Name(1) != "b" || s.QName(1) != "pkg.b" || s.Kind(1) != KindMethod || s.Lang(1) != LangRust ||
		s.Flags(1) != FlagExported|FlagTest || s.FileIndex(1) != -1 || s.SignatureLen(1) != 1 {
		t.Errorf("node 1: %q %q %v %v %v %d %d", s.Name(1), s.QName(1), s.Kind(1), s.Lang(1), s.Flags(1), s.FileIndex(1), s.SignatureLen(1))
	}
	if a, b := s.Lines(1); a != 7 || b != 9 {
		t.Errorf("node 1 lines %d %d", a, b)
	}
	if a, b := s.Lines(2); a != 1 || b != 0 || s.Kind(2) != KindFile || s.Name(2) != "file.go" {
		t.Errorf("node 2: lines %d %d, %v %q", a, b, s.Kind(2), s.Name(2))
	}
}

// TestTextIndexStartedEarly: a BM25 index started on a graph's first nodes,
// before the caller appended more nodes (external ones among them), edges
// and test flags, gives the same file as one built at write time; a text
// index of another graph or with other parameters is refused.
func TestTextIndexStartedEarly(t *testing.T) {
	needBM25(t)
	full := randomGraph(7, 40, 3000, 9000)
	want, err := encode(full, testOptions())
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []int{0, 1, len(full.Nodes) / 2, len(full.Nodes) - 5, len(full.Nodes)} {
		g := &Graph{Meta: full.Meta, Files: full.Files, Stamps: full.Stamps}
		g.Nodes = append(g.Nodes, full.Nodes[:k]...)
		for i := range g.Nodes {
			g.Nodes[i].Flags &^= FlagTest
		}
		text := StartTextIndex(g, nil)
		// What a resolver does next: more nodes, edges, flags.
		g.Nodes = append(g.Nodes, full.Nodes[k:]...)
		for i := range k {
			g.Nodes[i].Flags = full.Nodes[i].Flags
		}
		g.Edges = full.Edges
		opt := testOptions()
		opt.Text = text
		got, err := encode(g, opt)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.bytes(), want.bytes()) {
			t.Fatalf("text index started on %d of %d nodes: the file differs", k, len(full.Nodes))
		}
	}
	other := randomGraph(8, 4, 30, 90)
	opt := testOptions()
	opt.Text = StartTextIndex(other, nil)
	if _, err := encode(full, opt); err == nil || !strings.Contains(err.Error(), "another graph") {
		t.Errorf("a text index of another graph: %v", err)
	}
	p := bm25.DefaultParams()
	p.K1 = 2
	opt.Text = StartTextIndex(full, &p)
	if _, err := encode(full, opt); err == nil || !strings.Contains(err.Error(), "BM25 parameters") {
		t.Errorf("a text index with other parameters: %v", err)
	}
}

// TestAppendFileNodes checks that a file's searchable nodes are found
// through its path, and nothing else: not a file whose path holds this
// one's, not generated code, not a snapshot without BM25. A path too long
// for a whole-path term is found by its segments.
func TestAppendFileNodes(t *testing.T) {
	long := strings.Repeat("deep/", 14) + "x.go"
	longer := strings.Repeat("deep/", 14) + "y/x.go"
	g := &Graph{Files: []File{{Path: "a/b.go", Lang: LangGo}, {Path: "x/a/b.go", Lang: LangGo}, {Path: "Gen/Z.go", Lang: LangGo, Flags: FlagGenerated}, {Path: long, Lang: LangGo}, {Path: longer, Lang: LangGo}}}
	add := func(name string, file int32, flags Flags) {
		g.Nodes = append(g.Nodes, Node{Name: name, QName: "p." + name, Kind: KindFunction, Lang: LangGo, File: file, Flags: flags, StartLine: 1, EndLine: 2})
	}
	add("One", 0, 0)
	add("Two", 1, 0)
	add("Three", 0, 0)
	add("Four", 2, FlagGenerated)
	add("Five", 3, 0)
	add("Six", 4, 0)
	add("Seven", 3, 0)
	s := writeOpen(t, g, nil)
	for _, c := range []struct {
		file int
		want []uint32
	}{{0, []uint32{0, 2}}, {1, []uint32{1}}, {2, nil}, {3, []uint32{4, 6}}, {4, []uint32{5}}, {-1, nil}, {9, nil}} {
		if got := s.AppendFileNodes(c.file, nil); !slices.Equal(got, c.want) {
			t.Errorf("file %d: %v, want %v", c.file, got, c.want)
		}
	}
	if got := writeOpen(t, g, &WriteOptions{NoBM25: true}).AppendFileNodes(0, nil); len(got) != 0 {
		t.Errorf("without BM25: %v", got)
	}
}

// TestHistorySection round-trips the nodes' Changed and Churn, and
// writes no history section when no node has any.
func TestHistorySection(t *testing.T) {
	g := randomGraph(7, 50, 200, 400)
	s := writeOpen(t, g, testOptions())
	if s.HasHistory() {
		t.Fatal("a history section for a graph without history")
	}
	if c, n := s.History(3); c != 0 || n != 0 {
		t.Fatalf("history %d/%d without a section", c, n)
	}
	g.Nodes[3].Changed, g.Nodes[3].Churn = 2, 5
	g.Nodes[49].Changed, g.Nodes[49].Churn = 1, 1
	s = writeOpen(t, g, testOptions())
	if err := s.Verify(); err != nil {
		t.Fatal(err)
	}
	if !s.HasHistory() {
		t.Fatal("no history section")
	}
	for _, c := range []struct {
		id            uint32
		changed, hist uint16
	}{{3, 2, 5}, {49, 1, 1}, {0, 0, 0}, {50, 0, 0}} {
		if a, b := s.History(c.id); a != c.changed || b != c.hist {
			t.Errorf("node %d: history %d/%d, want %d/%d", c.id, a, b, c.changed, c.hist)
		}
	}
	if n, _ := s.Node(3); n.Changed != 2 || n.Churn != 5 {
		t.Errorf("Node(3): changed %d churn %d", n.Changed, n.Churn)
	}
}
