package fst

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
)

// keySet draws n distinct keys of one of several shapes, sorted, with
// values of every packed size. Shape -1 draws each key's shape among the
// first three.
func keySet(r *rand.Rand, n, shape int) ([]string, map[string]uint64) {
	vals := map[string]uint64{}
	for len(vals) < n {
		var k []byte
		s := shape
		if s < 0 {
			s = r.IntN(3)
		}
		switch s {
		case 0: // any bytes
			for j := 0; j < 1+r.IntN(6); j++ {
				k = append(k, byte(r.IntN(256)))
			}
		case 1: // identifier-like
			k = []byte(strings.ToLower(randomName(r)))
		case 2: // 256-way fan-out under a shared prefix
			k = []byte{'f', byte(r.IntN(256)), 'z'}
		case 3: // long keys sharing long prefixes and suffixes
			k = []byte(strings.Repeat("prefix/", 1+r.IntN(12)) + randomName(r) + strings.Repeat(".suffix", r.IntN(3)))
		case 4: // numbers: many states, dense outputs
			k = fmt.Appendf(nil, "%d", r.IntN(1_000_000))
		}
		var v uint64
		switch r.IntN(4) {
		case 0:
			v = 0
		case 1:
			v = uint64(r.IntN(300))
		case 2:
			v = uint64(len(vals)) // increasing with the draw, not the key
		default:
			v = r.Uint64() >> r.IntN(64)
		}
		vals[string(k)] = v
	}
	keys := make([]string, 0, len(vals))
	for k := range vals {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys, vals
}

// TestBuilderMatchesVellum builds the same keys with vellum and with
// Builder: the bytes must be identical, including when the key count is
// large enough that the registry evicts states, and when one Builder is
// reused across FSTs.
func TestBuilderMatchesVellum(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	b := NewBuilder(0)
	for round := 0; round < 60; round++ {
		n := r.IntN(4000)
		switch round {
		case 0:
			n = 0
		case 1:
			n = 1
		case 3, 4:
			n = 60000 // past the registry's 20000 cells
		}
		shape := round % 5
		if shape == 2 {
			n = min(n, 256) // there are no more
		}
		keys, vals := keySet(r, n, shape)
		if round%7 == 6 {
			// the empty key, allowed first only
			keys = append([]string{""}, keys...)
			vals[""] = r.Uint64() >> r.IntN(64)
		}
		want := buildFST(t, keys, vals)
		b.Reset(0)
		for _, k := range keys {
			if err := b.Insert(k, vals[k]); err != nil {
				t.Fatalf("round %d: insert %q: %v", round, k, err)
			}
		}
		if err := b.Close(); err != nil {
			t.Fatal(err)
		}
		got := b.Bytes()
		if !bytes.Equal(got, want) {
			at := 0
			for at < min(len(got), len(want)) && got[at] == want[at] {
				at++
			}
			t.Fatalf("round %d (%d keys, shape %d): %d bytes, vellum %d; first difference at byte %d",
				round, len(keys), shape, len(got), len(want), at)
		}
		// and it reads back
		f, err := New(got, errTest)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range keys[:min(len(keys), 200)] {
			if v, ok, err := f.Get(k); !ok || err != nil || v != vals[k] {
				t.Fatalf("round %d: get %q = %d %v %v, want %d", round, k, v, ok, err, vals[k])
			}
		}
	}
}

func TestBuilderOrder(t *testing.T) {
	b := NewBuilder(0)
	for _, k := range []string{"b", "c"} {
		if err := b.Insert(k, 1); err != nil {
			t.Fatal(err)
		}
	}
	for _, k := range []string{"c", "a", ""} {
		if err := b.Insert(k, 1); !errors.Is(err, ErrOutOfOrder) {
			t.Fatalf("insert %q after c: %v, want ErrOutOfOrder", k, err)
		}
	}
}

// TestBuilderAllocs: once a Builder has built an FST, building another of
// the same size allocates nothing.
func TestBuilderAllocs(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	keys, vals := keySet(r, 5000, 1)
	b := NewBuilder(0)
	build := func() {
		b.Reset(0)
		for _, k := range keys {
			if err := b.Insert(k, vals[k]); err != nil {
				t.Fatal(err)
			}
		}
		if err := b.Close(); err != nil {
			t.Fatal(err)
		}
	}
	build()
	if a := testing.AllocsPerRun(5, build); a != 0 {
		t.Fatalf("%.0f allocations per FST, want 0", a)
	}
}
