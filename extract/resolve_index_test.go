package extract

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"

	"github.com/knowing-dev/knowing/snapshot"
)

// plainMemberWalk is the member lookup walk without any sharing between
// lookups: breadth first through duplicate declarations and bases, each
// type visited once, stopping at the first hop that finds the name.
// memberOf must return exactly what it returns, in the same order.
func plainMemberWalk(r *resolver, t uint32, name string, fl filter) []uint32 {
	var seen []uint32
	level := r.sameType(t)
	for hop := 0; hop <= maxBaseHops && len(level) > 0; hop++ {
		var found, next []uint32
		for _, x := range level {
			if slices.Contains(seen, x) {
				continue
			}
			seen = append(seen, x)
			found = append(found, r.keep(r.membersNamed(x, name), fl)...)
			for _, b := range r.bases[x] {
				next = append(next, r.sameType(b)...)
			}
		}
		if len(found) > 0 {
			return found
		}
		level = next
	}
	return nil
}

// TestMemberOfMatchesPlainWalk compares memberOf, memoised as during
// resolveRefs and not, with the plain walk on random type graphs with
// diamonds, cycles, reopened (duplicate) types and deep chains.
func TestMemberOfMatchesPlainWalk(t *testing.T) {
	names := []string{"a", "b", "c", "d", "e", "f", "g", "h"}
	kinds := []snapshot.Kind{snapshot.KindMethod, snapshot.KindField, snapshot.KindClass, snapshot.KindFunction}
	for seed := int64(0); seed < 200; seed++ {
		rng := rand.New(rand.NewSource(seed))
		r := &resolver{g: &snapshot.Graph{}, bases: map[uint32][]uint32{}, dupTypes: map[uint32][]uint32{}}
		nTypes := 2 + rng.Intn(40)
		for i := 0; i < nTypes; i++ {
			r.g.Nodes = append(r.g.Nodes, snapshot.Node{Kind: snapshot.KindClass, Lang: snapshot.LangRuby})
		}
		// Reopened types: groups of declarations sharing one name.
		perm := rng.Perm(nTypes)
		for i := 0; i+1 < len(perm); {
			size := 1 + rng.Intn(4)
			if i+size > len(perm) {
				size = len(perm) - i
			}
			if size > 1 && rng.Intn(2) == 0 {
				group := slices.Clone(perm[i : i+size])
				slices.Sort(group)
				ids := make([]uint32, len(group))
				for j, g := range group {
					ids[j] = uint32(g)
				}
				for _, id := range ids {
					r.dupTypes[id] = ids
				}
			}
			i += size
		}
		// Bases, with repeats, self references and cycles.
		for i := 0; i < nTypes; i++ {
			for n := rng.Intn(4); n > 0; n-- {
				r.bases[uint32(i)] = append(r.bases[uint32(i)], uint32(rng.Intn(nTypes)))
			}
		}
		// Members.
		for i := 0; i < nTypes; i++ {
			for n := rng.Intn(4); n > 0; n-- {
				id := uint32(len(r.g.Nodes))
				r.g.Nodes = append(r.g.Nodes, snapshot.Node{Kind: kinds[rng.Intn(len(kinds))], Lang: snapshot.LangRuby})
				r.memberAdded(uint32(i), names[rng.Intn(len(names)-1)], id) // the last name is nobody's
			}
		}
		r.memberNames = map[string]bool{}
		for _, list := range r.byType {
			for _, m := range list {
				r.memberNames[m.name] = true
			}
		}
		check := func(memo bool) {
			for ti := 0; ti < nTypes; ti++ {
				for _, name := range names {
					for _, fl := range []filter{anyKind, typesOnly, callables} {
						want := plainMemberWalk(r, uint32(ti), name, fl)
						got := r.memberOf(uint32(ti), name, fl)
						if fmt.Sprint(got) != fmt.Sprint(want) {
							t.Fatalf("seed %d memo %v: memberOf(%d, %q, %d) = %v, want %v", seed, memo, ti, name, fl, got, want)
						}
					}
				}
			}
		}
		check(false)
		r.memberMemo, r.levelMemo = newMemo[memberKey, []uint32](hashMemberKey), newMemo[uint32, [][]uint32](hashTypeID)
		check(true)
		check(true) // from the memo
	}
}
