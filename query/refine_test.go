package query

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/knowing-dev/knowing/snapshot"
)

// TestCommonWordsInSmallRepos: a word in a fifth of a small repository's
// documents is still a word to search for, and a large repository drops
// its everywhere-words unless nothing else is left.
func TestCommonWordsInSmallRepos(t *testing.T) {
	e := newShop().engine(t)
	// "store" is in 11 of the shop's 18 documents.
	if r := query(t, e, "store"); rankOf(r, "store.Store") == 0 {
		t.Errorf("store: %v (%s)", symbols(r), r.Stats.Message)
	}

	g := &snapshot.Graph{Files: []snapshot.File{{Path: "w/widget.go", Lang: snapshot.LangGo}}}
	for i := 0; i < 400; i++ {
		name := fmt.Sprintf("Part%d", i)
		if i < 3 {
			name = fmt.Sprintf("Render%d", i)
		}
		g.Nodes = append(g.Nodes, snapshot.Node{Name: name, QName: "widget.Widget." + name, Kind: snapshot.KindMethod,
			Lang: snapshot.LangGo, File: 0, StartLine: 1, EndLine: 2, Signature: "func (w *Widget) " + name + "()"})
	}
	path := filepath.Join(t.TempDir(), "w.snap")
	if err := snapshot.Write(path, g, nil); err != nil {
		t.Fatal(err)
	}
	snap, err := snapshot.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Close()
	big, err := New(snap)
	if err != nil {
		t.Fatal(err)
	}
	kw := ExtractKeywords("render the widget")
	big.dropCommon(&kw)
	if slices.Contains(kw.Components, "widget") || !slices.Contains(kw.Components, "render") {
		t.Errorf("render the widget: components %v, want render without widget", kw.Components)
	}
	kw = ExtractKeywords("the widget")
	big.dropCommon(&kw)
	if !slices.Contains(kw.Components, "widget") {
		t.Errorf("the widget: components %v: the only word was dropped", kw.Components)
	}
}

// TestDottedReferences checks that a dotted name written as plain words
// (app.use, not `app.use`) finds the symbol it names when the index has
// one, and that dotted prose naming nothing leaves the keywords alone.
func TestDottedReferences(t *testing.T) {
	s, add := tinyShop(snapshot.File{Path: "lib/application.js", Lang: snapshot.LangJavaScript})
	add("lib.application.app", snapshot.KindVariable, 0, "The application prototype.")
	add("lib.application.app.use", snapshot.KindFunction, 0, "Proxy Router#use() to add middleware to the app router.")
	add("lib.application.app.param", snapshot.KindFunction, 0, "Map a route parameter to a callback: middleware run for every request whose path holds it.")
	add("lib.application.app.handle", snapshot.KindFunction, 0, "Dispatch a request into the app's middleware stack.")
	add("lib.application.app.route", snapshot.KindFunction, 0, "Create a new route for a path, with its own middleware stack.")
	e := s.engine(t)
	r := query(t, e, "app.use should accept an array of middleware functions")
	if rk := rankOf(r, "lib.application.app.use"); rk != 1 {
		t.Errorf("app.use at rank %d: %v", rk, symbols(r))
	}
	kw := ExtractKeywords("see the notes at example.org, e.g. the app.route one")
	e.keepReferences(&kw)
	if !slices.Equal(kw.Exact, []string{"app.route", "route"}) {
		t.Errorf("exact %q, want [app.route route]: only a dotted name the index has is promoted", kw.Exact)
	}
}

// TestTraceFramesResolve checks that a frame finds the function of its
// name in its file, by the file's last elements when the trace ran an
// installed copy, and by the frame's line among same-named functions.
func TestTraceFramesResolve(t *testing.T) {
	s, _ := tinyShop(snapshot.File{Path: "src/shop/app.py", Lang: snapshot.LangPython},
		snapshot.File{Path: "src/other/app.py", Lang: snapshot.LangPython})
	at := func(q string, file int32, start, end uint32) {
		s.add(q, snapshot.KindFunction, file, 0, "", "")
		s.g.Nodes[len(s.g.Nodes)-1].StartLine, s.g.Nodes[len(s.g.Nodes)-1].EndLine = start, end
	}
	at("shop.app.dispatch", 0, 10, 20)
	at("shop.app.Inner.dispatch", 0, 30, 40)
	at("other.app.dispatch", 1, 1, 50)
	e := s.engine(t)
	kw := ExtractKeywords("Traceback (most recent call last):\n" +
		"  File \"/venv/lib/python3.11/site-packages/shop/app.py\", line 35, in dispatch\n" +
		"KeyError: 'x'")
	e.keepFrames(&kw)
	if !slices.Equal(kw.Exact, []string{"shop/shop.app.Inner.dispatch"}) {
		t.Errorf("exact %q, want the dispatch of shop/app.py holding line 35", kw.Exact)
	}
	r := query(t, e, "Traceback (most recent call last):\n  File \"/venv/site-packages/shop/app.py\", line 35, in dispatch\nKeyError: 'x'")
	if rk := rankOf(r, "shop.app.Inner.dispatch"); rk != 1 {
		t.Errorf("shop.app.Inner.dispatch at rank %d: %v", rk, symbols(r))
	}
}

// TestLocationsResolve checks that a quoted file:line finds the
// innermost symbol holding that line, in the file its path's last
// elements name.
func TestLocationsResolve(t *testing.T) {
	s, _ := tinyShop(snapshot.File{Path: "crates/ignore/src/walk.rs", Lang: snapshot.LangRust},
		snapshot.File{Path: "crates/other/src/walk.rs", Lang: snapshot.LangRust})
	at := func(q string, k snapshot.Kind, file int32, start, end uint32) {
		s.add(q, k, file, 0, "", "")
		s.g.Nodes[len(s.g.Nodes)-1].StartLine, s.g.Nodes[len(s.g.Nodes)-1].EndLine = start, end
	}
	at("ignore.walk.Walk", snapshot.KindStruct, 0, 1100, 1300)
	at("ignore.walk.Walk.next", snapshot.KindMethod, 0, 1190, 1250)
	at("ignore.walk.Walk.new", snapshot.KindMethod, 0, 1120, 1180)
	at("other.walk.step", snapshot.KindFunction, 1, 1150, 1260)
	e := s.engine(t)
	r := query(t, e, "thread 'main' panicked at /home/me/ripgrep/crates/ignore/src/walk.rs:1200:9: called unwrap on a None value")
	if rk := rankOf(r, "ignore.walk.Walk.next"); rk != 1 {
		t.Errorf("Walk.next at rank %d: %v", rk, symbols(r))
	}
}

// TestSpareComponents checks that words beyond the component cap take
// the places of words the index cannot match: a long task's last word
// still finds its symbol.
func TestSpareComponents(t *testing.T) {
	e := newShop().engine(t)
	task := "Customers complain about sluggish flaky wobbly jittery confusing pages, blurry pictures, odd colours, broken fonts, strange layouts and garbled headings; fix how we render"
	kw := ExtractKeywords(task)
	if slices.Contains(kw.Components, "render") || !slices.Contains(kw.spare, "render") {
		t.Fatalf("components %v, spare %v: want render beyond the cap", kw.Components, kw.spare)
	}
	e.dropCommon(&kw)
	e.fillComponents(&kw)
	if !slices.Contains(kw.Components, "render") || slices.Contains(kw.Components, "sluggish") {
		t.Errorf("components %v: want render in the place of words the index lacks", kw.Components)
	}
	if _, ok := kw.Pos["sluggish"]; ok || kw.Pos["render"] == 0 {
		t.Errorf("positions %v: want render's, not sluggish's", kw.Pos)
	}
	if r := query(t, e, task); rankOf(r, "server.render") == 0 {
		t.Errorf("%s: %v", task, symbols(r))
	}
}
