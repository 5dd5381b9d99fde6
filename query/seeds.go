package query

import (
	"sort"
	"strings"

	"github.com/knowing-dev/knowing/snapshot"
)

// selectSeeds filters and orders the fused candidates and returns the walk
// seeds (step 5): best fused first, the most cohesive package promoted, types
// preferred on large graphs; a symbol the task writes as code (a stack
// frame, a call, a backticked name) is never demoted.
func (e *Engine) selectSeeds(ws *workspace, kw *Keywords) []uint32 {
	var order []int
	allow := kw.aux()
	for i := range ws.cand {
		if ws.cand[i].fused > 0 && e.keep(ws.cand[i].id, allow) {
			order = append(order, i)
		}
	}
	sort.Slice(order, func(a, b int) bool {
		x, y := &ws.cand[order[a]], &ws.cand[order[b]]
		if x.fused != y.fused {
			return x.fused > y.fused
		}
		return x.id < y.id
	})
	if len(order) > 40 {
		order = order[:40]
	}
	maxSeeds := 15
	switch {
	case e.n > 40000:
		maxSeeds = 25
	case e.n > 10000:
		maxSeeds = 20
	}
	// Focus: the package holding most of the top candidates goes first.
	pkgCount := ws.pkgCount
	clear(pkgCount)
	pkgOf := make([]string, len(order))
	for i, ci := range order {
		pkgOf[i] = e.packageKey(ws.cand[ci].id)
		pkgCount[pkgOf[i]] += ws.cand[ci].fused
	}
	best, bestN := "", 0.0
	for i := range order {
		if c := pkgCount[pkgOf[i]]; c > bestN {
			best, bestN = pkgOf[i], c
		}
	}
	prefType := e.n > 50000
	rankOf := func(i int) int {
		if IsCode(kw.Code, e.s.Name(ws.cand[order[i]].id)) {
			return 0 // written as code in the task: the strongest evidence
		}
		r := 0
		if pkgOf[i] != best && e.tune.Focus > 0 {
			r += 2
		}
		if prefType && !e.s.Kind(ws.cand[order[i]].id).IsType() {
			r++
		}
		return r
	}
	idx := make([]int, len(order))
	for i := range idx {
		idx[i] = i
	}
	// Keep the single best match first whatever its package: it is the
	// strongest evidence the task gives.
	sort.SliceStable(idx[min(1, len(idx)):], func(a, b int) bool {
		a, b = a+1, b+1
		return rankOf(idx[a]) < rankOf(idx[b])
	})
	seeds := make([]uint32, 0, maxSeeds)
	for _, i := range idx {
		if len(seeds) == maxSeeds {
			break
		}
		cd := &ws.cand[order[i]]
		cd.seed = true
		seeds = append(seeds, cd.id)
	}
	return seeds
}

// packageKey groups a node with its package: the folder of its file.
func (e *Engine) packageKey(id uint32) string {
	fi := e.s.FileIndex(id)
	if fi < 0 {
		return ""
	}
	p := e.s.FilePath(int(fi))
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return ""
}

// auxFlags mark code that serves the project rather than being it: tests
// and examples. Such code is no walk seed, comes after real code among
// name matches and is scored down (TestPenalty), unless the task asks for
// it (Keywords.aux).
const auxFlags = snapshot.FlagTest | snapshot.FlagExample

// aux returns the auxiliary flags (auxFlags) the task asks for.
func (k *Keywords) aux() snapshot.Flags {
	var f snapshot.Flags
	if k.Tests {
		f |= snapshot.FlagTest
	}
	if k.Examples {
		f |= snapshot.FlagExample
	}
	return f
}

// Eligible reports whether node id may be a result for a task with
// keywords kw at all, as keep does for the engine's own results: a
// ranking of the whole index (a baseline) filters with it.
func (e *Engine) Eligible(id uint32, kw *Keywords) bool {
	return e.keep(id, kw.aux())
}

// keep reports nodes that may be results or seeds at all: not files,
// packages, externals or noise, and no auxiliary code the task does not
// allow.
func (e *Engine) keep(id uint32, allow snapshot.Flags) bool {
	k := e.s.Kind(id)
	if k == snapshot.KindFile || k == snapshot.KindPackage || k == snapshot.KindExternal || k == snapshot.KindUnknown {
		return false
	}
	f := e.s.Flags(id)
	if f.Noise() {
		return false
	}
	if f&auxFlags&^allow != 0 {
		return false
	}
	name := e.s.Name(id)
	if len(name) <= 2 && !shortOK[strings.ToLower(name)] {
		return false
	}
	if k == snapshot.KindModule && e.namespace(id) {
		return false
	}
	return true
}

// namespace reports a module that holds no code of its own, only other
// modules and types: Ruby's `module Rack` around a class, reopened in
// every file that adds one. It groups code as a package does and, like a
// package, is never a result (on the dev and held-out tasks no such module
// in a top 10 was relevant).
func (e *Engine) namespace(id uint32) bool {
	it := e.s.Neighbors(id, snapshot.Out)
	for it.Next() {
		if it.Type() == snapshot.EdgeContains && !e.s.Kind(it.Node()).IsType() {
			return false
		}
	}
	return true
}

var shortOK = map[string]bool{"id": true, "ok": true, "db": true, "ip": true, "io": true, "go": true, "do": true, "os": true, "ui": true, "fs": true}
