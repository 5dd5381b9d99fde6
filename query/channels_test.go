package query

import (
	"strings"
	"testing"

	"github.com/knowing-dev/knowing/snapshot"
)

func TestTieredExactFirst(t *testing.T) {
	e := newShop().engine(t)
	ws := e.pool.Get().(*workspace)
	defer e.pool.Put(ws)
	ws.reset()
	kw := ExtractKeywords("fix `CheckAPIKey` so it accepts keys")
	got := e.tiered(ws, &kw)
	if len(got) == 0 || e.s.QName(got[0]) != "shop/server.CheckAPIKey" {
		t.Fatalf("exact match not first: %v", names(e, got))
	}
	// The prefix match (CheckAPIKeyTable) ranks after the exact one.
	for i, id := range got {
		if e.s.Name(id) == "CheckAPIKeyTable" && i == 0 {
			t.Fatalf("prefix before exact: %v", names(e, got))
		}
	}
}

// TestExactQualifiedFrame checks that a stack frame's whole qualified
// name picks its symbol out of namesakes (Adapter.read of several
// factories), and that a long qualified name the index lacks finds
// nothing rather than every symbol with its last name.
func TestExactQualifiedFrame(t *testing.T) {
	s := &shop{g: &snapshot.Graph{Files: []snapshot.File{{Path: "src/Factories.java", Lang: snapshot.LangJava}}}, ids: map[string]uint32{}}
	for _, q := range []string{"com.x.MapFactory.Adapter.read", "com.x.ReflectiveFactory.Adapter.read", "com.x.Reader.read"} {
		s.ids[q] = uint32(len(s.g.Nodes))
		s.g.Nodes = append(s.g.Nodes, snapshot.Node{Name: "read", QName: q, Kind: snapshot.KindMethod, Lang: snapshot.LangJava, File: 0, StartLine: 1, EndLine: 2})
	}
	e := s.engine(t)
	ws := e.pool.Get().(*workspace)
	defer e.pool.Put(ws)
	ws.reset()
	kw := ExtractKeywords("java.lang.IllegalStateException: boom\n\tat com.x.ReflectiveFactory$Adapter.read(Factories.java:12)")
	got := e.tiered(ws, &kw)
	if len(got) == 0 || e.s.QName(got[0]) != "com.x.ReflectiveFactory.Adapter.read" {
		t.Errorf("tiered %v, want the frame's own read first", names(e, got))
	}
	if ids := e.exact(ws, "com.y.Missing.read", true, 0); len(ids) != 0 {
		t.Errorf("an unknown qualified name found %v", names(e, ids))
	}
	if ids := e.exact(ws, "Missing.read", true, 0); len(ids) != 3 {
		t.Errorf("Container.name naming nothing should fall back to every read, got %v", names(e, ids))
	}
	if ids := e.exact(ws, "Missing.read", false, 0); len(ids) != 0 {
		t.Errorf("without fallback, Container.name naming nothing found %v", names(e, ids))
	}
}

func TestHasPart(t *testing.T) {
	cases := []struct {
		s, w string
		want bool
	}{
		{"net/url.URL.Query", "url", true},
		{"net/url.URL.Query", "query", true},
		{"flask.app.Flask.full_dispatch_request", "dispatch", true},
		{"caddyhttp.HeaderOps.ApplyToRequest", "request", true},
		{"caddyhttp.HeaderOps.ApplyToRequest", "apply", true},
		{"pkg.curlClient", "url", false},
		{"pkg.Requester", "request", true}, // a prefix of a part counts
		{"pkg.x", "longer", false},
	}
	for _, c := range cases {
		if got := HasPart(c.s, c.w); got != c.want {
			t.Errorf("HasPart(%q, %q) = %v", c.s, c.w, got)
		}
		if got := hasPartLower(c.s, []byte(strings.ToLower(c.s)), c.w); got != c.want {
			t.Errorf("hasPartLower(%q, %q) = %v", c.s, c.w, got)
		}
	}
}
