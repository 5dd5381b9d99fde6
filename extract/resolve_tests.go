package extract

import (
	"slices"
	"strings"

	"github.com/knowing-dev/knowing/snapshot"
)

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
