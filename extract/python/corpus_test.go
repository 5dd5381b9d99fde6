package python

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

// TestFlaskCorpus extracts a checkout of Flask named by KNOWING_CORPUS_FLASK
// (skipped when unset) and checks the symbols retrieval benchmarks expect.
func TestFlaskCorpus(t *testing.T) {
	root := os.Getenv("KNOWING_CORPUS_FLASK")
	if root == "" {
		t.Skip("KNOWING_CORPUS_FLASK not set")
	}
	if _, err := os.Stat(root); err != nil {
		t.Skip(err)
	}
	var paths []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && p != root {
			return filepath.SkipDir
		}
		if !d.IsDir() && extract.Supported(p) && strings.HasSuffix(p, ".py") {
			rel, _ := filepath.Rel(root, p)
			paths = append(paths, filepath.ToSlash(rel))
		}
		return nil
	})
	start := time.Now()
	g, err := extract.ExtractFiles(root, paths)
	if err != nil {
		t.Fatal(err)
	}
	elapsed := time.Since(start)
	kinds := map[snapshot.Kind]int{}
	for _, n := range g.Nodes {
		kinds[n.Kind]++
	}
	edges := map[snapshot.EdgeType]int{}
	for _, e := range g.Edges {
		edges[e.Type]++
	}
	t.Logf("files %d, nodes %d, edges %d, %.3fs", len(g.Files), len(g.Nodes), len(g.Edges), elapsed.Seconds())
	var ks []string
	for k, c := range kinds {
		ks = append(ks, k.String()+"="+itoa(c))
	}
	sort.Strings(ks)
	t.Logf("nodes by kind: %s", strings.Join(ks, " "))
	var es []string
	for e, c := range edges {
		es = append(es, e.String()+"="+itoa(c))
	}
	sort.Strings(es)
	t.Logf("edges by type: %s", strings.Join(es, " "))

	qn := map[string]bool{}
	for _, n := range g.Nodes {
		qn[n.QName] = true
	}
	for _, want := range []string{
		"flask.sansio.scaffold.Scaffold.before_request",
		"flask.app.Flask.preprocess_request",
		"flask.app.Flask.full_dispatch_request",
		"flask.sansio.blueprints.Blueprint.before_app_request",
		"flask.cli.FlaskGroup",
		"flask.cli.AppGroup",
		"flask.cli.with_appcontext",
		"flask.sansio.app.App.add_url_rule",
		"flask.helpers.url_for",
		"flask.config.Config",
	} {
		if !qn[want] {
			t.Errorf("missing %s", want)
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
