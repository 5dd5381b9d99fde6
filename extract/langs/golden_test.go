package langs_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/knowing-dev/knowing/extract/extracttest"
	_ "github.com/knowing-dev/knowing/extract/langs"
	"github.com/knowing-dev/knowing/snapshot"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// goldenLangs are the test repositories under testdata/, one per language.
var goldenLangs = []string{"go", "python", "javascript", "java", "csharp", "ruby", "rust", "c", "cpp"}

// TestGolden extracts each test repository and compares its graph, as text,
// with testdata/golden/<lang>.golden: a change of what any extractor or the
// resolver finds shows up in review as a diff of that file. Regenerate with
//
//	go test ./extract/... -run Golden -update
func TestGolden(t *testing.T) {
	for _, lang := range goldenLangs {
		t.Run(lang, func(t *testing.T) {
			b := extracttest.BuildDir(t, filepath.Join("..", "..", "testdata", lang))
			got := dumpGraph(b.G)
			file := filepath.Join("..", "..", "testdata", "golden", lang+".golden")
			if *update {
				if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("the graph of testdata/%s differs from %s (run with -update to accept it):\n%s",
					lang, file, lineDiff(string(want), got))
			}
		})
	}
}

// dumpGraph writes g as sorted lines: one per node,
//
//	node <qualified name> <kind> <file>:<start>-<end> <flags>
//
// then one per edge, with the qualified names of its ends,
//
//	edge <from> -<type>-> <to> <confidence>
//
// Node ids, build times and the root's absolute path are left out: the text
// depends on what was extracted alone.
func dumpGraph(g *snapshot.Graph) string {
	var nodes, edges []string
	for _, n := range g.Nodes {
		file := "-"
		if n.File >= 0 {
			file = g.Files[n.File].Path
		}
		nodes = append(nodes, fmt.Sprintf("node %s %s %s:%d-%d %s", n.QName, n.Kind, file, n.StartLine, n.EndLine, n.Flags))
	}
	for _, e := range g.Edges {
		edges = append(edges, fmt.Sprintf("edge %s -%s-> %s %.2f", g.Nodes[e.From].QName, e.Type, g.Nodes[e.To].QName, e.Confidence))
	}
	sort.Strings(nodes)
	sort.Strings(edges)
	var sb strings.Builder
	for _, l := range append(nodes, edges...) {
		sb.WriteString(strings.TrimRight(l, " "))
		sb.WriteByte('\n')
	}
	return sb.String()
}

// lineDiff lists the lines only in want (-) and only in got (+), at most
// 40 of them.
func lineDiff(want, got string) string {
	count := map[string]int{}
	for _, l := range strings.Split(want, "\n") {
		count[l]++
	}
	for _, l := range strings.Split(got, "\n") {
		count[l]--
	}
	var out []string
	for l, c := range count {
		for ; c > 0; c-- {
			out = append(out, "- "+l)
		}
		for ; c < 0; c++ {
			out = append(out, "+ "+l)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i][2:] < out[j][2:] || out[i][2:] == out[j][2:] && out[i] < out[j] })
	if len(out) > 40 {
		out = append(out[:40], fmt.Sprintf("... and %d more", len(out)-40))
	}
	return strings.Join(out, "\n")
}
