package query

import (
	"math/bits"
	"strings"

	"github.com/knowing-dev/knowing/snapshot"
)

// aliasChannel derives aliases from the graph: a top name match whose
// callers and callees are named with the task's words is what the task
// calls by those words ("blast radius" → TransitiveCallers, called by
// handleBlastRadius). It returns the matches whose neighbourhood shares at
// least two task words the symbol's own name lacks, best first.
func (e *Engine) aliasChannel(ws *workspace, tiered []uint32) []uint32 {
	words := ws.words // the task's components
	if len(words) < 2 {
		return nil
	}
	words = words[:min(len(words), 64)] // a word per bit
	type alias struct {
		id    uint32
		extra int
	}
	var out []alias
	for i, id := range tiered {
		if i == 10 {
			break
		}
		// The words the symbol's own name lacks, then those its callers
		// and callees are named with.
		own := strings.ToLower(e.s.Name(id))
		var want, seen uint64
		for j, w := range words {
			if !strings.Contains(own, w) {
				want |= 1 << j
			}
		}
		for _, dir := range [2]snapshot.Direction{snapshot.In, snapshot.Out} {
			it := e.s.Neighbors(id, dir)
			for k := 0; k < 32 && want&^seen != 0 && it.Next(); k++ {
				if it.Type() != snapshot.EdgeCalls {
					continue
				}
				name := e.s.Name(it.Node())
				for j, w := range words {
					if (want&^seen)&(1<<j) != 0 && HasPart(name, w) {
						seen |= 1 << j
					}
				}
			}
		}
		if n := bits.OnesCount64(seen); n >= 2 {
			out = append(out, alias{id, n})
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
