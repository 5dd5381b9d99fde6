package snapshot

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/knowing-dev/knowing/bm25"
)

// bm25Ready reports whether the bm25 package builds and opens an index;
// when it does not, the tests that need BM25 skip.
var bm25Ready = sync.OnceValue(func() bool {
	b := bm25.NewBuilder(bm25.DefaultParams())
	b.Add(0, &bm25.Doc{Fields: [bm25.NumFields]string{"probe"}})
	enc, err := b.Finish()
	if err != nil {
		return false
	}
	_, err = bm25.Open(enc.Terms, enc.Postings, enc.Stats)
	return err == nil
})

func testOptions() *WriteOptions {
	return &WriteOptions{NoBM25: !bm25Ready()}
}

func needBM25(tb testing.TB) {
	tb.Helper()
	if !bm25Ready() {
		tb.Skip("bm25 package not implemented yet")
	}
}

var words = strings.Fields(`parse command line option value get set new build load save
	index search query graph node edge file path name token read write open close
	flag config server client request response handler router cache store error
	http json yaml buffer stream reader writer context session user auth token`)

// randomName makes names in several styles, with many duplicates.
func randomName(r *rand.Rand) string {
	return nameOf(r, func() string { return words[r.IntN(len(words))] })
}

// nameOf joins one to three words from pick in one of several styles.
func nameOf(r *rand.Rand, pick func() string) string {
	n := 1 + r.IntN(3)
	var b strings.Builder
	style := r.IntN(6)
	for i := 0; i < n; i++ {
		w := pick()
		switch style {
		case 0, 1: // camelCase
			if i > 0 {
				w = strings.ToUpper(w[:1]) + w[1:]
			}
		case 2: // PascalCase
			w = strings.ToUpper(w[:1]) + w[1:]
		case 3: // snake_case
			if i > 0 {
				b.WriteByte('_')
			}
		case 4: // SCREAMING_CASE
			if i > 0 {
				b.WriteByte('_')
			}
			w = strings.ToUpper(w)
		case 5: // HTTPServer-like
			if i == 0 {
				w = strings.ToUpper(w)
			} else {
				w = strings.ToUpper(w[:1]) + w[1:]
			}
		}
		b.WriteString(w)
	}
	return b.String()
}

// randomGraph builds a graph exercising every field: duplicate names,
// Unicode names, empty names, externals, docs and signatures of all sizes,
// edges of every type with parallel edges and self loops.
func randomGraph(seed uint64, nFiles, nNodes, nEdges int) *Graph {
	r := rand.New(rand.NewPCG(seed, 99))
	g := &Graph{Meta: Meta{
		RepoRoot: "/src/repo", GitCommit: "0123abcd", ToolVersion: "test",
		BuildTime: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC), SourceBytes: 12345,
		Extra: map[string]string{"go": "3"},
	}}
	dirs := []string{"cli", "internal/index", "pkg/server", "", "src/app/ui", "vendor/x"}
	for i := 0; i < nFiles; i++ {
		ext := []string{".go", ".py", ".ts", ".rs"}[r.IntN(4)]
		d := dirs[r.IntN(len(dirs))]
		p := fmt.Sprintf("%s%d%s", randomName(r), i, ext)
		if d != "" {
			p = d + "/" + p
		}
		g.Files = append(g.Files, File{Path: p, Lang: Lang(r.IntN(int(numLangs))), Flags: Flags(r.IntN(128)), Size: r.Uint64N(1 << 40)})
	}
	special := []string{"İstanbul", "Ünïcödé", "ſtrange", "naïve_Name", "ΣΊΣΥΦΟΣ", "x", ""}
	for i := 0; i < nNodes; i++ {
		name := randomName(r)
		if r.IntN(50) == 0 {
			name = special[r.IntN(len(special))]
		}
		if i%97 == 5 {
			name = fmt.Sprintf("zq%sUnique%d", words[i%len(words)], i) // unique, for BM25
		}
		n := Node{
			Name:      name,
			QName:     "pkg.mod." + name,
			Kind:      Kind(r.IntN(int(numKinds))),
			Lang:      Lang(r.IntN(int(numLangs))),
			Flags:     Flags(r.IntN(128)) &^ FlagExternal,
			File:      int32(r.IntN(nFiles+1)) - 1,
			StartLine: r.Uint32N(5000),
		}
		n.EndLine = n.StartLine + r.Uint32N(200)
		if r.IntN(8) != 0 {
			// Noise (generated, vendored, minified) is the exception.
			n.Flags &^= FlagGenerated | FlagVendored | FlagMinified
		}
		if r.IntN(7) == 0 {
			n.QName = "other." + name + ".x" // name not a suffix of qname
		}
		if r.IntN(11) == 0 {
			n.Flags |= FlagExternal
			n.File = -1
		}
		if r.IntN(3) > 0 {
			n.Signature = fmt.Sprintf("func %s(a int, b %s) error", name, words[r.IntN(len(words))])
		}
		switch r.IntN(5) {
		case 0, 1:
		case 2:
			n.Doc = strings.Repeat(words[r.IntN(len(words))]+" ", 1+r.IntN(100))
		case 3:
			n.Doc = "Ünïcode doc: " + strings.Repeat("é", r.IntN(300))
		case 4:
			if r.IntN(200) == 0 {
				n.Doc = strings.Repeat("long doc ", 40000) // forces its own cold block
			} else {
				n.Doc = "short"
			}
		}
		g.Nodes = append(g.Nodes, n)
	}
	for i := 0; i < nEdges && nNodes > 0; i++ {
		from := r.Uint32N(uint32(nNodes))
		to := from
		switch r.IntN(4) {
		case 0:
			to = r.Uint32N(uint32(nNodes))
		case 1, 2:
			lo := int(from) - 20
			if lo < 0 {
				lo = 0
			}
			to = uint32(min(lo+r.IntN(40), nNodes-1))
		}
		e := Edge{From: from, To: to, Type: EdgeType(r.IntN(NumEdgeTypes)), Confidence: r.Float32()}
		g.Edges = append(g.Edges, e)
		if r.IntN(50) == 0 {
			g.Edges = append(g.Edges, e) // parallel edge
		}
	}
	// Stamps, from a source of their own: the draws above stay as they were.
	sr := rand.New(rand.NewPCG(seed, 7))
	for i := range g.Files {
		g.Files[i].ModTime, g.Files[i].Hash = sr.Int64(), sr.Uint64()
	}
	g.Stamps = &Stamps{WalkStart: sr.Int64(), MaxFileSize: 1 << 20, Exts: []string{".go", ".py", ".rs", ".ts"}}
	for _, d := range dirs {
		g.Stamps.Dirs = append(g.Stamps.Dirs, DirStamp{Path: d, ModTime: sr.Int64()})
	}
	for _, d := range []string{"go.mod", "../go.work", "pkg/server/package.json", ".gitignore"} {
		g.Stamps.Deps = append(g.Stamps.Deps, DepStamp{Path: d, Size: sr.Uint64N(1 << 20), ModTime: sr.Int64(), Hash: sr.Uint64()})
	}
	return g
}

// vocab is the synthetic graph's vocabulary: the test words plus
// generated ones, 4,000 in all, drawn by a Zipf law as identifier words
// are. Rank 0 is the most frequent.
type vocab struct {
	words []string
	z     *rand.Zipf
}

func newVocab(r *rand.Rand) *vocab {
	syl := strings.Fields("ka lo mi nu pe ra si to vu zen dor mal tik bar qua ex ob un ly fer gon")
	seen := map[string]bool{}
	ws := append([]string(nil), words...)
	for _, w := range ws {
		seen[w] = true
	}
	for len(ws) < 4000 {
		w := syl[r.IntN(len(syl))] + syl[r.IntN(len(syl))]
		if r.IntN(2) == 0 {
			w += syl[r.IntN(len(syl))]
		}
		if !seen[w] {
			seen[w] = true
			ws = append(ws, w)
		}
	}
	r.Shuffle(len(ws), func(i, j int) { ws[i], ws[j] = ws[j], ws[i] })
	return &vocab{words: ws, z: rand.NewZipf(r, 1.1, 2, uint64(len(ws)-1))}
}

func (v *vocab) word() string { return v.words[v.z.Uint64()] }

// synthVocab is the vocabulary syntheticGraph used last.
var synthVocab *vocab

// syntheticGraph imitates real extraction at scale: nodes of one file are
// consecutive, most edges stay within a file or a package, and words
// follow a Zipf law.
func syntheticGraph(nNodes, nEdges int) *Graph {
	r := rand.New(rand.NewPCG(7, 7))
	v := newVocab(r)
	synthVocab = v
	randomName := func(r *rand.Rand) string { return nameOf(r, v.word) }
	g := &Graph{Meta: Meta{RepoRoot: "/synthetic", ToolVersion: "bench", BuildTime: time.Unix(0, 0).UTC()}}
	perFile := 25
	for id := 0; id < nNodes; {
		fi := len(g.Files)
		pkg := fmt.Sprintf("pkg%d/sub%d", fi/40, fi/8%5)
		fname := randomName(r)
		g.Files = append(g.Files, File{Path: pkg + "/" + fname + ".go", Lang: LangGo, Size: 4000})
		typeName := strings.ToUpper(fname[:1]) + fname[1:]
		for k := 0; k < perFile && id < nNodes; k++ {
			n := Node{Lang: LangGo, File: int32(fi), StartLine: uint32(10 * k), EndLine: uint32(10*k + 8), Flags: FlagExported}
			switch {
			case k == 0:
				n.Name, n.Kind = fname+".go", KindFile
			case k == 1:
				n.Name, n.Kind = typeName, KindStruct
			default:
				n.Name, n.Kind = randomName(r), KindMethod
			}
			n.QName = strings.ReplaceAll(pkg, "/", ".") + "." + typeName + "." + n.Name
			if k > 0 {
				n.Signature = "func (x *" + typeName + ") " + n.Name + "(ctx context.Context, q string) (int, error)"
			}
			if k%2 == 0 {
				d := []string{n.Name}
				for j := 0; j < 8; j++ {
					d = append(d, v.word())
				}
				n.Doc = strings.Join(d, " ") + " for the " + typeName + "."
			}
			g.Nodes = append(g.Nodes, n)
			id++
		}
	}
	for len(g.Edges) < nEdges {
		from := r.IntN(nNodes)
		base := from - from%perFile
		var to int
		switch p := r.IntN(100); {
		case p < 70:
			to = base + r.IntN(perFile)
		case p < 95:
			to = base + r.IntN(40*perFile) - 20*perFile
		default:
			to = r.IntN(nNodes)
		}
		if to < 0 || to >= nNodes {
			continue
		}
		t := []EdgeType{EdgeCalls, EdgeCalls, EdgeReferences, EdgeContains, EdgeMemberOf, EdgeTypeHintOf, EdgeImplements}[r.IntN(7)]
		g.Edges = append(g.Edges, Edge{From: uint32(from), To: uint32(to), Type: t, Confidence: 0.5 + r.Float32()/2})
	}
	return g
}
