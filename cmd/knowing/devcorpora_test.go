package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/knowing-dev/knowing/eval"
	"github.com/knowing-dev/knowing/query"
	"github.com/knowing-dev/knowing/snapshot"
)

// TestDevCorpora builds a snapshot of each dev corpus found under
// $KNOWING_CORPORA (folders named as the fixtures' repo field: flask,
// caddy, cargo, spark-java, jekyll) and evaluates every dev fixture,
// printing one table. It is run by hand:
//
//	KNOWING_CORPORA=~/corpus go test ./cmd/knowing -run TestDevCorpora -v -timeout 30m
//
// KNOWING_FIXTURES overrides the fixture folder (default
// ../../../shared/bench/fixtures, beside the repository); KNOWING_SNAPS
// keeps the snapshots in that folder and reuses them when present.
func TestDevCorpora(t *testing.T) {
	root := os.Getenv("KNOWING_CORPORA")
	if root == "" {
		t.Skip("set KNOWING_CORPORA to the folder holding the extracted dev corpora")
	}
	fixtures := os.Getenv("KNOWING_FIXTURES")
	if fixtures == "" {
		fixtures = "../../../shared/bench/fixtures"
	}
	fx, err := eval.LoadDir(fixtures)
	if err != nil {
		t.Fatal(err)
	}
	snaps := os.Getenv("KNOWING_SNAPS")
	if snaps == "" {
		snaps = t.TempDir()
	}
	repos := map[string]bool{}
	for _, f := range fx {
		repos[f.Repo] = true
	}
	names := make([]string, 0, len(repos))
	for r := range repos {
		names = append(names, r)
	}
	sort.Strings(names)
	engines := map[string]*query.Engine{}
	var build strings.Builder
	for _, r := range names {
		dir := filepath.Join(root, r)
		if _, err := os.Stat(dir); err != nil {
			t.Logf("skipping %s: %v", r, err)
			continue
		}
		snap := filepath.Join(snaps, r+".snap")
		if _, err := os.Stat(snap); err != nil || os.Getenv("KNOWING_SNAPS") == "" {
			start := time.Now()
			if code, _, errs := knowing(t, "", "build", "--quiet", "--repo", dir, snap); code != 0 {
				t.Fatalf("build %s: %s", r, errs)
			}
			st, _ := os.Stat(snap)
			fmt.Fprintf(&build, "%-12s built in %5.1fs, %s\n", r, time.Since(start).Seconds(), humanBytes(st.Size()))
		}
		s, err := snapshot.Open(snap)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		e, err := newEngine(s)
		if err != nil {
			t.Fatal(err)
		}
		engines[r] = e
	}
	var kept []eval.Fixture
	for _, f := range fx {
		if engines[f.Repo] != nil {
			kept = append(kept, f)
		}
	}
	retrieve := func(ctx context.Context, f eval.Fixture) ([]string, time.Duration, error) {
		start := time.Now()
		res, err := engines[f.Repo].Query(ctx, f.Description, query.Options{Limit: eval.K})
		el := time.Since(start)
		if err != nil {
			return nil, el, err
		}
		out := make([]string, len(res.Results))
		for i, it := range res.Results {
			out[i] = it.Symbol
		}
		return out, el, nil
	}
	for _, m := range []eval.Matcher{eval.Strict, eval.Lenient} {
		rep, err := eval.Run(context.Background(), kept, retrieve, eval.Options{Matcher: m})
		if err != nil {
			t.Fatal(err)
		}
		var sb strings.Builder
		if os.Getenv("KNOWING_DEV_FIXTURES") == "" {
			rep.Fixtures = nil
		}
		rep.WriteText(&sb)
		t.Logf("\n%s%s", build.String(), sb.String())
		build.Reset()
	}
}
