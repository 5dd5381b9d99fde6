package extract

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// TestParseSourceSameTree checks that ParseSource builds the tree
// go-tree-sitter's Parse builds, on every source file of testdata, a few
// of the Go standard library's largest files, a file cut in the middle of
// a token and an empty file.
func TestParseSourceSameTree(t *testing.T) {
	type input struct {
		grammar, name string
		src           []byte
	}
	var inputs []input
	ext := map[string]string{".go": "go", ".py": "python", ".js": "javascript", ".ts": "typescript",
		".tsx": "tsx", ".rs": "rust", ".java": "java", ".cs": "csharp", ".rb": "ruby",
		".c": "c", ".cc": "cpp", ".h": "cpp"}
	err := filepath.WalkDir("../testdata", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if g, ok := ext[filepath.Ext(p)]; ok {
			src, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			inputs = append(inputs, input{g, p, src})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	goroot := goRootSrc(t)
	for _, name := range []string{"net/http/server.go", "go/types/expr.go", "unicode/tables.go"} {
		src, err := os.ReadFile(filepath.Join(goroot, name))
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, input{"go", name, src}, input{"go", name + " (cut)", src[:len(src)/2+7]})
	}
	inputs = append(inputs, input{"python", "empty", nil}, input{"ruby", "broken", []byte("class A\n  def b(\n")})
	langs := map[string]bool{}
	for _, in := range inputs {
		langs[in.grammar] = true
		p := sitter.NewParser()
		if err := p.SetLanguage(grammar(in.grammar)); err != nil {
			t.Fatal(err)
		}
		want := p.Parse(in.src, nil)
		got := ParseSource(p, in.src)
		if got == nil {
			t.Fatalf("%s: ParseSource returned no tree", in.name)
		}
		w, g := want.RootNode().ToSexp(), got.RootNode().ToSexp()
		if w != g {
			t.Errorf("%s: trees differ:\nParse:       %.300s\nParseSource: %.300s", in.name, w, g)
		}
		if want.RootNode().EndByte() != got.RootNode().EndByte() || len(g) < 10 && len(in.src) > 0 {
			t.Errorf("%s: root spans %d and %d bytes; sexp %q", in.name, want.RootNode().EndByte(), got.RootNode().EndByte(), g)
		}
		want.Close()
		got.Close()
		p.Close()
	}
	if len(langs) < 9 || len(inputs) < 20 {
		t.Errorf("only %d grammars and %d inputs exercised", len(langs), len(inputs))
	}
}

// TestParseLangReusesParsers: ParseLang gives the trees a fresh parser
// gives, from concurrent callers, keeps no more than GOMAXPROCS parsers
// per name, and a parser kept for one name never parses another
// language.
func TestParseLangReusesParsers(t *testing.T) {
	srcs := map[string][]byte{
		"python": []byte("from .app import Flask\nimport os\n\ndef f(x):\n    return x\n"),
		"ruby":   []byte("class A\n  def b; end\nend\n"),
	}
	want := map[string]string{}
	for name, src := range srcs {
		p := sitter.NewParser()
		if err := p.SetLanguage(grammar(name)); err != nil {
			t.Fatal(err)
		}
		tr := ParseSource(p, src)
		want[name] = tr.RootNode().ToSexp()
		tr.Close()
		p.Close()
	}
	errs := make(chan string, 64)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				for name, src := range srcs {
					tr := ParseLang(name, src)
					if tr == nil {
						errs <- name + ": no tree"
						return
					}
					if got := tr.RootNode().ToSexp(); got != want[name] {
						errs <- name + ": " + got
					}
					tr.Close()
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
	spareParsers.Lock()
	defer spareParsers.Unlock()
	for name := range srcs {
		if n := len(spareParsers.m[name]); n < 1 || n > runtime.GOMAXPROCS(0) {
			t.Errorf("%d spare %s parsers kept", n, name)
		}
	}
}
