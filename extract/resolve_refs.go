package extract

import "github.com/knowing-dev/knowing/snapshot"

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
			ids = r.inView(fi, ids)
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
