package extract

import (
	"slices"
	"sync"

	"github.com/knowing-dev/knowing/snapshot"
)

// index builds the lookup tables the later phases read: nodes by
// qualified name and by name, the types declared more than once under one
// qualified name, each type's members, and top-level names by scope and
// by package.
func (r *resolver) index() {
	r.ident = make([]uint32, len(r.g.Nodes))
	for i := range r.ident {
		r.ident[i] = uint32(i)
	}
	// The tables are independent: build them side by side.
	var wg sync.WaitGroup
	side := func(f func()) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f()
		}()
	}
	side(func() {
		r.qname = make(map[string][]uint32, len(r.g.Nodes))
		for id := range r.g.Nodes {
			n := &r.g.Nodes[id]
			if n.Kind != snapshot.KindFile && n.Kind != snapshot.KindPackage {
				r.qname[n.QName] = r.addID(r.qname[n.QName], uint32(id))
			}
		}
		r.dupTypes = map[uint32][]uint32{}
		for _, ids := range r.qname {
			if len(ids) < 2 {
				continue
			}
			types := r.keep(ids, typesOnly)
			if len(types) < 2 {
				continue
			}
			for _, t := range types {
				r.dupTypes[t] = types
			}
		}
	})
	side(func() {
		r.byName = make(map[string][]uint32, len(r.g.Nodes)/2)
		for id := range r.g.Nodes {
			n := &r.g.Nodes[id]
			if n.Kind != snapshot.KindFile && n.Kind != snapshot.KindPackage {
				r.byName[n.Name] = r.addID(r.byName[n.Name], uint32(id))
			}
		}
	})
	side(func() {
		for _, e := range r.g.Edges {
			if e.Type != snapshot.EdgeContains {
				continue
			}
			parent := &r.g.Nodes[e.From]
			if parent.Kind.IsType() {
				r.memberAdded(e.From, r.g.Nodes[e.To].Name, e.To)
			}
		}
		r.memberNames = map[string]bool{}
		for _, list := range r.byType {
			for _, m := range list {
				r.memberNames[m.name] = true
			}
		}
	})
	for fi, f := range r.files {
		sc := scopeOf(f)
		for si := range f.Symbols {
			s := &f.Symbols[si]
			if s.Parent >= 0 || s.Receiver != "" {
				continue
			}
			id := r.symID[fi][si]
			m := r.scopeTop[sc]
			if m == nil {
				m = map[string][]uint32{}
				r.scopeTop[sc] = m
			}
			m[s.Name] = r.addID(m[s.Name], id)
			if f.Package != "" {
				p := r.pkgTop[f.Package]
				if p == nil {
					p = map[string][]uint32{}
					r.pkgTop[f.Package] = p
				}
				p[s.Name] = r.addID(p[s.Name], id)
			}
		}
	}
	wg.Wait()
}

type filter uint8

const (
	anyKind filter = iota
	typesOnly
	callables // callables and types (a type name called is a constructor)
)

func (r *resolver) keep(ids []uint32, fl filter) []uint32 {
	if fl == anyKind {
		return ids
	}
	pass := func(id uint32) bool {
		n := &r.g.Nodes[id]
		k := n.Kind
		return k.IsType() || (fl == callables && (k.IsCallable() || k == snapshot.KindField && fieldsCallable(n.Lang)))
	}
	// Most lists pass whole: return them without a copy.
	i := 0
	for i < len(ids) && pass(ids[i]) {
		i++
	}
	if i == len(ids) {
		return ids
	}
	out := append([]uint32(nil), ids[:i]...)
	for _, id := range ids[i+1:] {
		if pass(id) {
			out = append(out, id)
		}
	}
	return out
}

func fieldsCallable(l snapshot.Lang) bool {
	lang := byLang[l]
	return lang != nil && lang.FieldsCallable
}

// memberAdded records member id of type t under name in byType.
func (r *resolver) memberAdded(t uint32, name string, id uint32) {
	if r.byType == nil {
		r.byType = map[uint32][]memberEntry{}
	}
	list := r.byType[t]
	for i := range list {
		if list[i].name == name {
			list[i].ids = append(list[i].ids, id)
			return
		}
	}
	r.byType[t] = append(list, memberEntry{name: name, ids: r.one(id)})
}

// membersNamed returns the members of type t named name, without hashing:
// a type has few members, and a scan of them is cheaper.
func (r *resolver) membersNamed(t uint32, name string) []uint32 {
	for _, m := range r.byType[t] {
		if m.name == name {
			return m.ids
		}
	}
	return nil
}

// sameType returns every type node declared under t's qualified name: a
// class reopened in several files (Ruby), a partial class (C#), impl
// blocks in several modules (Rust) are one type.
func (r *resolver) sameType(t uint32) []uint32 {
	if g, ok := r.dupTypes[t]; ok {
		return g
	}
	return r.one(t)
}

// qnameOf is r.qname[prefix+"."+name] without building the key on the
// heap: most lookups miss, and the keys are longer than the compiler's
// stack buffer for concatenations.
func (r *resolver) qnameOf(prefix, name string) []uint32 {
	var buf [128]byte
	k := append(append(append(buf[:0], prefix...), '.'), name...)
	return r.qname[string(k)]
}

// one returns the list holding id alone. Most names of a repository
// name one symbol, so this spares the index tables an allocation per
// name. Its capacity is its length: an append copies.
func (r *resolver) one(id uint32) []uint32 {
	if int(id) < len(r.ident) {
		return r.ident[id : id+1 : id+1]
	}
	return []uint32{id}
}

// addID appends id to an index table's list.
func (r *resolver) addID(list []uint32, id uint32) []uint32 {
	if len(list) == 0 {
		return r.one(id)
	}
	return append(list, id)
}

func (r *resolver) lookupScope(scope, name string, fl filter) []uint32 {
	return r.keep(r.scopeTop[scope][name], fl)
}

// memberOf finds members named name of type t or, failing that, of its
// bases (nearest first).
func (r *resolver) memberOf(t uint32, name string, fl filter) []uint32 {
	if _, dup := r.dupTypes[t]; !dup && len(r.bases[t]) == 0 {
		return r.keep(r.membersNamed(t, name), fl)
	}
	if !r.memberNames[name] {
		return nil // no type has a member of that name
	}
	if r.memberMemo == nil {
		return r.memberWalk(t, name, fl)
	}
	// The walk starts from all of t's declarations, so it is the same
	// for each of them: key it by the first. A class reopened in many
	// files (Ruby) is otherwise walked again for every reopening.
	k := memberKey{r.sameType(t)[0], name, fl}
	return r.memberMemo.get(k, func() []uint32 { return slices.Clip(r.memberWalk(t, name, fl)) })
}

// memo is a cache that files resolving on all cores share. It is cut into
// shards, each with its own lock: with one lock, every lookup on every
// core wrote the lock's reader count, one contended cache line.
type memo[K comparable, V any] struct {
	hash   func(K) uint32
	shards [64]struct {
		mu sync.RWMutex
		m  map[K]V
		_  [32]byte // keep shards' locks off each other's cache lines
	}
}

func newMemo[K comparable, V any](hash func(K) uint32) *memo[K, V] {
	m := &memo[K, V]{hash: hash}
	for i := range m.shards {
		m.shards[i].m = map[K]V{}
	}
	return m
}

// get returns the value of k, computing and storing it on a miss.
func (m *memo[K, V]) get(k K, compute func() V) V {
	sh := &m.shards[m.hash(k)%uint32(len(m.shards))]
	sh.mu.RLock()
	v, ok := sh.m[k]
	sh.mu.RUnlock()
	if !ok {
		v = compute()
		sh.mu.Lock()
		sh.m[k] = v
		sh.mu.Unlock()
	}
	return v
}

func hashMemberKey(k memberKey) uint32 {
	h := k.t*0x9e3779b1 ^ uint32(len(k.name))*0x85ebca6b ^ uint32(k.fl)
	if n := len(k.name); n > 0 {
		h ^= uint32(k.name[0])<<8 | uint32(k.name[n-1])<<16 | uint32(k.name[n/2])
	}
	return h ^ h>>15
}

func hashTypeID(t uint32) uint32 { return t ^ t>>6 }

// memberWalk is memberOf through duplicate declarations and bases, nearest
// first.
func (r *resolver) memberWalk(t uint32, name string, fl filter) []uint32 {
	for _, level := range r.baseLevels(t) {
		var found []uint32
		for _, x := range level {
			found = append(found, r.keep(r.membersNamed(x, name), fl)...)
		}
		if len(found) > 0 {
			return found
		}
	}
	return nil
}

// baseLevels returns the types a member lookup from t visits, hop by hop:
// t's declarations, then the declarations of their bases not visited
// yet, and so on for maxBaseHops hops. They do not depend on the member's
// name, so while references are resolved they are computed once per type
// rather than once per name looked up: modules mixed into many reopened
// classes make these closures hundreds of types wide.
func (r *resolver) baseLevels(t uint32) [][]uint32 {
	start := r.sameType(t)
	if r.levelMemo == nil {
		return r.walkBases(start)
	}
	return r.levelMemo.get(start[0], func() [][]uint32 { return r.walkBases(start) })
}

// walkBases computes baseLevels breadth first from the types start. A
// type is visited once, at its nearest hop, in the order it is first
// reached.
func (r *resolver) walkBases(start []uint32) [][]uint32 {
	seen := map[uint32]bool{}   // visited
	queued := map[uint32]bool{} // put on a next level (visited there at the latest)
	var levels [][]uint32
	level := start
	for hop := 0; hop <= maxBaseHops && len(level) > 0; hop++ {
		var visit, next []uint32
		for _, x := range level {
			if seen[x] {
				continue
			}
			seen[x] = true
			visit = append(visit, x)
			if hop == maxBaseHops {
				continue
			}
			for _, b := range r.bases[x] {
				for _, y := range r.sameType(b) {
					if !seen[y] && !queued[y] {
						queued[y] = true
						next = append(next, y)
					}
				}
			}
		}
		levels = append(levels, slices.Clip(visit))
		level = next
	}
	return levels
}
