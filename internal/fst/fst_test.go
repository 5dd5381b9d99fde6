package fst

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/blevesearch/vellum"
)

func buildFST(t *testing.T, keys []string, vals map[string]uint64) []byte {
	t.Helper()
	var buf bytes.Buffer
	b, err := vellum.New(&buf, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		if err := b.Insert([]byte(k), vals[k]); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestFSTWalkerMatchesVellum compares the walker with vellum's own
// decoder on key sets that use every byte value, shared prefixes and
// suffixes, and outputs of every packed size.
func TestFSTWalkerMatchesVellum(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for round := 0; round < 20; round++ {
		vals := map[string]uint64{}
		n := r.IntN(3000)
		if round == 0 {
			n = 0
		}
		for len(vals) < n {
			var k []byte
			switch r.IntN(3) {
			case 0: // any bytes
				for j := 0; j < 1+r.IntN(6); j++ {
					k = append(k, byte(r.IntN(256)))
				}
			case 1: // identifier-like
				k = []byte(strings.ToLower(randomName(r)))
			case 2: // 256-way fan-out under a shared prefix
				k = []byte{'f', byte(r.IntN(256)), 'z'}
			}
			v := r.Uint64() >> (r.IntN(64))
			if round == 1 {
				v = 0
			}
			vals[string(k)] = v
		}
		keys := make([]string, 0, len(vals))
		for k := range vals {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		data := buildFST(t, keys, vals)
		f, err := New(data, errTest)
		if err != nil {
			t.Fatal(err)
		}
		if f.count != uint64(len(keys)) {
			t.Fatalf("count %d, want %d", f.count, len(keys))
		}
		for _, k := range keys {
			v, ok, err := f.Get(k)
			if !ok || err != nil || v != vals[k] {
				t.Fatalf("get %q: %d %v %v, want %d", k, v, ok, err, vals[k])
			}
			if _, in := vals[k+"\x00"]; !in {
				if _, ok, _ := f.Get(k + "\x00"); ok {
					t.Fatalf("get %q+NUL: found a missing key", k)
				}
			}
		}
		// prefixes: the walker against a filter of the sorted keys
		var w Walk
		for _, p := range []string{"", "f", "f\xff", "\xff", "pa", "a", "\x00"} {
			w.Reset(&f, p)
			var got []string
			for w.Next() {
				got = append(got, string(w.Key()))
				if w.Value() != vals[string(w.Key())] {
					t.Fatalf("walk %q: value of %q is %d, want %d", p, w.Key(), w.Value(), vals[string(w.Key())])
				}
			}
			if w.Err() != nil {
				t.Fatal(w.Err())
			}
			var want []string
			for _, k := range keys {
				if strings.HasPrefix(k, p) {
					want = append(want, k)
				}
			}
			if !slices.Equal(got, want) {
				t.Fatalf("round %d walk %q: %d keys, want %d", round, p, len(got), len(want))
			}
		}
	}
}

// TestFSTWalkerCorrupt mutates FST bytes: the walker may fail, but never
// panics and always stops.
func TestFSTWalkerCorrupt(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	vals := map[string]uint64{}
	for len(vals) < 500 {
		vals[strings.ToLower(randomName(r))] = r.Uint64N(1 << 20)
	}
	keys := make([]string, 0, len(vals))
	for k := range vals {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	clean := buildFST(t, keys, vals)
	for i := 0; i < 3000; i++ {
		data := append([]byte(nil), clean...)
		for j := 0; j < 1+r.IntN(8); j++ {
			data[r.IntN(len(data))] = byte(r.IntN(256))
		}
		f, err := New(data, errTest)
		if err != nil {
			continue
		}
		for _, k := range keys[:20] {
			f.Get(k)
		}
		var w Walk
		w.Reset(&f, "")
		for n := 0; w.Next(); n++ {
			if n > 1<<20 {
				t.Fatal("walk does not end")
			}
		}
	}
}

var errTest = errors.New("test: corrupt")

var nameWords = []string{"get", "set", "parse", "config", "server", "request", "handler", "user", "item", "store",
	"read", "write", "cache", "index", "node", "path", "query", "token", "value", "list", "map", "load", "save"}

// randomName joins one to three words, camelCase or snake_case.
func randomName(r *rand.Rand) string {
	var b strings.Builder
	snake := r.IntN(2) == 0
	for i := 1 + r.IntN(3); i > 0; i-- {
		w := nameWords[r.IntN(len(nameWords))]
		if b.Len() > 0 {
			if snake {
				b.WriteByte('_')
			} else {
				w = strings.ToUpper(w[:1]) + w[1:]
			}
		}
		b.WriteString(w)
	}
	return b.String()
}
