package extract

import (
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

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

	inc *includes // C and C++ (resolve_includes.go); nil without such files
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
	return resolveAll(results, nodesDone).g
}

// resolveAll is resolve, returning the resolver: its symFile and symIdx
// say which symbol each node is.
func resolveAll(results []*FileResult, nodesDone func(*snapshot.Graph)) *resolver {
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
	r.mergeDecls()
	r.declare()
	r.attachReceivers()
	r.attachMembers()
	if nodesDone != nil {
		nodesDone(r.g)
	}
	r.index()
	r.includeEdges()
	r.resolveBases()
	r.resolveRefs()
	r.resolveImports()
	r.inheritance()
	r.goImplements()
	r.tests()
	r.coChange()
	return r
}

// coChange links the symbols that the same commits changed (history.go):
// a pair changed together in at least minCoChanges commits, each of
// which changed at most maxCoChangeSymbols symbols, gets one edge, from
// the lower node id, its confidence growing with the count.
func (r *resolver) coChange() {
	byCommit := map[int32][]uint32{}
	for fi, f := range r.files {
		for si := range f.Symbols {
			for _, c := range f.Symbols[si].Commits {
				byCommit[c] = append(byCommit[c], r.symID[fi][si])
			}
		}
	}
	if len(byCommit) == 0 {
		return
	}
	pairs := map[uint64]int{}
	for _, ids := range byCommit {
		if len(ids) < 2 || len(ids) > maxCoChangeSymbols {
			continue
		}
		for i, a := range ids {
			for _, b := range ids[i+1:] {
				if a > b {
					a, b = b, a
				}
				if a != b {
					pairs[uint64(a)<<32|uint64(b)]++
				}
			}
		}
	}
	keys := make([]uint64, 0, len(pairs))
	for k, n := range pairs {
		if n >= minCoChanges {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	for _, k := range keys {
		n := float32(pairs[k])
		r.addEdge(uint32(k>>32), uint32(k), snapshot.EdgeCoChange, n/(n+1))
	}
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
