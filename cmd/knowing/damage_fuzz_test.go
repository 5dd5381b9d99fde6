package main

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/knowing-dev/knowing/query"
	"github.com/knowing-dev/knowing/snapshot"
)

// damageTasks are asked of every damaged snapshot that opens.
var damageTasks = []string{
	"save an item in the memory store",
	"`Server.Handle`",
	"where are requests routed to handlers",
}

var damageBase struct {
	once    sync.Once
	img     []byte
	answers string
	err     error
}

// answersOf opens path with snapshot.OpenChecked and returns the answers to
// damageTasks as JSON; an error means the snapshot was refused.
func answersOf(path string) (string, error) {
	s, err := snapshot.OpenChecked(path)
	if err != nil {
		return "", err
	}
	defer s.Close()
	e, err := query.New(s)
	if err != nil {
		return "", err
	}
	var all []any
	for _, task := range damageTasks {
		res, err := e.Query(context.Background(), task, query.Options{Limit: 10, Docs: true})
		if err != nil {
			return "", err
		}
		all = append(all, res.Results)
	}
	b, _ := json.Marshal(all)
	return string(b), nil
}

// FuzzDamagedSnapshot damages a snapshot of testdata/go as the fuzzer
// says (each 5 bytes of input: a little-endian offset into the file and a
// byte to xor there) and asks it the same tasks as the intact one. No
// silent wrong answer: a damaged snapshot is refused, or it answers
// exactly as the intact one does.
//
//	go test ./cmd/knowing -run xxx -fuzz FuzzDamagedSnapshot -fuzztime 10m
func FuzzDamagedSnapshot(f *testing.F) {
	f.Setenv("XDG_CACHE_HOME", f.TempDir()) // stamps stay in the test's folder
	damageBase.once.Do(func() {
		dir, err := os.MkdirTemp("", "knowing-damage-")
		if err != nil {
			damageBase.err = err
			return
		}
		snap := filepath.Join(dir, "go.snap")
		if code := run([]string{"build", "--quiet", "--repo", "../../testdata/go", snap}, nil, os.Stdout, os.Stderr); code != 0 {
			damageBase.err = os.ErrInvalid
			return
		}
		damageBase.img, damageBase.err = os.ReadFile(snap)
		if damageBase.err == nil {
			damageBase.answers, damageBase.err = answersOf(snap)
		}
		os.RemoveAll(dir)
	})
	if damageBase.err != nil {
		f.Fatal(damageBase.err)
	}
	img := damageBase.img
	for _, seed := range [][]byte{{0, 0, 0, 0, 1}, {12, 0, 0, 0, 0x80}, {200, 1, 0, 0, 4}, {0xff, 0xff, 0, 0, 1, 8, 0, 0, 0, 2}} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, spec []byte) {
		bad := append([]byte{}, img...)
		changed := false
		for len(spec) >= 5 {
			off := int(binary.LittleEndian.Uint32(spec) % uint32(len(bad)))
			if spec[4] != 0 {
				bad[off] ^= spec[4]
				changed = true
			}
			spec = spec[5:]
		}
		path := filepath.Join(t.TempDir(), "x.snap")
		if err := os.WriteFile(path, bad, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := answersOf(path)
		if err != nil {
			return // refused
		}
		if got != damageBase.answers {
			t.Fatalf("a damaged snapshot (changed %v) answered differently", changed)
		}
	})
}
