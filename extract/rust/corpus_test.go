package rust

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/knowing-dev/knowing/extract"
	"github.com/knowing-dev/knowing/snapshot"
)

// TestCorpusCargo extracts a checkout of cargo (KNOWING_CORPUS_CARGO=dir)
// and checks the benchmark's ground-truth symbols. Skipped without it.
func TestCorpusCargo(t *testing.T) {
	root := os.Getenv("KNOWING_CORPUS_CARGO")
	if root == "" {
		t.Skip("KNOWING_CORPUS_CARGO not set")
	}
	var paths []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "target") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".rs") {
			rel, _ := filepath.Rel(root, p)
			paths = append(paths, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	g, err := extract.ExtractFiles(root, paths)
	if err != nil {
		t.Fatal(err)
	}
	elapsed := time.Since(start)
	byType := map[snapshot.EdgeType]int{}
	byConf := map[string]int{}
	for _, e := range g.Edges {
		byType[e.Type]++
		if e.Type == snapshot.EdgeCalls {
			switch {
			case e.Confidence >= 0.9:
				byConf["scope"]++
			case e.Confidence >= 0.8:
				byConf["typed"]++
			default:
				byConf["unique"]++
			}
		}
	}
	t.Logf("files %d nodes %d edges %d in %v", len(paths), len(g.Nodes), len(g.Edges), elapsed)
	var types []string
	for et, n := range byType {
		types = append(types, et.String()+"="+itoa(n))
	}
	sort.Strings(types)
	t.Logf("edges by type: %s", strings.Join(types, " "))
	t.Logf("calls by confidence: %v", byConf)
	qn := map[string]bool{}
	for _, n := range g.Nodes {
		qn[n.QName] = true
	}
	for _, q := range strings.Fields(os.Getenv("KNOWING_EXPECT")) {
		if !qn[q] {
			t.Errorf("missing %s", q)
		}
	}
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for n > 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(b)
}
