package query

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestResolve(t *testing.T) {
	e := newShop().engine(t)
	for _, ref := range []string{"shop/server.Server.HandleGet", "Server.HandleGet", "server::Server::HandleGet", "HandleGet"} {
		id, err := e.Resolve(ref)
		if err != nil || e.Snapshot().QName(id) != "shop/server.Server.HandleGet" {
			t.Errorf("Resolve(%q) = %v, %v", ref, e.Snapshot().QName(id), err)
		}
	}
	_, err := e.Resolve("Get")
	var amb *ErrAmbiguous
	if !errors.As(err, &amb) || !slices.Equal(amb.Candidates, []string{"shop/store.MemoryStore.Get", "shop/store.Store.Get", "shop/store.fakeStore.Get"}) {
		t.Errorf("Resolve(Get) = %v", err)
	}
	_, err = e.Resolve("HandleGot")
	var none *ErrNoSymbol
	if !errors.As(err, &none) || !slices.Contains(none.Near, "shop/server.Server.HandleGet") {
		t.Errorf("Resolve(HandleGot) = %v", err)
	}
}

func TestCallersCallees(t *testing.T) {
	e := newShop().engine(t)
	id := func(ref string) uint32 {
		t.Helper()
		x, err := e.Resolve(ref)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	names := func(hs []Hop) []string {
		var out []string
		for _, h := range hs {
			out = append(out, strings.TrimPrefix(h.Symbol, "shop/")+"@"+string(rune('0'+h.Depth)))
		}
		return out
	}
	if got := names(first(e.Callers(id("CheckAPIKey"), 1, 0))); !slices.Equal(got, []string{"server.authMiddleware@1"}) {
		t.Errorf("callers of CheckAPIKey: %v", got)
	}
	if got := names(first(e.Callees(id("Server.HandleGet"), 1, 0))); !slices.Equal(got, []string{"server.render@1", "store.Store.Get@1"}) {
		t.Errorf("callees of HandleGet: %v", got)
	}
	// Tests edges are not calls; a limit cuts the list.
	if got := names(first(e.Callers(id("Server.HandleGet"), 3, 0))); len(got) != 0 {
		t.Errorf("callers of HandleGet: %v", got)
	}
	if got, total := e.Callees(id("Server.HandleGet"), 1, 1); len(got) != 1 || total != 2 {
		t.Errorf("limit 1 gave %d of %d", len(got), total)
	}
}

func TestRefs(t *testing.T) {
	e := newShop().engine(t)
	id, err := e.Resolve("store.Store.Get")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	refs, _ := e.Refs(id, 0)
	for _, r := range refs {
		got = append(got, r.Edge+" "+strings.TrimPrefix(r.Symbol, "shop/"))
	}
	// contains comes before calls in the order of the edge types; the
	// member_of edge back to Store is not listed twice.
	if want := []string{"contains store.Store", "calls server.Server.HandleGet"}; !slices.Equal(got, want) {
		t.Errorf("refs of Store.Get: %q, want %q", got, want)
	}
}

// first is a list without its total.
func first[T any](list []T, _ int) []T { return list }

func TestImpact(t *testing.T) {
	e := newShop().engine(t)
	id := func(ref string) uint32 {
		t.Helper()
		x, err := e.Resolve(ref)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	got := func(out []Impacted, total int) map[string]string {
		m := map[string]string{}
		for _, o := range out {
			m[strings.TrimPrefix(o.Symbol, "shop/")] = o.Via + " " + strings.TrimPrefix(o.From, "shop/")
		}
		return m
	}
	// HandleGet calls Store.Get; its test exercises HandleGet.
	m := got(e.Impact([]uint32{id("store.Store.Get")}, 3, 0, 8000, false))
	if m["server.Server.HandleGet"] != "calls store.Store.Get" || m["server.TestHandleGet"] != "tests server.Server.HandleGet" || len(m) != 2 {
		t.Errorf("impact of Store.Get: %v", m)
	}
	// A type's implementers.
	m = got(e.Impact([]uint32{id("store.Store")}, 1, 0, 8000, false))
	if m["store.MemoryStore"] != "implements store.Store" || m["store.fakeStore"] != "implements store.Store" {
		t.Errorf("impact of Store: %v", m)
	}
	// The budget packs: a budget of one result's tokens keeps one.
	all, total := e.Impact([]uint32{id("store.Store.Get")}, 3, 0, 8000, false)
	one, total2 := e.Impact([]uint32{id("store.Store.Get")}, 3, 0, all[0].Tokens, false)
	if len(one) != 1 || total2 != total || one[0].Symbol != all[0].Symbol {
		t.Errorf("budget of one: %d results of %d", len(one), total2)
	}
}

func TestParseDiff(t *testing.T) {
	diff := `diff --git a/srv/a.go b/srv/a.go
--- a/srv/a.go
+++ b/srv/a.go
@@ -10,3 +10,4 @@ func A() {
 x
+y
@@ -40 +41,0 @@
-gone
@@ -50,0 +51,2 @@
+added
--- /dev/null
+++ b/new.go
@@ -0,0 +1,3 @@
+package x
--- a/old name.go	2026-01-01 00:00:00
+++ b/new name.go
@@ -7,2 +7,2 @@
`
	got, err := ParseDiff(strings.NewReader(diff))
	if err != nil {
		t.Fatal(err)
	}
	want := []Hunk{{"srv/a.go", 10, 12}, {"srv/a.go", 40, 40}, {"srv/a.go", 50, 50}, {"old name.go", 7, 8}}
	if !slices.Equal(got, want) {
		t.Errorf("ParseDiff = %v, want %v", got, want)
	}
	if _, err := ParseDiff(strings.NewReader("--- a/x.go\n@@ -z +1 @@\n")); err == nil {
		t.Error("a bad hunk header was read")
	}
}
