package query

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/knowing-dev/knowing/snapshot"
)

// Graph answers: what a symbol is, who calls it and what it calls, read
// straight from the snapshot's edges. They need no task and no walk; they
// are not a pipeline step.

// ErrNoSymbol is returned by Resolve for a reference no symbol matches.
type ErrNoSymbol struct {
	Ref  string
	Near []string // qualified names of symbols with a similar name
}

func (e *ErrNoSymbol) Error() string {
	if len(e.Near) == 0 {
		return fmt.Sprintf("no symbol %q in the snapshot", e.Ref)
	}
	return fmt.Sprintf("no symbol %q in the snapshot; near names: %s", e.Ref, strings.Join(e.Near, ", "))
}

// ErrAmbiguous is returned by Resolve for a reference several symbols
// match; Candidates lists them, at most maxCandidates.
type ErrAmbiguous struct {
	Ref        string
	Candidates []string
	More       int // candidates not listed
}

func (e *ErrAmbiguous) Error() string {
	more := ""
	if e.More > 0 {
		more = fmt.Sprintf(" and %d more", e.More)
	}
	return fmt.Sprintf("%q names %d symbols: %s%s; give more of the qualified name", e.Ref, len(e.Candidates)+e.More, strings.Join(e.Candidates, ", "), more)
}

const maxCandidates = 10

// Resolve finds the one symbol ref names: a qualified name
// (net/http.Server.Serve), a unique dotted suffix (Server.Serve,
// Scaffold.before_request; "::" reads as "."), a unique bare name, or a
// position "file:line" (the innermost symbol holding that line of the file
// whose path ends with file). Several matches give an *ErrAmbiguous
// listing them, none an *ErrNoSymbol with near names. An exact qualified
// name wins over longer names it is a suffix of.
func (e *Engine) Resolve(ref string) (uint32, error) {
	ref = strings.TrimSpace(ref)
	if file, line, ok := position(ref); ok {
		if id, found := e.innermost(file, line); found {
			return id, nil
		}
		return 0, &ErrNoSymbol{Ref: ref}
	}
	ids := e.resolveSymbol(ref)
	ids = slices.DeleteFunc(ids, func(id uint32) bool {
		k := e.s.Kind(id)
		return k == snapshot.KindExternal
	})
	want := strings.ReplaceAll(ref, "::", ".")
	for _, id := range ids {
		if e.s.QName(id) == want {
			return id, nil
		}
	}
	switch len(ids) {
	case 1:
		return ids[0], nil
	case 0:
		return 0, &ErrNoSymbol{Ref: ref, Near: e.nearNames(ref)}
	}
	return 0, e.ambiguous(ref, ids)
}

// ambiguous is the error for a reference that names every node of ids:
// the first maxCandidates qualified names, sorted, and how many more.
func (e *Engine) ambiguous(ref string, ids []uint32) *ErrAmbiguous {
	names := make([]string, 0, min(len(ids), maxCandidates))
	for _, id := range ids[:min(len(ids), maxCandidates)] {
		names = append(names, strings.Clone(e.s.QName(id)))
	}
	slices.Sort(names)
	return &ErrAmbiguous{Ref: ref, Candidates: names, More: max(0, len(ids)-maxCandidates)}
}

// position reads "path:line".
func position(ref string) (string, int, bool) {
	i := strings.LastIndexByte(ref, ':')
	if i <= 0 || i == len(ref)-1 {
		return "", 0, false
	}
	n, err := strconv.Atoi(ref[i+1:])
	if err != nil || n <= 0 {
		return "", 0, false
	}
	return ref[:i], n, true
}

// innermost is the smallest symbol holding line of the files whose path
// is file or ends with "/"+file.
func (e *Engine) innermost(file string, line int) (uint32, bool) {
	file = strings.TrimPrefix(strings.ReplaceAll(file, "\\", "/"), "./")
	var ids []uint32
	best, span, found := uint32(0), uint32(0), false
	for fi := 0; fi < e.s.NumFiles(); fi++ {
		if p := e.s.FilePath(fi); p != file && !strings.HasSuffix(p, "/"+file) {
			continue
		}
		var id, sp uint32
		var ok bool
		if id, sp, ok, ids = e.innermostIn(fi, uint32(line), ids); ok && (!found || sp < span) {
			best, span, found = id, sp, true
		}
	}
	return best, found
}

// nearNames suggests qualified names for a reference that matched
// nothing: symbols whose name shares the reference's first three letters,
// the longest shared beginning first (at most 500 names looked at, five
// returned).
func (e *Engine) nearNames(ref string) []string {
	name := strings.ToLower(ref[strings.LastIndexAny(ref, ".:/")+1:])
	if len(name) < 3 {
		return nil
	}
	type near struct {
		key    string
		shared int
	}
	var keys []near
	it := e.s.NewNameIter()
	it.Reset(name[:3])
	for it.Next() && len(keys) < 500 {
		k := string(it.Key())
		n := 0
		for n < len(k) && n < len(name) && k[n] == name[n] {
			n++
		}
		keys = append(keys, near{k, n})
	}
	slices.SortStableFunc(keys, func(a, b near) int { return cmp.Compare(b.shared, a.shared) })
	var out []string
	var ids []uint32
	for _, k := range keys {
		ids = e.s.LookupName(k.key, ids[:0])
		for _, id := range ids {
			if e.s.Kind(id) != snapshot.KindExternal && len(out) < 5 {
				out = append(out, strings.Clone(e.s.QName(id)))
			}
		}
		if len(out) == 5 {
			break
		}
	}
	return out
}

// Hop is a symbol reached from another along edges, Depth edges away.
type Hop struct {
	Item
	Depth int    `json:"depth"`
	From  string `json:"from"` // the symbol one edge nearer the start
}

// Callers lists the symbols that call id, directly (depth 1) and, up to
// depth, through callers of callers; Callees the same along calls out.
// Each symbol appears once, at its least depth, in breadth-first order,
// by name within what one symbol reaches; at most limit of them (0: no
// limit), with total the count before the limit. Only the listed ones
// are described (a description reads the symbol's signature).
func (e *Engine) Callers(id uint32, depth, limit int) (hops []Hop, total int) {
	return e.hops(id, snapshot.In, depth, limit)
}

// Callees lists what id calls; see Callers.
func (e *Engine) Callees(id uint32, depth, limit int) (hops []Hop, total int) {
	return e.hops(id, snapshot.Out, depth, limit)
}

func (e *Engine) hops(start uint32, dir snapshot.Direction, depth, limit int) ([]Hop, int) {
	type hop struct {
		v, from uint32
		d       int
	}
	seen := map[uint32]bool{start: true}
	frontier := []uint32{start}
	var all []hop
	for d := 1; d <= depth && len(frontier) > 0; d++ {
		var next []uint32
		for _, u := range frontier {
			var level []uint32
			it := e.s.Neighbors(u, dir)
			for it.Next() {
				v := it.Node()
				if it.Type() != snapshot.EdgeCalls || seen[v] {
					continue
				}
				seen[v] = true
				level = append(level, v)
			}
			slices.SortFunc(level, func(a, b uint32) int { return cmp.Compare(e.s.QName(a), e.s.QName(b)) })
			for _, v := range level {
				all = append(all, hop{v, u, d})
			}
			next = append(next, level...)
		}
		frontier = next
	}
	n := len(all)
	if limit > 0 {
		n = min(n, limit)
	}
	out := make([]Hop, n)
	for i, h := range all[:n] {
		out[i] = Hop{Item: e.Item(h.v, 0), Depth: h.d, From: e.s.QName(h.from)}
	}
	return out, len(all)
}

// Definition describes id as a result with its doc summary: kind, file,
// line span, signature.
func (e *Engine) Definition(id uint32) Item {
	it := e.Item(id, 0)
	if doc, err := e.s.Doc(id); err == nil {
		it.Doc = Summary(doc)
	}
	return it
}

// Ref is an edge into a symbol: the symbol it comes from, and its type
// (calls, contains, tests, overrides, implements, extends, references...).
type Ref struct {
	Item
	Edge string `json:"edge"`
}

// Refs lists every edge into id except member_of and tested_by (the
// reverse halves of contains and tests, which Refs already lists from
// the other end), grouped by edge type in the order of
// snapshot.EdgeType, by name within a type; at most limit (0: all), with
// total the count before the limit.
func (e *Engine) Refs(id uint32, limit int) (refs []Ref, total int) {
	type edge struct {
		from uint32
		t    snapshot.EdgeType
	}
	var all []edge
	it := e.s.Neighbors(id, snapshot.In)
	for it.Next() {
		t := it.Type()
		if t == snapshot.EdgeMemberOf || t == snapshot.EdgeTestedBy {
			continue
		}
		all = append(all, edge{it.Node(), t})
	}
	slices.SortStableFunc(all, func(a, b edge) int {
		return cmp.Or(cmp.Compare(a.t, b.t), cmp.Compare(e.s.QName(a.from), e.s.QName(b.from)))
	})
	n := len(all)
	if limit > 0 {
		n = min(n, limit)
	}
	refs = make([]Ref, n)
	for i, x := range all[:n] {
		refs[i] = Ref{Item: e.Item(x.from, 0), Edge: x.t.String()}
	}
	return refs, len(all)
}

// OutlineEntry is one symbol of a file's outline, Depth levels inside
// the file (1: top level).
type OutlineEntry struct {
	Item
	Depth int `json:"depth"`
}

// FileNode finds the file whose path is file or ends with "/"+file.
// Several such files give an *ErrAmbiguous, none an *ErrNoSymbol.
func (e *Engine) FileNode(file string) (uint32, error) {
	file = strings.TrimPrefix(strings.ReplaceAll(strings.TrimSpace(file), "\\", "/"), "./")
	base := strings.ToLower(file[strings.LastIndexByte(file, '/')+1:])
	var hits []uint32
	for _, id := range e.s.LookupName(base, nil) {
		if e.s.Kind(id) != snapshot.KindFile {
			continue
		}
		q := e.s.QName(id)
		if q == file {
			return id, nil
		}
		if strings.HasSuffix(q, "/"+file) {
			hits = append(hits, id)
		}
	}
	switch len(hits) {
	case 1:
		return hits[0], nil
	case 0:
		return 0, &ErrNoSymbol{Ref: file}
	}
	return 0, e.ambiguous(file, hits)
}

// Outline lists the symbols a file node contains, nested: each symbol
// followed by its members, in line order.
func (e *Engine) Outline(file uint32) []OutlineEntry {
	tree := e.fileTree(file)
	out := make([]OutlineEntry, len(tree))
	for i, n := range tree {
		out[i] = OutlineEntry{Item: e.Item(n.id, 0), Depth: n.depth}
	}
	return out
}

// treeNode is a symbol of a file and how deep it sits (1: top level).
type treeNode struct {
	id    uint32
	depth int
}

// fileTree lists the symbols a file node contains, each followed by its
// members, in line order, without describing them (a description decodes
// the signature).
func (e *Engine) fileTree(file uint32) []treeNode {
	var out []treeNode
	var visit func(u uint32, depth int)
	visit = func(u uint32, depth int) {
		if depth > 32 {
			return
		}
		var kids []uint32
		it := e.s.Neighbors(u, snapshot.Out)
		for it.Next() {
			if it.Type() == snapshot.EdgeContains {
				kids = append(kids, it.Node())
			}
		}
		slices.SortFunc(kids, func(a, b uint32) int {
			la, _ := e.s.Lines(a)
			lb, _ := e.s.Lines(b)
			return cmp.Or(cmp.Compare(la, lb), cmp.Compare(a, b))
		})
		for _, k := range kids {
			out = append(out, treeNode{k, depth})
			visit(k, depth+1)
		}
	}
	visit(file, 1)
	return out
}
