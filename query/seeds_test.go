package query

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/knowing-dev/knowing/snapshot"
)

func TestNoiseFiltered(t *testing.T) {
	e := newShop().engine(t)
	r := query(t, e, "get an item from the store, check the api key table")
	for _, s := range symbols(r) {
		if strings.Contains(s, "fakeStore") || strings.HasPrefix(s, "gen.") {
			t.Errorf("noise returned: %s in %v", s, symbols(r))
		}
	}
}

// TestCodeNamesSeedOutsideTheFocus: a function named in a stack frame seeds
// the walk even when most matches sit in another package.
func TestCodeNamesSeedOutsideTheFocus(t *testing.T) {
	sh := newShop()
	sh.ids["store.StoreCache"] = uint32(len(sh.g.Nodes))
	sh.g.Nodes = append(sh.g.Nodes, snapshot.Node{Name: "StoreCache", QName: "shop/store.StoreCache", Kind: snapshot.KindStruct,
		Lang: snapshot.LangGo, File: 0, StartLine: 1, EndLine: 9, Doc: "StoreCache is the store cache; eviction empties the store cache."})
	for i := 0; i < 30; i++ {
		q := fmt.Sprintf("store.storeCache%d", i)
		sh.ids[q] = uint32(len(sh.g.Nodes))
		sh.g.Nodes = append(sh.g.Nodes, snapshot.Node{Name: q[6:], QName: "shop/" + q, Kind: snapshot.KindFunction,
			Lang: snapshot.LangGo, File: 0, StartLine: 1, EndLine: 2, Doc: "store cache eviction"})
	}
	e := sh.engine(t)
	task := "`StoreCache` eviction fails: the store cache is empty after eviction\n\ngoroutine 1 [running]:\nshop/server.render(0x0)\n\tserver/server.go:12 +0x1d\n"
	ex, err := e.Why(context.Background(), task, "server.render", Options{})
	if err != nil || len(ex) != 1 {
		t.Fatalf("why: %v %v", ex, err)
	}
	if ex[0].FusedRank < 2 {
		t.Fatalf("the frame's function is the best match (fused rank %d): the test needs a stronger one", ex[0].FusedRank)
	}
	if !ex[0].Seed {
		t.Errorf("the frame's function is not a seed: %+v", ex[0])
	}
}

// TestNamespaceModules checks that a module holding only other modules and
// types (Ruby's wrapper around a class) is never a result, while a module
// with methods of its own is.
func TestNamespaceModules(t *testing.T) {
	s, add := tinyShop(snapshot.File{Path: "lib/cache/store.rb", Lang: snapshot.LangRuby}, snapshot.File{Path: "lib/cache/helpers.rb", Lang: snapshot.LangRuby})
	add("Cache", snapshot.KindModule, 0, "")
	add("Cache.Store", snapshot.KindClass, 0, "")
	add("Cache.Store.fetch", snapshot.KindMethod, 0, "")
	add("Cache.Helpers", snapshot.KindModule, 1, "")
	add("Cache.Helpers.cache_key", snapshot.KindMethod, 1, "")
	s.member("Cache", "Cache.Store")
	s.member("Cache.Store", "Cache.Store.fetch")
	s.member("Cache.Helpers", "Cache.Helpers.cache_key")
	e := s.engine(t)
	r := query(t, e, "cache store helpers fetch a cache key")
	if rankOf(r, "Cache") != 0 {
		t.Errorf("the namespace module Cache is a result: %v", symbols(r))
	}
	for _, want := range []string{"Cache.Helpers", "Cache.Store", "Cache.Store.fetch"} {
		if rankOf(r, want) == 0 {
			t.Errorf("%s missing: %v", want, symbols(r))
		}
	}
}
