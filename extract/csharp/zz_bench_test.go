package csharp

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tscsharp "github.com/tree-sitter/tree-sitter-c-sharp/bindings/go"

	"github.com/knowing-dev/knowing/extract"
)

func TestZZTiming(t *testing.T) {
	root := os.Getenv("CS_TIMING")
	if root == "" {
		t.Skip()
	}
	var files []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if strings.HasSuffix(p, ".cs") {
			files = append(files, p)
		}
		return nil
	})
	ps := sitter.NewParser()
	ps.SetLanguage(sitter.NewLanguage(tscsharp.Language()))
	repo := extract.NewRepo(root)
	var parse, ext time.Duration
	var bytes int
	for _, p := range files {
		src, _ := os.ReadFile(p)
		bytes += len(src)
		t0 := time.Now()
		tree := ps.Parse(src, nil)
		t1 := time.Now()
		r := &extract.FileResult{Path: p}
		rel, _ := filepath.Rel(root, p)
		extractCSharp(&extract.File{Path: rel, Src: src, Root: tree.RootNode(), Repo: repo}, r)
		ext += time.Since(t1)
		parse += t1.Sub(t0)
		tree.Close()
	}
	t.Logf("%d files %d bytes: parse %v extract %v", len(files), bytes, parse, ext)
}

func TestZZErrors(t *testing.T) {
	root := os.Getenv("CS_TIMING")
	if root == "" {
		t.Skip()
	}
	ps := sitter.NewParser()
	ps.SetLanguage(sitter.NewLanguage(tscsharp.Language()))
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if !strings.HasSuffix(p, ".cs") {
			return nil
		}
		src, _ := os.ReadFile(p)
		tree := ps.Parse(src, nil)
		defer tree.Close()
		if !tree.RootNode().HasError() {
			return nil
		}
		var find func(n *sitter.Node) bool
		find = func(n *sitter.Node) bool {
			if n.IsError() || n.IsMissing() {
				line := strings.Split(string(src), "\n")[n.StartPosition().Row]
				t.Logf("%s:%d: %s", p, n.StartPosition().Row+1, strings.TrimSpace(line))
				return true
			}
			for i := uint(0); i < n.ChildCount(); i++ {
				if c := n.Child(i); c.HasError() && find(c) {
					return true
				}
			}
			return false
		}
		find(tree.RootNode())
		return nil
	})
}

func cpuNow() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func TestZZCPU(t *testing.T) {
	root := os.Getenv("CS_TIMING")
	if root == "" {
		t.Skip()
	}
	var files []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if strings.HasSuffix(p, ".cs") {
			files = append(files, p)
		}
		return nil
	})
	ps := sitter.NewParser()
	ps.SetLanguage(sitter.NewLanguage(tscsharp.Language()))
	repo := extract.NewRepo(root)
	type pf struct {
		src  []byte
		tree *sitter.Tree
		rel  string
	}
	var all []pf
	c0 := cpuNow()
	for _, p := range files {
		src, _ := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		all = append(all, pf{src, ps.Parse(src, nil), rel})
	}
	c1 := cpuNow()
	for _, f := range all {
		r := &extract.FileResult{Path: f.rel}
		extractCSharp(&extract.File{Path: f.rel, Src: f.src, Root: f.tree.RootNode(), Repo: repo}, r)
	}
	c2 := cpuNow()
	t.Logf("cpu: parse %v extract %v", c1-c0, c2-c1)
}
