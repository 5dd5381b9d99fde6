package ruby_test

import (
	"context"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/knowing-dev/knowing/extract"
	_ "github.com/knowing-dev/knowing/extract/ruby"
	"github.com/knowing-dev/knowing/snapshot"
)

// TestCorpusJekyll builds the Jekyll checkout named by KNOWING_CORPUS_JEKYLL
// and checks the benchmark's ground-truth symbols exist under the expected
// qualified names. It is skipped when the variable is not set.
func TestCorpusJekyll(t *testing.T) {
	root := os.Getenv("KNOWING_CORPUS_JEKYLL")
	if root == "" {
		t.Skip("KNOWING_CORPUS_JEKYLL not set")
	}
	if _, err := os.Stat(root); err != nil {
		t.Skip(err)
	}
	g, st, err := extract.Build(context.Background(), extract.Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	byType := map[snapshot.EdgeType]int{}
	for _, e := range g.Edges {
		byType[e.Type]++
	}
	var types []snapshot.EdgeType
	for et := range byType {
		types = append(types, et)
	}
	sort.Slice(types, func(i, j int) bool { return types[i] < types[j] })
	t.Logf("files %d, symbols %d, nodes %d, edges %d, parse errors %d, %v",
		st.Files, st.Symbols, st.Nodes, st.Edges, st.ParseErrors, st.Elapsed)
	for _, et := range types {
		t.Logf("  %-12s %d", et, byType[et])
	}
	qnames := map[string]snapshot.Node{}
	for _, n := range g.Nodes {
		if _, dup := qnames[n.QName]; !dup {
			qnames[n.QName] = n
		}
	}
	for _, q := range []string{
		"Jekyll.Filters", "Jekyll.Filters.markdownify", "Jekyll.Filters.slugify",
		"Jekyll.EntryFilter.filter", "Jekyll.EntryFilter.special?", "Jekyll.Excerpt.initialize",
		"Jekyll.Document.generate_excerpt", "Jekyll.Tags.HighlightBlock.render", "Jekyll.Page.url",
		"Jekyll.Page.permalink",
	} {
		n, ok := qnames[q]
		if !ok {
			t.Errorf("ground-truth symbol %s missing", q)
			continue
		}
		doc, _, _ := strings.Cut(n.Doc, "\n")
		t.Logf("  found %s (%v) %q: %s", q, n.Kind, n.Signature, doc)
	}
}
