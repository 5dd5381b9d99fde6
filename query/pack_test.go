package query

import (
	"context"
	"slices"
	"testing"
)

func TestBudgetPacking(t *testing.T) {
	e := newShop().engine(t)
	full := query(t, e, "memory store get put item")
	r, err := e.Query(context.Background(), "memory store get put item", Options{Limit: 20, Budget: 40})
	if err != nil {
		t.Fatal(err)
	}
	if r.Stats.Tokens > 40 {
		t.Errorf("packed %d tokens into a budget of 40", r.Stats.Tokens)
	}
	if len(r.Results) >= len(full.Results) {
		t.Errorf("a small budget kept all %d results", len(r.Results))
	}
	for i := 1; i < len(r.Results); i++ {
		if r.Results[i].Score > r.Results[i-1].Score {
			t.Errorf("packed results not in score order: %v", symbols(r))
		}
	}
	lim, _ := e.Query(context.Background(), "memory store get put item", Options{Limit: 2})
	if len(lim.Results) != 2 {
		t.Errorf("limit 2 gave %d", len(lim.Results))
	}
}

func TestDocSummaries(t *testing.T) {
	e := newShop().engine(t)
	task := "check the api key"
	plain, err := e.Query(context.Background(), task, Options{Limit: 20})
	if err != nil {
		t.Fatal(err)
	}
	withDocs, err := e.Query(context.Background(), task, Options{Limit: 20, Docs: true})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(symbols(plain), symbols(withDocs)) {
		t.Fatalf("docs changed the ranking: %v vs %v", symbols(plain), symbols(withDocs))
	}
	want := map[string]string{
		"shop/server.CheckAPIKey":      "CheckAPIKey validates the API key header.",
		"shop/server.authMiddleware":   "authMiddleware rejects requests without a valid key.",
		"shop/store.MemoryStore.Get":   "",
		"shop/server.Server.HandleGet": "HandleGet fetches one item.",
	}
	sum := 0
	for i, it := range withDocs.Results {
		if plain.Results[i].Doc != "" {
			t.Errorf("%s has a doc without Options.Docs", it.Symbol)
		}
		if w, ok := want[it.Symbol]; ok && it.Doc != w {
			t.Errorf("%s: doc %q, want %q", it.Symbol, it.Doc, w)
		}
		if extra := it.Tokens - plain.Results[i].Tokens; extra != (len(it.Doc)+3)/4 {
			t.Errorf("%s: %d tokens more for a %d-byte summary", it.Symbol, extra, len(it.Doc))
		}
		sum += it.Tokens
	}
	if rankOf(withDocs, "server.CheckAPIKey") == 0 {
		t.Fatalf("CheckAPIKey not found: %v", symbols(withDocs))
	}
	if withDocs.Stats.Tokens != sum {
		t.Errorf("stats count %d tokens, the results %d", withDocs.Stats.Tokens, sum)
	}
	// A budget that holds the results but not their summaries: the
	// summaries go, the budget holds.
	tight, err := e.Query(context.Background(), task, Options{Limit: 20, Docs: true, Budget: plain.Stats.Tokens})
	if err != nil {
		t.Fatal(err)
	}
	if tight.Stats.Tokens > plain.Stats.Tokens {
		t.Errorf("packed %d tokens into a budget of %d", tight.Stats.Tokens, plain.Stats.Tokens)
	}
	if !slices.Equal(symbols(tight), symbols(plain)) {
		t.Errorf("summaries pushed results out of the budget: %v, want %v", symbols(tight), symbols(plain))
	}
}

// TestSmallBudgetTakesBestFirst: when the budget cannot hold every
// candidate, the results are the best-scored candidates that fit, in
// score order: a result is left out only for one scored at least as high,
// or for lack of room. Packing by score per token (PackByScore=0) filled
// small budgets with small, weak symbols instead.
func TestSmallBudgetTakesBestFirst(t *testing.T) {
	e := newShop().engine(t)
	task := "memory store get put item"
	full, err := e.Query(context.Background(), task, Options{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	for _, budget := range []int{10, 25, 40, 80} {
		r, err := e.Query(context.Background(), task, Options{Limit: 100, Budget: budget})
		if err != nil {
			t.Fatal(err)
		}
		// Replay the rule over the full ranking: take each result that
		// still fits, best first.
		var want []string
		used, names := 0, symbols(full)
		for i, it := range full.Results {
			if used+it.Tokens <= budget {
				want = append(want, names[i])
				used += it.Tokens
			}
		}
		if got := symbols(r); !slices.Equal(got, want) {
			t.Errorf("budget %d: %v, want %v", budget, got, want)
		}
	}
}
