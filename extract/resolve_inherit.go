package extract

import (
	"sort"

	"github.com/knowing-dev/knowing/snapshot"
)

// inheritance links each class to the methods it inherits (inherits) and
// each overriding method to the method it overrides (overrides).
//
// A class in test code gets overrides edges but no inherits edges: what it
// inherits is the product's API, which the product's own classes already
// link to, and test fixtures subclassing a framework's base class made 94%
// of rails' inherits edges (a million, three quarters of all its edges).
func (r *resolver) inheritance() {
	types := make([]uint32, 0, len(r.bases))
	for t := range r.bases {
		types = append(types, t)
	}
	sort.Slice(types, func(i, j int) bool { return types[i] < types[j] })
	// Inherits edges are made here only, so they need not go through
	// edgeIndex, whose hashing was most of this phase's cost (rails has
	// a million of them): inherited[m] == child+1 once child → m is
	// added, which keeps each pair once.
	inherited := make([]uint32, len(r.g.Nodes))
	for _, child := range types {
		own := map[string]uint32{}
		for _, e := range r.childMembers(child) {
			own[r.g.Nodes[e].Name] = e
		}
		// A test class inherits nothing: only its direct bases matter,
		// for its overrides.
		testChild := r.g.Nodes[child].Flags&snapshot.FlagTest != 0
		hops := maxBaseHops
		if testChild {
			hops = 1
		}
		seen := map[uint32]bool{child: true}
		level := r.bases[child]
		for hop := 0; hop < hops && len(level) > 0; hop++ {
			var next []uint32
			for _, b := range level {
				if seen[b] {
					continue
				}
				seen[b] = true
				for _, m := range r.childMembers(b) {
					k := r.g.Nodes[m].Kind
					if !k.IsCallable() {
						continue
					}
					name := r.g.Nodes[m].Name
					if mine, ok := own[name]; ok {
						if hop == 0 {
							r.addEdge(mine, m, snapshot.EdgeOverrides, confInfer)
						}
						continue
					}
					if k == snapshot.KindConstructor || testChild {
						continue // constructors are not inherited
					}
					if m != child && inherited[m] != child+1 {
						inherited[m] = child + 1
						r.g.Edges = append(r.g.Edges, snapshot.Edge{From: child, To: m, Type: snapshot.EdgeInherits, Confidence: confInfer})
					}
				}
				next = append(next, r.bases[b]...)
			}
			level = next
		}
	}
}

func (r *resolver) childMembers(t uint32) []uint32 {
	if r.membersOf == nil {
		r.membersOf = map[uint32][]uint32{}
		for typ, list := range r.byType {
			for _, m := range list {
				r.membersOf[typ] = append(r.membersOf[typ], m.ids...)
			}
		}
		for k := range r.membersOf {
			ids := r.membersOf[k]
			sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
		}
	}
	return r.membersOf[t]
}

// goImplements adds structural implements edges for Go: a named type
// implements an interface of the repository when its method names cover
// the interface's (signatures are not compared).
func (r *resolver) goImplements() {
	var ifaces, concrete []uint32
	for id := range r.g.Nodes {
		n := &r.g.Nodes[id]
		if n.Lang != snapshot.LangGo {
			continue
		}
		switch {
		case n.Kind == snapshot.KindInterface:
			ifaces = append(ifaces, uint32(id))
		case n.Kind.IsType():
			concrete = append(concrete, uint32(id))
		}
	}
	if len(ifaces) == 0 {
		return
	}
	methodSet := func(t uint32) map[string]bool {
		set := map[string]bool{}
		seen := map[uint32]bool{}
		var visit func(x uint32, depth int)
		visit = func(x uint32, depth int) {
			if seen[x] || depth > maxBaseHops {
				return
			}
			seen[x] = true
			for _, m := range r.childMembers(x) {
				if r.g.Nodes[m].Kind.IsCallable() {
					set[r.g.Nodes[m].Name] = true
				}
			}
			for _, b := range r.bases[x] {
				visit(b, depth+1)
			}
		}
		visit(t, 0)
		return set
	}
	byMethod := map[string][]uint32{}
	sets := map[uint32]map[string]bool{}
	for _, t := range concrete {
		s := methodSet(t)
		if len(s) == 0 {
			continue
		}
		sets[t] = s
		for m := range s {
			byMethod[m] = append(byMethod[m], t)
		}
	}
	for _, i := range ifaces {
		need := methodSet(i)
		if len(need) == 0 {
			continue
		}
		rarest, best := "", -1
		for m := range need {
			if c := len(byMethod[m]); best < 0 || c < best || c == best && m < rarest {
				rarest, best = m, c
			}
		}
		cands := append([]uint32(nil), byMethod[rarest]...)
		sort.Slice(cands, func(a, b int) bool { return cands[a] < cands[b] })
		for _, t := range cands {
			ok := true
			for m := range need {
				if !sets[t][m] {
					ok = false
					break
				}
			}
			if ok {
				r.addEdge(t, i, snapshot.EdgeImplements, confInfer)
			}
		}
	}
}
