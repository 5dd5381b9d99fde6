package java_test

import (
	"context"
	"os"
	"sort"
	"testing"

	"github.com/knowing-dev/knowing/extract"
	"github.com/knowing-dev/knowing/snapshot"
)

// TestSparkCorpus builds the spark-java checkout named by
// KNOWING_CORPUS_SPARK and checks the symbols the benchmark's ground truth
// names. It is skipped when the variable is unset.
func TestSparkCorpus(t *testing.T) {
	root := os.Getenv("KNOWING_CORPUS_SPARK")
	if root == "" {
		t.Skip("KNOWING_CORPUS_SPARK not set")
	}
	g, st, err := extract.Build(context.Background(), extract.Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("files %d, symbols %d, nodes %d, edges %d, parse errors %d, %v",
		st.Files, st.Symbols, st.Nodes, st.Edges, st.ParseErrors, st.Elapsed)
	byType := map[snapshot.EdgeType]int{}
	for _, e := range g.Edges {
		byType[e.Type]++
	}
	var types []snapshot.EdgeType
	for et := range byType {
		types = append(types, et)
	}
	sort.Slice(types, func(i, j int) bool { return types[i] < types[j] })
	for _, et := range types {
		t.Logf("  %-12s %d", et, byType[et])
	}
	byQName := map[string][]snapshot.Node{}
	for _, n := range g.Nodes {
		byQName[n.QName] = append(byQName[n.QName], n)
	}
	for _, q := range []string{
		"spark.Routable.after", "spark.Filter.handle", "spark.http.matching.AfterFilters.execute",
		"spark.Response.header", "spark.Spark.after", "spark.http.matching.BeforeFilters.execute",
		"spark.FilterImpl.FilterImpl", "spark.Routable.before", "spark.route.Routes.add",
		"spark.route.HttpMethod", "spark.HaltException.getStatusCode", "spark.http.matching.Halt.modify",
		"spark.Request.queryParams", "spark.QueryParamsMap.value",
	} {
		ns := byQName[q]
		if len(ns) == 0 {
			t.Errorf("missing %s", q)
			continue
		}
		t.Logf("found %-40s %s ×%d", q, ns[0].Kind, len(ns))
	}
	// Service declares no before(): it inherits Routable's.
	inherits := false
	for _, e := range g.Edges {
		if e.Type == snapshot.EdgeInherits && g.Nodes[e.From].QName == "spark.Service" && g.Nodes[e.To].QName == "spark.Routable.before" {
			inherits = true
		}
	}
	if !inherits {
		t.Errorf("no edge spark.Service -inherits-> spark.Routable.before")
	}
}
