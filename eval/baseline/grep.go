// Package baseline holds the rankings the eval reports beside the
// engine's, as floors any ranking must beat. They use the engine's task
// reading and result filter, so that only the ranking differs.
package baseline

import (
	"context"
	"sort"
	"strings"

	"github.com/knowing-dev/knowing/query"
)

// Grep ranks symbols the way grepping for the task's words would: by how
// many distinct task words occur in the symbol's qualified name (at
// identifier-part boundaries, case-insensitively: query.HasPart), ties
// broken by shorter names, then by node id. It scans every node, so it is
// for evaluation only.
func Grep(ctx context.Context, e *query.Engine, task string, limit int) ([]query.Item, error) {
	if strings.TrimSpace(task) == "" {
		return nil, query.ErrEmptyTask
	}
	kw := query.ExtractKeywords(task)
	words := make([]string, 0, len(kw.Pos))
	for w := range kw.Pos {
		words = append(words, w)
	}
	s := e.Snapshot()
	type scored struct {
		id    uint32
		count int
	}
	var all []scored
	for id := 0; id < s.NumNodes(); id++ {
		if id%4096 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if !e.Eligible(uint32(id), &kw) {
			continue
		}
		q := s.QName(uint32(id))
		c := 0
		for _, w := range words {
			if query.HasPart(q, w) {
				c++
			}
		}
		if c > 0 {
			all = append(all, scored{uint32(id), c})
		}
	}
	sort.Slice(all, func(a, b int) bool {
		x, y := all[a], all[b]
		if x.count != y.count {
			return x.count > y.count
		}
		lx, ly := len(s.QName(x.id)), len(s.QName(y.id))
		if lx != ly {
			return lx < ly
		}
		return x.id < y.id
	})
	if len(all) > limit {
		all = all[:limit]
	}
	out := make([]query.Item, len(all))
	for i, sc := range all {
		out[i] = e.Item(sc.id, float64(sc.count))
	}
	return out, nil
}
