package snapshot

import (
	"strings"
	"testing"
)

func TestZeroAllocs(t *testing.T) {
	if testing.CoverMode() != "" {
		t.Skip("coverage counters allocate")
	}
	g := randomGraph(9, 50, 3000, 12000)
	s := writeOpen(t, g, testOptions())
	var name string
	var id uint32
	for i, n := range g.Nodes {
		if len(s.LookupName(strings.ToLower(n.Name), nil)) > 1 {
			name, id = strings.ToLower(n.Name), uint32(i)
			break
		}
	}
	dst := make([]uint32, 0, 1024)
	it := s.NewNameIter()
	prefix := name[:2]
	// Warm the iterators' buffers and the cold cache.
	for _, x := range []*KeyIter{it} {
		x.Reset("")
		for x.Next() {
			dst = x.Nodes(dst[:0])
		}
	}
	s.Signature(id)

	cases := []struct {
		name string
		f    func()
	}{
		{"LookupName", func() { dst = s.LookupName(name, dst[:0]) }},
		{"LookupPart", func() { dst = s.LookupPart(name, dst[:0]) }},
		{"LookupMiss", func() { dst = s.LookupName("no-such-name", dst[:0]) }},
		{"NameIter", func() {
			it.Reset(prefix)
			for it.Next() {
				dst = it.Nodes(dst[:0])
				_ = it.Key()
			}
		}},
		{"Neighbors", func() {
			for _, dir := range []Direction{Out, In} {
				nb := s.Neighbors(id, dir)
				for nb.Next() {
					_, _, _ = nb.Node(), nb.Type(), nb.Confidence()
				}
			}
		}},
		{"Accessors", func() {
			_, _ = s.Name(id), s.QName(id)
			_, _, _ = s.Kind(id), s.Flags(id), s.FilePath(0)
		}},
		{"SignatureCached", func() { _, _ = s.Signature(id) }},
	}
	for _, c := range cases {
		if n := testing.AllocsPerRun(200, c.f); n != 0 {
			t.Errorf("%s: %v allocations per run, want 0", c.name, n)
		}
	}
	if len(s.LookupName(name, nil)) < 2 {
		t.Fatal("test name not shared")
	}
}
