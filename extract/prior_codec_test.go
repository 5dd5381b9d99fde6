package extract

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/knowing-dev/knowing/snapshot"
)

// fill sets every field of the value v points to, recursively, to a
// value that is not its zero, so that a field the codec leaves out shows.
func fill(t *testing.T, v reflect.Value, n *int) {
	*n++
	switch v.Kind() {
	case reflect.String:
		v.SetString(strings.Repeat("s", *n%7+1) + "é")
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(*n))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(*n))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 2, 2)
		for i := 0; i < 2; i++ {
			fill(t, s.Index(i), n)
		}
		v.Set(s)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			fill(t, v.Field(i), n)
		}
	default:
		t.Fatalf("fill: a %s field (%s): teach the prior codec and this test about it", v.Kind(), v.Type())
	}
}

// TestPriorRoundTrip: every field of a FileResult, its symbols, refs and
// imports survives Marshal and UnmarshalPrior (a field added to them
// without the codec fails here), and so do the questions and reads.
func TestPriorRoundTrip(t *testing.T) {
	var r FileResult
	n := 0
	fill(t, reflect.ValueOf(&r).Elem(), &n)
	r.Path = "a/b.go"
	for i := range r.Symbols {
		// A build attaches a symbol's commits anew (history.go): the
		// prior does not keep them.
		r.Symbols[i].Commits, r.Symbols[i].History = nil, ""
	}
	p := &Prior{root: "/repo", maxFileSize: 1 << 20, exts: ".go .py", walkStart: 12345,
		files: map[string]*priorFile{r.Path: {r: &r, errLine: 7}, "empty.py": {r: &FileResult{Path: "empty.py", Lang: snapshot.LangPython}}},
		langs: map[snapshot.Lang]*priorLang{
			snapshot.LangGo:     {deps: map[depKey]uint64{{depRead, "go.mod"}: 99, {depStat, "x/go.mod"}: 0, {depAbove, "go.work"}: 1 << 63}, read: map[string]uint64{"go.mod": 99}},
			snapshot.LangPython: {deps: map[depKey]uint64{}, read: map[string]uint64{}},
		}}
	b, got := roundTrip(t, p)
	// A decoded prior encodes again to the same bytes, copying the files'
	// encodings.
	again, err := got.Marshal("v1")
	if err != nil || !reflect.DeepEqual(again, b) {
		t.Fatalf("encoding a decoded prior again: %v, equal %v", err, reflect.DeepEqual(again, b))
	}
	for _, pf := range got.files {
		if pf.raw == nil {
			t.Fatalf("%s: no encoding kept", pf.r.Path)
		}
		if pf.nrefs != len(p.files[pf.r.Path].r.Refs) || pf.nrefs > 0 && (pf.r.Refs != nil || pf.refs == nil) {
			t.Fatalf("%s: references decoded before a build needs them", pf.r.Path)
		}
		pf.materialize()
		pf.raw, pf.refs, pf.nrefs = nil, nil, 0
	}
	if !reflect.DeepEqual(got, p) {
		t.Fatalf("round trip:\n got %+v\nwant %+v\nfile %+v\nwant %+v", got, p, got.files[r.Path].r, &r)
	}
	if _, err := UnmarshalPrior(b, "v2"); !errors.Is(err, ErrPrior) {
		t.Errorf("another id: %v", err)
	}
	// Damage anywhere is an error (or, in a frame header field such as
	// the window size, changes nothing), never a panic or another Prior.
	for i := 0; i < len(b); i++ {
		d := append([]byte(nil), b...)
		d[i] ^= 0x41
		q, err := UnmarshalPrior(d, "v1")
		if err == nil {
			for _, pf := range q.files {
				pf.materialize()
				pf.raw, pf.refs, pf.nrefs = nil, nil, 0
			}
		}
		if err == nil && !reflect.DeepEqual(q, p) {
			t.Errorf("a flipped byte at %d of %d decoded to another prior", i, len(b))
		}
	}
	for _, cut := range []int{0, 5, 12, len(b) / 2, len(b) - 1} {
		if _, err := UnmarshalPrior(b[:cut], "v1"); err == nil {
			t.Errorf("cut at %d decoded", cut)
		}
	}
}

// TestPriorGraphRoundTrip: the resolved graph a build keeps survives the
// encoding, the lines and texts of the nodes the next build takes from
// its symbols aside (all of them for C, whose resolution reads them).
func TestPriorGraphRoundTrip(t *testing.T) {
	for _, lang := range []string{"go", "c"} {
		_, _, p, err := BuildIncremental(context.Background(), Options{Root: filepath.Join("..", "testdata", lang)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if p.graph == nil || len(p.graph.nodes) == 0 || len(p.graph.edges) == 0 {
			t.Fatalf("%s: no graph kept", lang)
		}
		_, got := roundTrip(t, p)
		pg, gg := p.graph, got.graph
		if gg == nil || !reflect.DeepEqual(gg.keys, pg.keys) || !reflect.DeepEqual(gg.edges, pg.edges) ||
			!reflect.DeepEqual(gg.symFile, pg.symFile) || !reflect.DeepEqual(gg.symIdx, pg.symIdx) || len(gg.files) != len(pg.files) {
			t.Fatalf("%s: the graph did not survive", lang)
		}
		files := p.sortedResults()
		patched := 0
		for id := range pg.nodes {
			want, have := pg.nodes[id], gg.nodes[id]
			if pg.patched(id, files) {
				patched++
				want.StartLine, want.EndLine, want.Signature, want.Doc, want.Body, want.Text, want.History = 0, 0, "", "", "", "", ""
			}
			if !reflect.DeepEqual(want, have) {
				t.Errorf("%s: node %d: %+v, want %+v", lang, id, have, want)
			}
		}
		if (lang == "c") != (patched == 0) {
			t.Errorf("%s: %d nodes patched", lang, patched)
		}
	}
}

// TestPriorGraphRawIsFresh: a graph reused from a decoded prior is kept
// by copying its encoding, which must be what encoding it afresh gives.
func TestPriorGraphRawIsFresh(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir() // a copy of testdata/go, to edit
	src := filepath.Join("..", "testdata", "go")
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(root, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err == nil {
			err = os.WriteFile(filepath.Join(root, rel), b, 0o644)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	_, _, p, err := BuildIncremental(ctx, Options{Root: root}, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, decoded := roundTrip(t, p)
	f := filepath.Join(root, "store", "memory.go")
	old, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f, append([]byte("// a line that moves every symbol\n"), old...), 0o644); err != nil {
		t.Fatal(err)
	}
	_, st, next, err := BuildIncremental(ctx, Options{Root: root}, decoded)
	if err != nil {
		t.Fatal(err)
	}
	if !st.Resolved || next.graph.raw == nil {
		t.Fatalf("the decoded resolution did not serve (%v) or its encoding was not kept", st.Resolved)
	}
	kept, err := next.Marshal("v1")
	if err != nil {
		t.Fatal(err)
	}
	next.graph.raw = nil
	for _, pf := range next.files {
		pf.materialize()
		pf.raw, pf.refs, pf.nrefs = nil, nil, 0
	}
	fresh, err := next.Marshal("v1")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(kept, fresh) {
		t.Error("the kept encoding differs from a fresh one")
	}
}

// roundTrip encodes p and decodes the bytes, failing the test on an
// error.
func roundTrip(t *testing.T, p *Prior) ([]byte, *Prior) {
	t.Helper()
	b, err := p.Marshal("v1")
	if err != nil {
		t.Fatal(err)
	}
	got, err := UnmarshalPrior(b, "v1")
	if err != nil {
		t.Fatal(err)
	}
	return b, got
}

// The decoder reads back varints the encoder wrote, and a truncated or
// overlong one fails with a message that names its kind; later reads give 0.
func TestPriorVarints(t *testing.T) {
	var e enc
	e.uvarint(300)
	e.varint(-5)
	e.uvarint(1 << 40)
	d := dec{b: e.b}
	if u, v, w := d.uvarint(), d.varint(), d.uvarint(); u != 300 || v != -5 || w != 1<<40 || d.err != nil || len(d.b) != 0 {
		t.Fatalf("read %d %d %d (err %v, %d bytes left)", u, v, w, d.err, len(d.b))
	}
	for _, c := range []struct {
		b    []byte
		read func(*dec) int64
		want string
	}{
		{[]byte{0x80}, func(d *dec) int64 { return int64(d.uvarint()) }, "bad uvarint"},
		{[]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}, func(d *dec) int64 { return int64(d.uvarint()) }, "bad uvarint"},
		{[]byte{0x80, 0x80}, func(d *dec) int64 { return d.varint() }, "bad varint"},
	} {
		d := dec{b: c.b}
		if v := c.read(&d); v != 0 || d.err == nil || d.err.Error() != c.want {
			t.Errorf("% x: read %d, err %v, want 0 and %q", c.b, v, d.err, c.want)
		}
		if v := d.uvarint(); v != 0 || d.err.Error() != c.want {
			t.Errorf("% x: a later read gave %d, err %v", c.b, v, d.err)
		}
	}
}
