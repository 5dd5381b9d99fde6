package rust

import (
	"fmt"
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tsrust "github.com/tree-sitter/tree-sitter-rust/bindings/go"

	"github.com/knowing-dev/knowing/extract"
	"github.com/knowing-dev/knowing/snapshot"
)

func TestZZDiag(t *testing.T) {
	root := os.Getenv("DIAG")
	if root == "" {
		t.Skip()
	}
	var paths []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "target") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".rs") {
			rel, _ := filepath.Rel(root, p)
			paths = append(paths, filepath.ToSlash(rel))
		}
		return nil
	})
	repo := extract.NewRepo(root)
	parser := sitter.NewParser()
	parser.SetLanguage(sitter.NewLanguage(tsrust.Language()))
	var results []*extract.FileResult
	var tparse, text time.Duration
	for _, p := range paths {
		src, _ := os.ReadFile(filepath.Join(root, p))
		t0 := time.Now()
		tree := parser.Parse(src, nil)
		t1 := time.Now()
		r := &extract.FileResult{Path: p, Lang: snapshot.LangRust, Size: int64(len(src))}
		if extract.IsTestPath(p) {
			r.Flags |= snapshot.FlagTest
		}
		extractRust(&extract.File{Path: p, Src: src, Root: tree.RootNode(), Repo: repo}, r)
		t2 := time.Now()
		tparse += t1.Sub(t0)
		text += t2.Sub(t1)
		tree.Close()
		results = append(results, r)
	}
	t0 := time.Now()
	g := extract.Resolve(results)
	t.Logf("parse %v extract %v resolve %v", tparse, text, time.Since(t0))
	// node of each symbol
	type key struct {
		path string
		line uint32
		name string
	}
	node := map[key]uint32{}
	for i, n := range g.Nodes {
		if n.File >= 0 {
			node[key{g.Files[n.File].Path, n.StartLine, n.Name}] = uint32(i)
		}
	}
	out := map[uint32]map[string][]uint32{}
	for _, e := range g.Edges {
		if e.Type == snapshot.EdgeCalls {
			m := out[e.From]
			if m == nil {
				m = map[string][]uint32{}
				out[e.From] = m
			}
			m[g.Nodes[e.To].Name] = append(m[g.Nodes[e.To].Name], e.To)
		}
	}
	cat := func(r extract.Ref) string {
		switch {
		case r.Qual == "":
			return "bare"
		case strings.HasPrefix(r.Qual, "::"):
			return "modtoken"
		case strings.HasPrefix(r.Qual, "<"):
			return "typetoken"
		case r.Qual == "self" || r.Qual == "Self":
			return "self"
		case strings.HasPrefix(r.Qual, "self."):
			return "selfchain"
		case r.Qual == "()" || strings.HasPrefix(r.Qual, "()."):
			if r.QualType != "" {
				return "expr-typed"
			}
			return "expr"
		case r.QualType != "":
			return "var-typed"
		}
		return "var"
	}
	total := map[string]int{}
	res := map[string]int{}
	samples := map[string][]string{}
	unattached := 0
	for _, f := range results {
		for _, s := range f.Symbols {
			if s.Receiver != "" {
				unattached++
			}
		}
		for _, r := range f.Refs {
			if r.Kind != extract.RefCall || r.From < 0 {
				continue
			}
			s := f.Symbols[r.From]
			id, ok := node[key{f.Path, s.Start, s.Name}]
			c := cat(r)
			total[c]++
			if ok && len(out[id][r.Name]) > 0 {
				res[c]++
				if os.Getenv("SHOWRES") == c {
					for _, to := range out[id][r.Name] {
						t.Logf("RES %s:%d %s qual=%q qt=%q -> %s", f.Path, r.Line, r.Name, r.Qual, r.QualType, g.Nodes[to].QName)
					}
				}
				continue
			}
			samples[c] = append(samples[c], fmt.Sprintf("%s:%d %s qual=%q qt=%q", f.Path, r.Line, r.Name, r.Qual, r.QualType))
		}
	}
	var cats []string
	for c := range total {
		cats = append(cats, c)
	}
	sort.Strings(cats)
	for _, c := range cats {
		t.Logf("%-10s %6d refs %6d resolved", c, total[c], res[c])
	}
	t.Logf("symbols with Receiver (impl of a type of another file): %d", unattached)
	for _, nm := range strings.Fields(os.Getenv("NAMES")) {
		for _, n := range g.Nodes {
			if n.Name == nm && n.Kind.IsCallable() {
				t.Logf("NAME %s %s %s flags=%v", nm, n.Kind, n.QName, n.Flags)
			}
		}
	}
	rng := rand.New(rand.NewSource(1))
	n := 12
	if os.Getenv("N") != "" {
		fmt.Sscan(os.Getenv("N"), &n)
	}
	for _, c := range cats {
		if os.Getenv("CAT") != "" && os.Getenv("CAT") != c {
			continue
		}
		s := samples[c]
		rng.Shuffle(len(s), func(i, j int) { s[i], s[j] = s[j], s[i] })
		for i := 0; i < len(s) && i < n; i++ {
			t.Logf("UNRES %s %s", c, s[i])
		}
	}
}
