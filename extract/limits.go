package extract

// MaxNesting is the deepest a symbol may sit in its file: a function inside
// 31 others is kept, one inside 32 is not (nor what it contains). Every
// symbol's qualified name holds its ancestors' names, so a file of n nested
// functions costs n² bytes of names and postings: 185 KB of JavaScript
// nesting 10,000 functions made a 373 MB snapshot. Real code stays far
// below the cap; the snapshots of every reference tree are the same with
// it.
const MaxNesting = 32

// capNesting drops r's symbols nested deeper than max, with everything
// inside them; a reference out of a dropped symbol goes to its nearest kept
// ancestor. It returns how many symbols it dropped. A file within the cap,
// nearly every file, costs one look up each symbol's parent chain (at most
// max steps) and no allocation.
func capNesting(r *FileResult, max int) int {
	syms := r.Symbols
	deep := false
	for i := range syms {
		if depthOver(syms, int32(i), max) {
			deep = true
			break
		}
	}
	if !deep {
		return 0
	}
	newIdx := make([]int32, len(syms))
	kept := int32(0)
	for i := range syms {
		if depthOver(syms, int32(i), max) {
			newIdx[i] = -1
			continue
		}
		newIdx[i] = kept
		kept++
	}
	// keptAncestor is i itself when kept, else its nearest kept ancestor
	// (-1: file level).
	keptAncestor := func(i int32) int32 {
		for i >= 0 && int(i) < len(syms) && newIdx[i] < 0 {
			i = syms[i].Parent
		}
		if i < 0 || int(i) >= len(syms) {
			return -1
		}
		return newIdx[i]
	}
	for i := range r.Refs {
		r.Refs[i].From = keptAncestor(r.Refs[i].From)
	}
	for i := range syms {
		j := newIdx[i]
		if j < 0 {
			continue
		}
		s := syms[i]
		if s.Parent >= 0 && int(s.Parent) < len(syms) {
			s.Parent = newIdx[s.Parent] // kept: it is shallower than s
		}
		syms[j] = s
	}
	r.Symbols = syms[:kept]
	return len(syms) - int(kept)
}

// depthOver reports whether symbol i has more than max ancestors. It stops
// after max+1 steps, so a cycle cannot hold it.
func depthOver(syms []Symbol, i int32, max int) bool {
	p := syms[i].Parent
	for d := 0; p >= 0 && int(p) < len(syms); d++ {
		if d >= max {
			return true
		}
		p = syms[p].Parent
	}
	return false
}
