package query

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
)

func TestWhyAgreesWithQuery(t *testing.T) {
	e := newShop().engine(t)
	task := "add a middleware that checks the API key header"
	r := query(t, e, task)
	ex, err := e.Why(context.Background(), task, "CheckAPIKey", Options{})
	if err != nil || len(ex) != 1 {
		t.Fatalf("why: %v %v", ex, err)
	}
	if ex[0].FinalRank != rankOf(r, "server.CheckAPIKey") || len(ex[0].Channels) == 0 || !ex[0].Seed {
		t.Errorf("why %+v disagrees with rank %d", ex[0], rankOf(r, "server.CheckAPIKey"))
	}
	if _, err := e.Why(context.Background(), task, "NoSuchThing", Options{}); !errors.Is(err, ErrSymbolNotFound) {
		t.Errorf("unknown symbol: %v", err)
	}
	// A task with no words to search for explains that, for a test
	// symbol too (it once dereferenced the missing trace).
	ex, err = e.Why(context.Background(), "the of and to", "TestHandleGet", Options{})
	if err != nil || len(ex) != 1 || len(ex[0].Notes) == 0 || !strings.Contains(ex[0].Notes[0], "nothing was searched") {
		t.Errorf("why with a wordless task: %+v %v", ex, err)
	}
	// The parts add up to the score, for every symbol the tasks rank.
	boosted := 0
	for _, task := range []string{task, "call MemoryStore.Get to fetch an item from the store"} {
		for _, it := range query(t, e, task).Results {
			exs, err := e.Why(context.Background(), task, it.Symbol, Options{})
			if err != nil || len(exs) == 0 {
				t.Fatalf("why %s: %v", it.Symbol, err)
			}
			x, w := exs[0], exs[0].Weights
			sum := (x.Blast*w.Blast+x.Confidence*w.Confidence+x.Recency*w.Recency+x.Distance*w.Distance+
				x.Match*w.Match+x.Cover*w.Cover+x.AuthorityAdj)*x.KindFactor*x.TestPenalty + x.MemberBoost
			if math.Abs(sum-x.Score) > 1e-9 {
				t.Errorf("%s: the parts add up to %v, the score is %v: %+v", it.Symbol, sum, x.Score, x)
			}
			if x.MemberBoost != 0 {
				boosted++
			}
		}
	}
	if boosted == 0 {
		t.Error("no explanation shows a member or type boost")
	}
}
