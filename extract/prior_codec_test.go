package extract

import (
	"errors"
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
	b, err := p.Marshal("v1")
	if err != nil {
		t.Fatal(err)
	}
	got, err := UnmarshalPrior(b, "v1")
	if err != nil {
		t.Fatal(err)
	}
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
		pf.raw = nil
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
				pf.raw = nil
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
