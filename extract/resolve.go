package extract

import (
	"path"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"

	"github.com/knowing-dev/knowing/snapshot"
)

// Confidence of resolved edges, by how the target was found.
const (
	confSyntax  = 1.0 // containment and declarations: read off the syntax
	confScope   = 0.9 // found by scope: same type, file, package, import
	confTyped   = 0.8 // through a typed receiver or field
	confInfer   = 0.6 // inferred: structural interfaces, inheritance, tests
	confUnique  = 0.4 // the only symbol of that name in the repository
	maxTargets  = 3   // a call resolving to more candidates is dropped
	maxBaseHops = 4
)

type resolver struct {
	// chains memoizes, per file, the result types of the calls of call
	// chains, which each later call of the chain asks again (see
	// resultTypes). A file's refs are resolved by one worker: its map
	// needs no lock.
	chains  []map[chainKey][]uint32
	files   []*FileResult
	g       *snapshot.Graph
	fileID  []uint32   // node id of each file
	symID   [][]uint32 // node id of each symbol of each file
	symFile []int32    // file index of each node (-1 for packages, externals)
	symIdx  []int32    // symbol index within its file, for symbol nodes

	pkgNode  map[string]uint32
	qname    map[string][]uint32            // qualified name → nodes
	byType   map[uint32][]memberEntry       // type node → its members, for lookups by name
	scopeTop map[string]map[string][]uint32 // scope → top-level name → nodes
	pkgTop   map[string]map[string][]uint32 // package → top-level name → nodes
	byName   map[string][]uint32            // every symbol by name
	bases    map[uint32][]uint32            // type → resolved base types
	external map[string]uint32
	// edgeIndex finds an edge already added, by type: from<<32 | to →
	// index in g.Edges. Containment, calls, references and type hints do
	// not use it: a node is contained once, when it is declared or
	// attached, and the edges of references, which have one end at the
	// referring file's symbols, are deduplicated per file in resolveRefs
	// (only those to external nodes use it).
	edgeIndex [snapshot.NumEdgeTypes]map[uint64]int
	dupTypes  map[uint32][]uint32 // types declared more than once under one qualified name
	membersOf map[uint32][]uint32

	// memberMemo caches memberOf walks over bases and duplicate types
	// while references are resolved: the same few thousand lookups recur
	// millions of times on a large repository.
	memberMemo *memo[memberKey, []uint32]
	uniqueMemo *memo[memberKey, []uint32] // unique's results; t is methodsOnly
	levelMemo  *memo[uint32, [][]uint32]  // baseLevels, by a type's first declaration

	memberNames map[string]bool // names of members of any type

	// ident[i] == i for every node declared before index: one-element
	// id lists are slices of it (see one), not allocations of their own.
	ident []uint32
}

type memberKey struct {
	t    uint32
	name string
	fl   filter
}

type memberEntry struct {
	name string
	ids  []uint32
}

// Resolve compiles the per-file results into one graph. Node ids are
// assigned file by file in path order, so the symbols of a file (and
// mostly of a package) have neighbouring ids.
func Resolve(results []*FileResult) *snapshot.Graph {
	return resolve(results, nil)
}

// resolve is Resolve; it calls nodesDone, when not nil, once every
// package, file and symbol node is in the graph with its final text fields
// (name, qualified name, kind, file, signature, doc; flags other than
// FlagTest). External nodes, edges and test flags come after.
func resolve(results []*FileResult, nodesDone func(*snapshot.Graph)) *snapshot.Graph {
	sort.Slice(results, func(i, j int) bool { return results[i].Path < results[j].Path })
	// Size the node and edge tables once: a node per file, package and
	// symbol; every symbol is contained (two edges) and most references
	// resolve (one).
	nodes, edges := 2*len(results), 0
	for _, f := range results {
		nodes += len(f.Symbols)
		edges += 2*len(f.Symbols) + len(f.Refs)
	}
	r := &resolver{
		files:    results,
		g:        &snapshot.Graph{},
		pkgNode:  map[string]uint32{},
		scopeTop: map[string]map[string][]uint32{},
		pkgTop:   map[string]map[string][]uint32{},
		bases:    map[uint32][]uint32{},
		external: map[string]uint32{},
	}
	r.g.Nodes = make([]snapshot.Node, 0, nodes)
	r.symFile, r.symIdx = make([]int32, 0, nodes), make([]int32, 0, nodes)
	r.g.Edges = make([]snapshot.Edge, 0, edges)
	r.declare()
	r.attachReceivers()
	if nodesDone != nil {
		nodesDone(r.g)
	}
	r.index()
	r.resolveBases()
	r.resolveRefs()
	r.resolveImports()
	r.inheritance()
	r.goImplements()
	r.tests()
	return r.g
}

func scopeOf(f *FileResult) string {
	if f.Scope != "" {
		return f.Scope
	}
	return "file:" + f.Path
}

func (r *resolver) addNode(n snapshot.Node, file, sym int32) uint32 {
	id := uint32(len(r.g.Nodes))
	r.g.Nodes = append(r.g.Nodes, n)
	r.symFile = append(r.symFile, file)
	r.symIdx = append(r.symIdx, sym)
	return id
}

func (r *resolver) addEdge(from, to uint32, t snapshot.EdgeType, conf float32) {
	if from == to && t != snapshot.EdgeCalls {
		return
	}
	// One map per edge type keyed by a uint64 hashes faster than one
	// keyed by a struct.
	m := r.edgeIndex[t]
	if m == nil {
		m = map[uint64]int{}
		r.edgeIndex[t] = m
	}
	k := uint64(from)<<32 | uint64(to)
	if i, ok := m[k]; ok {
		if conf > r.g.Edges[i].Confidence {
			r.g.Edges[i].Confidence = conf
		}
		return
	}
	m[k] = len(r.g.Edges)
	r.g.Edges = append(r.g.Edges, snapshot.Edge{From: from, To: to, Type: t, Confidence: conf})
}

// contain adds the containment pair parent→child and child→parent. Each
// node gets its parent once (declare, attachReceivers), so the pair is
// new and skips addEdge's table.
func (r *resolver) contain(parent, child uint32) {
	r.g.Edges = append(r.g.Edges,
		snapshot.Edge{From: parent, To: child, Type: snapshot.EdgeContains, Confidence: confSyntax},
		snapshot.Edge{From: child, To: parent, Type: snapshot.EdgeMemberOf, Confidence: confSyntax})
}

// LastPart is what follows the last "." or "/".
func LastPart(s string) string {
	if i := strings.LastIndexAny(s, "./"); i >= 0 {
		return s[i+1:]
	}
	return s
}

// declare creates package, file and symbol nodes and their qualified names.
func (r *resolver) declare() {
	r.fileID = make([]uint32, len(r.files))
	r.symID = make([][]uint32, len(r.files))
	// A symbol's qualified name and flags depend on its file alone: they
	// are worked out on all cores, and the nodes added in file order.
	qns := make([][]string, len(r.files))
	flagss := make([][]snapshot.Flags, len(r.files))
	onAllCores(len(r.files), func() func(int) {
		return func(fi int) { qns[fi], flagss[fi] = symbolNames(r.files[fi]) }
	})
	for fi, f := range r.files {
		if f.Package != "" {
			if _, ok := r.pkgNode[f.Package]; !ok {
				r.pkgNode[f.Package] = r.addNode(snapshot.Node{
					Name: LastPart(f.Package), QName: f.Package, Kind: snapshot.KindPackage,
					Lang: f.Lang, File: -1, Flags: f.Flags & (snapshot.FlagVendored | snapshot.FlagGenerated),
				}, -1, -1)
			}
		}
		r.g.Files = append(r.g.Files, snapshot.File{Path: f.Path, Lang: f.Lang, Flags: f.Flags, Size: uint64(f.Size)})
		fid := r.addNode(snapshot.Node{
			Name: path.Base(f.Path), QName: f.Path, Kind: snapshot.KindFile, Lang: f.Lang,
			Flags: f.Flags, File: int32(fi), StartLine: 1,
		}, int32(fi), -1)
		r.fileID[fi] = fid
		if f.Package != "" {
			r.contain(r.pkgNode[f.Package], fid)
		}
		ids := make([]uint32, len(f.Symbols))
		qn, flags := qns[fi], flagss[fi]
		for si := range f.Symbols {
			s := &f.Symbols[si]
			ids[si] = r.addNode(snapshot.Node{
				Name: s.Name, QName: qn[si], Kind: s.Kind, Lang: f.Lang, Flags: flags[si],
				File: int32(fi), StartLine: s.Start, EndLine: s.End, Signature: s.Signature, Doc: s.Doc,
			}, int32(fi), int32(si))
		}
		r.symID[fi] = ids
		for si := range f.Symbols {
			s := &f.Symbols[si]
			if s.Parent >= 0 && int(s.Parent) < si {
				r.contain(ids[s.Parent], ids[si])
			} else if s.Receiver == "" {
				r.contain(fid, ids[si])
			}
		}
	}
}

// symbolNames returns the qualified names and flags of f's symbols.
func symbolNames(f *FileResult) ([]string, []snapshot.Flags) {
	qn := make([]string, len(f.Symbols))
	flags := make([]snapshot.Flags, len(f.Symbols))
	for si := range f.Symbols {
		s := &f.Symbols[si]
		prefix := f.Package
		if s.Parent >= 0 && int(s.Parent) < si {
			prefix = qn[s.Parent]
		}
		name := s.Name
		if s.Qual != "" {
			name = s.Qual + "." + name
		}
		if prefix != "" {
			qn[si] = prefix + "." + name
		} else {
			qn[si] = name
		}
		fl := f.Flags | s.Flags
		if IsMockName(s.Name) && (s.Kind.IsType() || s.Parent < 0) {
			fl |= snapshot.FlagMock
		}
		if s.Parent >= 0 && int(s.Parent) < si && f.Symbols[s.Parent].Kind.IsType() && IsMockName(f.Symbols[s.Parent].Name) {
			fl |= snapshot.FlagMock
		}
		flags[si] = fl
	}
	return qn, flags
}

// onAllCores runs jobs 0 to n-1 on GOMAXPROCS goroutines: each calls
// newWorker once, for the function (and the state it keeps) that then
// does every job the goroutine takes.
func onAllCores(n int, newWorker func() func(i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn := newWorker()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				fn(i)
			}
		}()
	}
	wg.Wait()
}

// attachReceivers gives methods declared outside their type (Go) their
// type as parent and qualified-name prefix.
func (r *resolver) attachReceivers() {
	types := map[[2]string]uint32{} // scope, name → type node
	for fi, f := range r.files {
		sc := scopeOf(f)
		for si := range f.Symbols {
			s := &f.Symbols[si]
			if s.Kind.IsType() && s.Parent < 0 {
				types[[2]string{sc, s.Name}] = r.symID[fi][si]
			}
		}
	}
	for fi, f := range r.files {
		sc := ""
		for si := range f.Symbols {
			s := &f.Symbols[si]
			if s.Receiver == "" || s.Parent >= 0 {
				continue
			}
			if sc == "" {
				sc = scopeOf(f)
			}
			id := r.symID[fi][si]
			if t, ok := types[[2]string{sc, s.Receiver}]; ok {
				r.g.Nodes[id].QName = r.g.Nodes[t].QName + "." + s.Name
				r.contain(t, id)
			} else {
				// The type is not in the repository (or not parsed): keep
				// the receiver in the name and hang the method on the file.
				prefix := f.Package
				if prefix != "" {
					prefix += "."
				}
				r.g.Nodes[id].QName = prefix + s.Receiver + "." + s.Name
				r.contain(r.fileID[fi], id)
			}
		}
	}
}

// parentOf returns the node that contains id by member_of, or false.
func (r *resolver) parentType(fi int, si int32) (uint32, bool) {
	f := r.files[fi]
	for si >= 0 {
		s := &f.Symbols[si]
		if s.Kind.IsType() {
			return r.symID[fi][si], true
		}
		if s.Receiver != "" {
			if ts := r.lookupScope(scopeOf(f), s.Receiver, typesOnly); len(ts) > 0 {
				return ts[0], true
			}
			return 0, false
		}
		si = s.Parent
	}
	return 0, false
}

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

// resolveType finds the type nodes a type name written in file fi, inside
// symbol si, refers to.
func (r *resolver) resolveType(fi int, si int32, name string) ([]uint32, float32) {
	name = cleanTypeName(name)
	if name == "" {
		return nil, 0
	}
	f := r.files[fi]
	if strings.Contains(name, ".") {
		if ids := r.keep(r.qname[name], typesOnly); len(ids) > 0 {
			return ids, confScope
		}
		first, rest, _ := strings.Cut(name, ".")
		for _, im := range f.Imports {
			if im.LocalName() != first {
				continue
			}
			target := im.Path
			if im.Name != "" && im.Name != "*" {
				target += "." + im.Name
			}
			if ids := r.keep(r.qnameOf(target, rest), typesOnly); len(ids) > 0 {
				return ids, confScope
			}
		}
		// Relative to an enclosing container or the package.
		if ids, c := r.lexical(fi, si, name, typesOnly); len(ids) > 0 {
			return ids, c
		}
		name = LastPart(name)
	}
	if ids, c := r.lexical(fi, si, name, typesOnly); len(ids) > 0 {
		return ids, c
	}
	if ids := r.lookupScope(scopeOf(f), name, typesOnly); len(ids) > 0 {
		return ids, confScope
	}
	if ids := r.fromImports(f, name, typesOnly); len(ids) > 0 {
		return ids, confScope
	}
	if ids := r.keep(r.byName[name], typesOnly); len(ids) == 1 {
		return ids, confUnique
	}
	return nil, 0
}

// lexical looks name up in the enclosing containers of symbol si, innermost
// first, then in the file's package.
func (r *resolver) lexical(fi int, si int32, name string, fl filter) ([]uint32, float32) {
	f := r.files[fi]
	for si >= 0 {
		q := r.g.Nodes[r.symID[fi][si]].QName
		if ids := r.keep(r.qnameOf(q, name), fl); len(ids) > 0 {
			return ids, confScope
		}
		si = f.Symbols[si].Parent
	}
	if f.Package != "" {
		if ids := r.keep(r.qnameOf(f.Package, name), fl); len(ids) > 0 {
			return ids, confScope
		}
	}
	return nil, 0
}

func (r *resolver) fromImports(f *FileResult, name string, fl filter) []uint32 {
	for _, im := range f.Imports {
		if im.Name == "*" {
			if ids := r.keep(r.qnameOf(im.Path, name), fl); len(ids) > 0 {
				return ids
			}
			continue
		}
		if im.Name != "" && im.LocalName() == name {
			if ids := r.keep(r.qnameOf(im.Path, im.Name), fl); len(ids) > 0 {
				return ids
			}
			if ids := r.keep(r.pkgTop[im.Path][im.Name], fl); len(ids) > 0 {
				return ids
			}
		}
	}
	return nil
}

func (r *resolver) resolveBases() {
	for fi, f := range r.files {
		for si := range f.Symbols {
			s := &f.Symbols[si]
			if len(s.Extends) == 0 && len(s.Implements) == 0 {
				continue
			}
			id := r.symID[fi][si]
			for _, b := range s.Extends {
				ids, c := r.resolveType(fi, s.Parent, b)
				for _, t := range ids {
					if t == id {
						continue
					}
					r.bases[id] = append(r.bases[id], t)
					et := snapshot.EdgeExtends
					if r.g.Nodes[t].Kind == snapshot.KindInterface && r.g.Nodes[id].Kind != snapshot.KindInterface {
						et = snapshot.EdgeImplements
					}
					r.addEdge(id, t, et, c)
				}
				if len(ids) == 0 {
					r.externalType(fi, b, id, snapshot.EdgeExtends)
				}
			}
			for _, b := range s.Implements {
				ids, c := r.resolveType(fi, s.Parent, b)
				for _, t := range ids {
					if t != id {
						r.bases[id] = append(r.bases[id], t)
						r.addEdge(id, t, snapshot.EdgeImplements, c)
					}
				}
				if len(ids) == 0 {
					r.externalType(fi, b, id, snapshot.EdgeImplements)
				}
			}
		}
	}
}

// externalType links from to a node standing for a type outside the
// repository, when the name is qualified by an import (http.Handler).
// Shared external types connect the code that uses them.
func (r *resolver) externalType(fi int, name string, from uint32, t snapshot.EdgeType) {
	name = cleanTypeName(name)
	first, rest, ok := strings.Cut(name, ".")
	if !ok || rest == "" {
		return
	}
	for _, im := range r.files[fi].Imports {
		if im.LocalName() != first || im.Name != "" {
			continue
		}
		if _, inRepo := r.pkgNode[im.Path]; inRepo {
			return
		}
		q := im.Path + "." + rest
		id, ok := r.external[q]
		if !ok {
			id = r.addNode(snapshot.Node{Name: LastPart(rest), QName: q, Kind: snapshot.KindExternal,
				Lang: r.files[fi].Lang, Flags: snapshot.FlagExternal, File: -1}, -1, -1)
			r.external[q] = id
		}
		if t == snapshot.EdgeTypeHintOf {
			r.addEdge(id, from, t, confScope)
		} else {
			r.addEdge(from, id, t, confScope)
		}
		return
	}
}

// resolvedRef is what one reference resolved to.
type resolvedRef struct {
	from uint32
	ids  []uint32
	conf float32
	et   snapshot.EdgeType
	ext  string // a type name to link to an external node when ids is empty
}

// resolveRefs resolves every reference. Lookups are read-only, so files
// are resolved on all cores; edges are then added in file order, which
// keeps the graph deterministic.
func (r *resolver) resolveRefs() {
	r.memberMemo = newMemo[memberKey, []uint32](hashMemberKey)
	r.uniqueMemo = newMemo[memberKey, []uint32](hashMemberKey)
	r.levelMemo = newMemo[uint32, [][]uint32](hashTypeID)
	r.chains = make([]map[chainKey][]uint32, len(r.files))
	defer func() { r.memberMemo, r.uniqueMemo, r.levelMemo, r.chains = nil, nil, nil, nil }()
	out := make([]fileEdges, len(r.files))
	onAllCores(len(r.files), func() func(int) {
		seen := [3]map[uint64]int32{{}, {}, {}}
		var refs []resolvedRef
		return func(fi int) {
			refs = r.resolveFile(fi, refs[:0])
			out[fi] = localEdges(refs, &seen)
		}
	})
	for fi, fe := range out {
		done := 0
		for _, d := range fe.deferred {
			r.g.Edges = append(r.g.Edges, fe.edges[done:d.at]...)
			done = d.at
			r.externalType(fi, d.ref.ext, d.ref.from, d.ref.et)
		}
		r.g.Edges = append(r.g.Edges, fe.edges[done:]...)
	}
}

// fileEdges is what the references of one file add to the graph: the
// edges between its symbols and the repository's, ready to append, and
// the references to types outside it, which need the shared table of
// external nodes, each with how many of edges precede it.
type fileEdges struct {
	edges    []snapshot.Edge
	deferred []deferredRef
}

type deferredRef struct {
	at  int
	ref resolvedRef
}

// localEdges turns a file's resolved references into edges, on the
// resolving core. Every such edge has one end at the file's own symbols,
// so no other file adds the same edge: they are deduplicated here, as
// addEdge would (first position, highest confidence), with a small table
// per file and edge type instead of the graph-wide one. The result lists
// edges in the order the references came.
func localEdges(rs []resolvedRef, seen *[3]map[uint64]int32) fileEdges {
	for _, m := range seen {
		clear(m)
	}
	fe := fileEdges{edges: make([]snapshot.Edge, 0, len(rs))}
	for _, x := range rs {
		if len(x.ids) == 0 {
			if x.ext != "" {
				fe.deferred = append(fe.deferred, deferredRef{at: len(fe.edges), ref: x})
			}
			continue
		}
		var m map[uint64]int32
		switch x.et {
		case snapshot.EdgeCalls:
			m = seen[0]
		case snapshot.EdgeReferences:
			m = seen[1]
		case snapshot.EdgeTypeHintOf:
			m = seen[2]
		default:
			panic("localEdges: edge type " + x.et.String())
		}
		for _, t := range x.ids {
			if x.from == t && x.et != snapshot.EdgeCalls {
				continue
			}
			from, to := x.from, t
			if x.et == snapshot.EdgeTypeHintOf {
				from, to = t, x.from // the type is a hint of the function
			}
			k := uint64(from)<<32 | uint64(to)
			if i, ok := m[k]; ok {
				if x.conf > fe.edges[i].Confidence {
					fe.edges[i].Confidence = x.conf
				}
				continue
			}
			m[k] = int32(len(fe.edges))
			fe.edges = append(fe.edges, snapshot.Edge{From: from, To: to, Type: x.et, Confidence: x.conf})
		}
	}
	return fe
}

// resolveFile resolves the references of file fi, appending them to out.
func (r *resolver) resolveFile(fi int, out []resolvedRef) []resolvedRef {
	f := r.files[fi]
	lang := byLang[f.Lang]
	for _, ref := range f.Refs {
		from := r.fileID[fi]
		if ref.From >= 0 && int(ref.From) < len(f.Symbols) {
			from = r.symID[fi][ref.From]
		}
		switch ref.Kind {
		case RefCall:
			ids, c := r.resolveCall(fi, lang, ref)
			if len(ids) == 0 || r.distinctNames(ids) > maxTargets {
				continue
			}
			out = append(out, resolvedRef{from: from, ids: ids, conf: c, et: snapshot.EdgeCalls})
		case RefType, RefTypeHint:
			name := ref.Name
			if ref.Qual != "" {
				name = ref.Qual + "." + ref.Name
			}
			ids, c := r.resolveType(fi, ref.From, name)
			if len(ids) > maxTargets {
				continue
			}
			et := snapshot.EdgeReferences
			if ref.Kind == RefTypeHint {
				et = snapshot.EdgeTypeHintOf
			}
			x := resolvedRef{from: from, ids: ids, conf: c, et: et}
			if len(ids) == 0 {
				x.ext = name
			}
			out = append(out, x)
		}
	}
	return out
}

// joinIDs appends ids to out. Lists from the resolver's tables are
// shared and read-only, so the first non-empty one is taken as it is and
// only a second one makes a copy (owned says out is a copy). Most calls
// and field chains resolve through one list: no allocation.
func joinIDs(out []uint32, owned bool, ids []uint32) ([]uint32, bool) {
	switch {
	case len(ids) == 0:
		return out, owned
	case len(out) == 0:
		return ids, false
	case !owned:
		joined := make([]uint32, 0, len(out)+len(ids))
		return append(append(joined, out...), ids...), true
	}
	return append(out, ids...), true
}

func isIn(s string, list []string) bool {
	for _, x := range list {
		if s == x {
			return true
		}
	}
	return false
}

// resolveCall finds what a call refers to, by scope.
func (r *resolver) resolveCall(fi int, lang *Language, ref Ref) ([]uint32, float32) {
	if t, ok := strings.CutPrefix(ref.QualType, CallOrName); ok {
		// Typed when the chain leads to the method, else resolved as a
		// call on an unknown receiver, unless the chain starts in a
		// package from outside the repository (time.Now().Format()).
		typed := ref
		typed.QualType = "call:" + t
		if ids, c := r.resolveCall(fi, lang, typed); len(ids) > 0 {
			return ids, c
		}
		if r.externalRoot(fi, t) {
			return nil, 0
		}
		if lang != nil && lang.ChainByName {
			// The chain broke (a generic result, an extension method):
			// when the repository has one method of its last call's
			// name, that method's result is the receiver; else the call
			// is left unresolved rather than guessed by its name.
			i := strings.LastIndex(t, "().")
			if i < 0 {
				return nil, 0
			}
			last := t[i+3:]
			if last == "" || strings.IndexByte(last, '.') >= 0 {
				return nil, 0 // fields after the call: their types are unknown
			}
			// "(expr)" names nothing: the call is found by its name, if unique.
			typed.QualType = "call:(expr)." + last
			return r.resolveCall(fi, lang, typed)
		}
		ref.QualType = ""
	}
	f := r.files[fi]
	q := ref.Qual
	var self []string
	var super []string
	if lang != nil {
		self, super = lang.SelfNames, lang.SuperNames
	}
	encl, hasEncl := uint32(0), false
	if ref.From >= 0 {
		encl, hasEncl = r.parentType(fi, ref.From)
	}
	if q == "" {
		if hasEncl && lang != nil && lang.ImplicitSelf {
			if ids := r.memberOf(encl, ref.Name, callables); len(ids) > 0 {
				return ids, confScope
			}
		}
		if ids, c := r.lexical(fi, ref.From, ref.Name, callables); len(ids) > 0 {
			return ids, c
		}
		if ids := r.lookupScope(scopeOf(f), ref.Name, callables); len(ids) > 0 {
			return ids, confScope
		}
		if ids := r.fromImports(f, ref.Name, callables); len(ids) > 0 {
			return ids, confScope
		}
		if ids, _ := r.lexical(fi, ref.From, ref.Name, anyKind); len(ids) > 0 {
			return nil, 0 // the name is a variable in scope, not a callable
		}
		if ids := r.lookupScope(scopeOf(f), ref.Name, anyKind); len(ids) > 0 {
			return nil, 0
		}
		return r.unique(ref.Name, false)
	}
	first, rest, _ := strings.Cut(q, ".")
	// The object the call is made on, as a type, when it can be known.
	var recv []uint32
	conf := float32(confTyped)
	switch {
	case strings.HasPrefix(ref.QualType, "call:"):
		recv = r.resultTypes(fi, lang, ref.From, strings.TrimPrefix(ref.QualType, "call:"))
		if recv == nil {
			return nil, 0 // the call's result type is not in the repository
		}
	case ref.QualType != "":
		recv, _ = r.resolveType(fi, ref.From, ref.QualType)
		if recv == nil {
			return nil, 0 // a declared type outside the repository
		}
	case isIn(first, self) && hasEncl:
		recv, conf = r.one(encl), confScope
	case isIn(first, super) && hasEncl:
		recv, conf = r.bases[encl], confScope
	default:
		// Every import binding the name is tried (re-exports and barrels
		// give several); a package none of them finds is external.
		imported := false
		for _, im := range f.Imports {
			if im.LocalName() != first {
				continue
			}
			imported = true
			if im.Name == "" || im.Name == "*" {
				pkg := im.Path
				if rest != "" {
					pkg += "." + rest
				}
				if ids := r.keep(r.pkgTop[pkg][ref.Name], callables); len(ids) > 0 {
					return ids, confScope
				}
				if ids := r.keep(r.qnameOf(pkg, ref.Name), callables); len(ids) > 0 {
					return ids, confScope
				}
				continue
			}
			if t := r.keep(r.qnameOf(im.Path, im.Name), typesOnly); len(t) > 0 {
				recv, conf = t, confScope
				break
			}
		}
		if imported && recv == nil {
			return nil, 0 // imported from outside the repository
		}
		if recv == nil {
			// A type named directly: Foo.bar(), Foo::new().
			if ids, _ := r.resolveType(fi, ref.From, first); len(ids) > 0 && startsUpper(first) {
				recv, conf = ids, confScope
			}
		}
	}
	if recv != nil {
		out, ok := r.callOn(recv, rest, ref.Name)
		if !ok {
			return nil, 0 // a field chain into types outside the repository
		}
		if len(out) > 0 {
			return out, conf
		}
		if rest == "" && ref.Name == LastPart(first) {
			// new Foo() on a class that declares no constructor.
			for _, t := range recv {
				if r.g.Nodes[t].Name == ref.Name {
					out = append(out, t)
				}
			}
			if len(out) > 0 {
				return out, conf
			}
		}
		// The receiver's type is known and has no such member (it comes
		// from outside the repository): do not guess by name.
		return nil, 0
	}
	if startsUpper(first) && rest == "" && ref.QualType == "" {
		// A type or constant that did not resolve: an external one.
		return nil, 0
	}
	return r.unique(ref.Name, true)
}

// externalRoot reports a call chain whose first name is a package import
// (Go's time, fmt) of a package the repository does not have. A name
// imported from a module is not judged: barrels and re-exports make its
// path an unreliable key.
func (r *resolver) externalRoot(fi int, chain string) bool {
	first := chain
	if i := strings.IndexAny(chain, ".("); i >= 0 {
		first = chain[:i]
	}
	for _, im := range r.files[fi].Imports {
		if im.Name != "" || im.LocalName() != first {
			continue
		}
		if _, ok := r.pkgTop[im.Path]; ok {
			return false
		}
		return true
	}
	return false
}

// callOn finds the methods named name of the types recv, or of the types
// of the field chain fields ("a.b") of recv; ok is false when the fields
// lead outside the repository.
func (r *resolver) callOn(recv []uint32, fields, name string) (out []uint32, ok bool) {
	if fields != "" {
		if recv = r.followFields(recv, fields); recv == nil {
			return nil, false
		}
	}
	out, _ = r.groupMembers(recv, name, callables)
	return out, true
}

// groupMembers is memberOf over types, each group of declarations of one
// type (seenGroup) asked once; owned is joinIDs's: whether out is a
// fresh slice rather than one memberOf returned.
func (r *resolver) groupMembers(types []uint32, name string, fl filter) (out []uint32, owned bool) {
	var buf [8]uint32
	seen := buf[:0]
	for _, t := range types {
		var dup bool
		if seen, dup = r.seenGroup(seen, t); dup {
			continue
		}
		out, owned = joinIDs(out, owned, r.memberOf(t, name, fl))
	}
	return out, owned
}

// resultTypes finds the type of the value a call returns: the result type
// declared on the called function, or the class itself when a class (or
// its constructor) is called. call is "f", "pkg.f" or "Type.f".
//
// A call made on the result of another call is written with "()" after
// the inner call, and the fields between: "Type.f().g" is g called on
// what Type.f returns, "Type.f().field.g" g on a field of it. Each level
// is resolved as a QualType "call:Type.f" is, up to maxCallChain levels.
func (r *resolver) resultTypes(fi int, lang *Language, from int32, call string) []uint32 {
	if fi >= len(r.chains) || !strings.Contains(call, "()") {
		return r.resultTypesOf(fi, lang, from, call)
	}
	key := chainKey{from, call}
	if out, ok := r.chains[fi][key]; ok {
		return out
	}
	out := r.resultTypesOf(fi, lang, from, call)
	if r.chains[fi] == nil {
		r.chains[fi] = map[chainKey][]uint32{}
	}
	r.chains[fi][key] = out
	return out
}

// maxCallChain bounds the calls of a chain followed to its last one
// (builders: p.cargo("build").with_stderr(..).run()).
const maxCallChain = 8

// chainKey is a call of a chain as seen from one symbol of a file.
type chainKey struct {
	from int32
	call string
}

// resultTypesOf is resultTypes without the memo.
func (r *resolver) resultTypesOf(fi int, lang *Language, from int32, call string) []uint32 {
	qual, name := "", call
	if i := strings.LastIndexByte(call, '.'); i >= 0 {
		qual, name = call[:i], call[i+1:]
	}
	var ids []uint32
	if i := strings.LastIndex(qual, "()"); i >= 0 {
		// The limit counts the calls of the chain itself, so that what a
		// chain resolves to does not depend on who asks.
		if i == 0 || strings.Count(qual, "()") > maxCallChain {
			return nil
		}
		recv := r.resultTypes(fi, lang, from, qual[:i])
		ids, _ = r.callOn(recv, strings.TrimPrefix(qual[i+2:], "."), name)
	} else {
		ids, _ = r.resolveCall(fi, lang, Ref{From: from, Kind: RefCall, Name: name, Qual: qual})
	}
	var out []uint32
	for _, id := range ids {
		n := &r.g.Nodes[id]
		if n.Kind.IsType() {
			out = append(out, id)
			continue
		}
		if n.Kind == snapshot.KindConstructor {
			if p, ok := r.parentType(int(r.symFile[id]), r.files[r.symFile[id]].Symbols[r.symIdx[id]].Parent); ok {
				out = append(out, p)
			}
			continue
		}
		sf, si := r.symFile[id], r.symIdx[id]
		if sf < 0 || si < 0 {
			continue
		}
		s := &r.files[sf].Symbols[si]
		if s.Type == "" {
			continue
		}
		if t, ok := r.parentType(int(sf), si); ok && (s.Type == "Self" || s.Type == "self") {
			out = append(out, t)
			continue
		}
		ts, _ := r.resolveType(int(sf), si, s.Type)
		out = append(out, ts...)
	}
	return out
}

// followFields walks a chain of field names from a type, through the
// declared types of the fields.
func (r *resolver) followFields(types []uint32, chain string) []uint32 {
	for last := false; !last; { // the fields of chain, as strings.Split gives them
		fieldName := chain
		if i := strings.IndexByte(chain, '.'); i >= 0 {
			fieldName, chain = chain[:i], chain[i+1:]
		} else {
			last = true
		}
		var next []uint32
		owned := false
		fields, _ := r.groupMembers(types, fieldName, anyKind)
		for _, fid := range fields {
			fi, si := r.symFile[fid], r.symIdx[fid]
			if fi < 0 || si < 0 {
				continue
			}
			typ := r.files[fi].Symbols[si].Type
			if typ == "" {
				continue
			}
			ids, _ := r.resolveType(int(fi), r.files[fi].Symbols[si].Parent, typ)
			next, owned = joinIDs(next, owned, ids)
		}
		if len(next) == 0 {
			return nil
		}
		if owned {
			// Fields of one struct declared per platform, each typed
			// with a type declared per platform, multiply: drop repeats.
			next = uniqueIDs(next)
		}
		types = next
	}
	return types
}

// seenGroup tells whether a type of t's group (the declarations of one
// qualified name, see sameType) is in seen, and returns seen with the
// group added when it is not. Member lookups answer the same for every type of a group, so
// receivers naming one type declared in 33 platform files are looked up
// once, not 33 times with 33 times the answer. Past 64 groups it stops
// recording (and callers repeat some lookups).
func (r *resolver) seenGroup(seen []uint32, t uint32) ([]uint32, bool) {
	g := t
	if dups, ok := r.dupTypes[t]; ok {
		g = dups[0]
	}
	if slices.Contains(seen, g) {
		return seen, true
	}
	if len(seen) < 64 {
		seen = append(seen, g)
	}
	return seen, false
}

// uniqueIDs drops the repeats from ids in place, keeping first occurrences
// in order.
func uniqueIDs(ids []uint32) []uint32 {
	if len(ids) <= 32 {
		out := ids[:0]
		for _, id := range ids {
			if !slices.Contains(out, id) {
				out = append(out, id)
			}
		}
		return out
	}
	seen := make(map[uint32]struct{}, len(ids))
	out := ids[:0]
	for _, id := range ids {
		if _, ok := seen[id]; !ok {
			seen[id] = struct{}{}
			out = append(out, id)
		}
	}
	return out
}

// unique resolves a name defined exactly once among the repository's
// callables (methods, functions, constructors); anything else is left
// unresolved rather than guessed.
func (r *resolver) unique(name string, methodsOnly bool) ([]uint32, float32) {
	if len(name) < 4 {
		return nil, 0
	}
	if r.uniqueMemo == nil {
		return r.uniqueScan(name, methodsOnly)
	}
	k := memberKey{name: name}
	if methodsOnly {
		k.t = 1
	}
	ids := r.uniqueMemo.get(k, func() []uint32 {
		ids, _ := r.uniqueScan(name, methodsOnly)
		return slices.Clip(ids)
	})
	if ids == nil {
		return nil, 0
	}
	return ids, confUnique
}

func (r *resolver) uniqueScan(name string, methodsOnly bool) ([]uint32, float32) {
	ids := r.keep(r.byName[name], callables)
	var fns []uint32
	for _, id := range ids {
		n := &r.g.Nodes[id]
		if !n.Kind.IsCallable() || n.Flags&snapshot.FlagTest != 0 {
			continue
		}
		if methodsOnly && n.Kind == snapshot.KindFunction {
			continue // obj.m() calls a method, not a free function
		}
		fns = append(fns, id)
	}
	if len(fns) > 0 && r.distinctNames(fns) == 1 {
		return fns, confUnique // one symbol, or the overloads of one
	}
	return nil, 0
}

// distinctNames counts the qualified names among ids: the overloads of one
// method (Java, C#) count once.
func (r *resolver) distinctNames(ids []uint32) int {
	if len(ids) <= 1 {
		return len(ids)
	}
	n := 0
	for i, id := range ids {
		dup := false
		for _, prev := range ids[:i] {
			if r.g.Nodes[prev].QName == r.g.Nodes[id].QName {
				dup = true
				break
			}
		}
		if !dup {
			n++
		}
	}
	return n
}

func startsUpper(s string) bool {
	for _, c := range s {
		return unicode.IsUpper(c)
	}
	return false
}

// cleanTypeName strips pointers, references, generic arguments, array and
// optional markers: "*pkg.Foo[T]" → "pkg.Foo", "Vec<Foo>" → "Vec",
// "&'a mut Foo" → "Foo", "Foo::Bar" → "Foo.Bar".
func cleanTypeName(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, "<[("); i > 0 {
		s = s[:i]
	}
	s = strings.ReplaceAll(s, "::", ".")
	s = strings.TrimLeft(s, "*&[]?. ")
	s = strings.TrimPrefix(s, "mut ")
	if strings.HasPrefix(s, "'") {
		if _, after, ok := strings.Cut(s, " "); ok {
			s = strings.TrimPrefix(strings.TrimSpace(after), "mut ")
		}
	}
	s = strings.TrimRight(s, "?!*& ")
	for _, c := range s {
		if !(c == '.' || c == '_' || c == '$' || unicode.IsLetter(c) || unicode.IsDigit(c)) {
			return ""
		}
	}
	return s
}

// resolveImports links files to the packages they import.
func (r *resolver) resolveImports() {
	for fi, f := range r.files {
		for _, im := range f.Imports {
			target, ok := r.pkgNode[im.Path]
			if !ok && im.Name != "" && im.Name != "*" {
				if ids := r.qnameOf(im.Path, im.Name); len(ids) > 0 {
					target, ok = ids[0], true
				}
			}
			if !ok {
				continue
			}
			r.addEdge(r.fileID[fi], target, snapshot.EdgeImports, confScope)
		}
	}
}

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

// tests links test functions to what they exercise: the non-test symbols
// they call, and for Go the symbol a TestXxx name points to.
func (r *resolver) tests() {
	// The calls out of each node, in edge order, as two flat arrays:
	// callee[start[id]:start[id+1]].
	start := make([]int32, len(r.g.Nodes)+1)
	for _, e := range r.g.Edges {
		if e.Type == snapshot.EdgeCalls {
			start[e.From+1]++
		}
	}
	for i := 1; i < len(start); i++ {
		start[i] += start[i-1]
	}
	callee := make([]uint32, start[len(start)-1])
	fill := slices.Clone(start[:len(start)-1])
	var added []uint32
	for _, e := range r.g.Edges {
		if e.Type == snapshot.EdgeCalls {
			callee[fill[e.From]] = e.To
			fill[e.From]++
		}
	}
	for fi, f := range r.files {
		lang := byLang[f.Lang]
		for si := range f.Symbols {
			s := &f.Symbols[si]
			if !s.Kind.IsCallable() {
				continue
			}
			// A test file's functions, or tests the extractor flagged in
			// a source file (Rust's #[cfg(test)] modules).
			if f.Flags&snapshot.FlagTest == 0 && s.Flags&snapshot.FlagTest == 0 {
				continue
			}
			if s.Flags&snapshot.FlagTest == 0 && lang != nil && lang.TestName != nil && !lang.TestName(s.Name) {
				continue
			}
			// Only this loop adds tests edges, once per test: a list of
			// the test's subjects keeps them unique.
			id := r.symID[fi][si]
			r.g.Nodes[id].Flags |= snapshot.FlagTest
			added = added[:0]
			for _, t := range callee[start[id]:start[id+1]] {
				// Calls out of id are unique, and id itself is a test now.
				if r.g.Nodes[t].Flags&snapshot.FlagTest == 0 {
					added = append(added, t)
				}
			}
			if f.Lang == snapshot.LangGo {
				for _, t := range r.goTestSubject(fi, s.Name) {
					if t != id && !slices.Contains(added, t) {
						added = append(added, t)
					}
				}
			}
			for _, t := range added {
				r.g.Edges = append(r.g.Edges,
					snapshot.Edge{From: id, To: t, Type: snapshot.EdgeTests, Confidence: confInfer},
					snapshot.Edge{From: t, To: id, Type: snapshot.EdgeTestedBy, Confidence: confInfer})
			}
		}
	}
}

// goTestSubject maps TestServeMux → ServeMux, TestServer_Serve →
// Server.Serve, in the test's package (or the package it tests).
func (r *resolver) goTestSubject(fi int, name string) []uint32 {
	base := ""
	for _, p := range []string{"Test", "Benchmark", "Fuzz", "Example"} {
		if rest, ok := strings.CutPrefix(name, p); ok {
			base = rest
			break
		}
	}
	base = strings.TrimLeft(base, "_")
	if base == "" {
		return nil
	}
	f := r.files[fi]
	pkg := strings.TrimSuffix(f.Package, "_test")
	typ, member, two := strings.Cut(base, "_")
	var out []uint32
	for _, id := range r.qnameOf(pkg, typ) {
		if r.g.Nodes[id].Flags&snapshot.FlagTest != 0 {
			continue
		}
		if two {
			for _, m := range r.membersNamed(id, member) {
				out = append(out, m)
			}
		} else {
			out = append(out, id)
		}
	}
	return out
}
