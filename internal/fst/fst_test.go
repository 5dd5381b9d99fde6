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
		n := r.IntN(3000)
		if round == 0 {
			n = 0
		}
		keys, vals := keySet(r, n, -1)
		if round == 1 {
			for k := range vals {
				vals[k] = 0
			}
		}
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

// TestCommonBytesAreVellums reads the six-bit byte codes back from
// vellum's encoder and compares them with commonBytes. An FST of the keys
// {b, b} for every byte b has a root with 256 transitions, and the child
// under b is a single-transition state whose top byte carries b's code,
// or 0 when b has none.
func TestCommonBytesAreVellums(t *testing.T) {
	var keys []string
	for i := 0; i < 256; i++ {
		keys = append(keys, string([]byte{byte(i), byte(i)}))
	}
	data := buildFST(t, keys, nil)
	f, err := New(data, errors.New("corrupt"))
	if err != nil {
		t.Fatal(err)
	}
	var root fstState
	if err := f.state(f.root, &root); err != nil || root.single || root.n != 256 {
		t.Fatalf("root: %v, single %v, %d transitions", err, root.single, root.n)
	}
	var learned [fstLow6]byte
	seen := 0
	for i := 0; i < 256; i++ {
		c, dest, _, err := f.trans(&root, i)
		if err != nil || int(c) != i || dest < fstHeaderSize || dest >= f.end {
			t.Fatalf("transition %d: %v", i, err)
		}
		top := f.data[dest]
		if top&fstOneTrans == 0 {
			t.Fatalf("child of %d is not a single-transition state", i)
		}
		if code := top & fstLow6; code != 0 {
			if learned[code-1] != 0 {
				t.Fatalf("code %d used twice", code)
			}
			learned[code-1] = byte(i)
			seen++
		}
		if got := commonCode[i]; got != top&fstLow6 {
			t.Errorf("byte %q: code %d, vellum's %d", i, got, top&fstLow6)
		}
	}
	if seen != fstLow6 || string(learned[:]) != commonBytes {
		t.Errorf("vellum's common bytes are %q (%d), want %q", learned[:seen], seen, commonBytes)
	}
	for code := byte(0); code <= fstLow6+1; code++ {
		c, ok := decodeCommonByte(code)
		if want := code >= 1 && code <= fstLow6; ok != want || ok && commonCode[c] != code {
			t.Errorf("decodeCommonByte(%d) = %q, %v", code, c, ok)
		}
	}
}
