package javascript

import (
	"fmt"
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tsjs "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	tsts "github.com/tree-sitter/tree-sitter-typescript/bindings/go"

	"github.com/knowing-dev/knowing/extract"
	"github.com/knowing-dev/knowing/snapshot"
)

func TestZZQuality(t *testing.T) {
	root := os.Getenv("Q")
	if root == "" {
		t.Skip()
	}
	var paths []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == ".git") {
			return filepath.SkipDir
		}
		if !d.IsDir() && extract.Supported(p) {
			rel, _ := filepath.Rel(root, p)
			paths = append(paths, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(paths)
	g, err := extract.ExtractFiles(root, paths)
	if err != nil {
		t.Fatal(err)
	}
	fileNode := map[string]int{}
	for i, n := range g.Nodes {
		if n.Kind == snapshot.KindFile {
			fileNode[n.QName] = i
		}
	}
	out := map[uint32]map[string]bool{}
	for _, e := range g.Edges {
		if e.Type == snapshot.EdgeCalls {
			if out[e.From] == nil {
				out[e.From] = map[string]bool{}
			}
			out[e.From][g.Nodes[e.To].Name] = true
			if g.Nodes[e.To].Kind == snapshot.KindConstructor {
				// new Foo() → constructor
			}
		}
	}
	repo := extract.NewRepo(root)
	cat := map[string][2]int{}
	var unres []string
	for _, p := range paths {
		src, _ := os.ReadFile(filepath.Join(root, p))
		pr := sitter.NewParser()
		ext := filepath.Ext(p)
		gname := "javascript"
		switch ext {
		case ".ts", ".mts", ".cts":
			pr.SetLanguage(sitter.NewLanguage(tsts.LanguageTypescript()))
			gname = "typescript"
		case ".tsx":
			pr.SetLanguage(sitter.NewLanguage(tsts.LanguageTSX()))
			gname = "tsx"
		default:
			pr.SetLanguage(sitter.NewLanguage(tsjs.Language()))
		}
		tree := pr.Parse(src, nil)
		r := &extract.FileResult{Path: p}
		if extract.IsTestPath(p) {
			r.Flags |= snapshot.FlagTest
		}
		run(&extract.File{Path: p, Src: src, Root: tree.RootNode(), Repo: repo}, r, gname)
		fn := fileNode[p]
		for _, ref := range r.Refs {
			if ref.Kind != extract.RefCall {
				continue
			}
			from := uint32(fn)
			if ref.From >= 0 {
				from = uint32(fn + 1 + int(ref.From))
			}
			c := "bare"
			switch {
			case ref.Qual == "this" || ref.Qual == "super":
				c = ref.Qual
			case strings.HasPrefix(ref.Qual, "this."):
				c = "this.field"
			case ref.QualType != "" && strings.HasPrefix(ref.QualType, "call:"):
				c = "qt-call"
			case ref.QualType != "":
				c = "qt-type"
			case ref.Qual == "?":
				c = "unknown-obj"
			case ref.Qual != "":
				c = "qual"
			}
			ok := out[from][ref.Name]
			if !ok && ref.Qual == "" {
				for _, im := range r.Imports {
					if im.LocalName() == ref.Name && out[from][im.Name] {
						ok = true
					}
				}
			}
			v := cat[c]
			if ok {
				v[0]++
			} else {
				v[1]++
				unres = append(unres, fmt.Sprintf("%s:%d [%s] %s | %s | %s", p, ref.Line, c, ref.Name, ref.Qual, ref.QualType))
			}
			cat[c] = v
		}
		tree.Close()
		pr.Close()
	}
	for c, v := range cat {
		fmt.Printf("%-12s resolved %5d unresolved %5d\n", c, v[0], v[1])
	}
	if os.Getenv("LOW") != "" {
		var low []string
		for _, e := range g.Edges {
			if e.Type == snapshot.EdgeCalls && e.Confidence < 0.5 {
				low = append(low, g.Nodes[e.From].QName+" -> "+g.Nodes[e.To].QName)
			}
		}
		rand.Shuffle(len(low), func(i, j int) { low[i], low[j] = low[j], low[i] })
		fmt.Println("LOW", len(low))
		for i := 0; i < len(low) && i < 40; i++ {
			fmt.Println(low[i])
		}
		return
	}
	rand.Seed(1)
	rand.Shuffle(len(unres), func(i, j int) { unres[i], unres[j] = unres[j], unres[i] })
	filter := os.Getenv("QF")
	n := 0
	for _, u := range unres {
		if filter != "" && !strings.Contains(u, filter) {
			continue
		}
		fmt.Println(u)
		n++
		if n > 100000 {
			break
		}
	}
}
