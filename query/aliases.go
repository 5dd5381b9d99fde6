package query

import (
	"strings"

	"github.com/knowing-dev/knowing/snapshot"
)

// aliasChannel derives aliases from the graph: a top name match whose
// callers and callees are named with the task's words is what the task
// calls by those words ("blast radius" → TransitiveCallers, called by
// handleBlastRadius). It returns the matches whose neighbourhood shares at
// least two task words the symbol's own name lacks, best first.
func (e *Engine) aliasChannel(ws *workspace, kw *Keywords, tiered []uint32) []uint32 {
	words := kw.Pos
	if len(words) < 2 {
		return nil
	}
	type alias struct {
		id    uint32
		extra int
	}
	var out []alias
	for i, id := range tiered {
		if i == 10 {
			break
		}
		own := strings.ToLower(e.s.Name(id))
		seen := map[string]bool{}
		for _, dir := range []snapshot.Direction{snapshot.In, snapshot.Out} {
			it := e.s.Neighbors(id, dir)
			for k := 0; k < 32 && it.Next(); k++ {
				if it.Type() != snapshot.EdgeCalls {
					continue
				}
				for w := range words {
					if !seen[w] && !strings.Contains(own, w) && hasPart(e.s.Name(it.Node()), w) {
						seen[w] = true
					}
				}
			}
		}
		if len(seen) >= 2 {
			out = append(out, alias{id, len(seen)})
		}
	}
	// Stable order: more shared words first, then the tiered order.
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].extra > out[j-1].extra; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	ids := make([]uint32, len(out))
	for i, a := range out {
		ids[i] = a.id
	}
	return ids
}
