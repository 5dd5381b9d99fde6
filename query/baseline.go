package query

import (
	"context"
	"sort"
	"strings"
)

// GrepBaseline ranks symbols the way grepping for the task's words would:
// by how many distinct task words occur in the symbol's qualified name
// (at identifier-part boundaries, case-insensitively), ties broken by
// shorter names. It scans every node, so it is for evaluation only: the
// eval reports it beside the engine as the floor any ranking must beat.
func (e *Engine) GrepBaseline(ctx context.Context, task string, limit int) ([]Item, error) {
	if strings.TrimSpace(task) == "" {
		return nil, ErrEmptyTask
	}
	kw := ExtractKeywords(task)
	ws := e.pool.Get().(*workspace)
	defer e.pool.Put(ws)
	ws.reset()
	ws.setWords(&kw)
	type scored struct {
		id    uint32
		count int
	}
	var all []scored
	allow := kw.aux()
	for id := 0; id < e.n; id++ {
		if id%4096 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if !e.keep(uint32(id), allow) {
			continue
		}
		if c := e.coverage(ws, uint32(id)); c > 0 {
			all = append(all, scored{uint32(id), c})
		}
	}
	sort.Slice(all, func(a, b int) bool {
		x, y := all[a], all[b]
		if x.count != y.count {
			return x.count > y.count
		}
		lx, ly := len(e.s.QName(x.id)), len(e.s.QName(y.id))
		if lx != ly {
			return lx < ly
		}
		return x.id < y.id
	})
	if len(all) > limit {
		all = all[:limit]
	}
	out := make([]Item, len(all))
	for i, s := range all {
		out[i] = e.item(&candidate{id: s.id, score: float64(s.count)}, e.tokens(s.id))
	}
	return out, nil
}
