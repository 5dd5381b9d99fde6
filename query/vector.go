package query

import (
	"math"
	"strings"
)

// The hashed-vector channel: a task and a symbol are compared as hashed
// character-trigram vectors of their words. It needs no model and no
// index: it re-ranks the candidates the other channels found plus the
// BM25 pool. Off by default (Options.Vector): turned on, it lowered the
// dev and gostd figures (EVAL.md, Experiments).
const vecDim = 256

func trigramVector(dst *[vecDim]float32, text string) {
	*dst = [vecDim]float32{}
	s := " " + strings.ToLower(text) + " "
	for i := 0; i+3 <= len(s); i++ {
		h := uint32(2166136261)
		for k := 0; k < 3; k++ {
			h = (h ^ uint32(s[i+k])) * 16777619
		}
		if h&1 == 0 {
			dst[h>>1%vecDim]++
		} else {
			dst[h>>1%vecDim]--
		}
	}
	var n float32
	for _, x := range dst {
		n += x * x
	}
	if n > 0 {
		inv := 1 / float32(math.Sqrt(float64(n)))
		for i := range dst {
			dst[i] *= inv
		}
	}
}

func (e *Engine) vectorChannel(ws *workspace, kw *Keywords, pool []uint32) []uint32 {
	var q, v [vecDim]float32
	trigramVector(&q, strings.Join(kw.Components, " "))
	type sc struct {
		id  uint32
		cos float32
	}
	var all []sc
	for _, id := range pool {
		trigramVector(&v, strings.Join(splitWords(e.s.Name(id)), " "))
		var c float32
		for i := range q {
			c += q[i] * v[i]
		}
		if c > 0.2 {
			all = append(all, sc{id, c})
		}
	}
	for i := 1; i < len(all); i++ {
		for j := i; j > 0 && (all[j].cos > all[j-1].cos || all[j].cos == all[j-1].cos && all[j].id < all[j-1].id); j-- {
			all[j], all[j-1] = all[j-1], all[j]
		}
	}
	if len(all) > 30 {
		all = all[:30]
	}
	ids := make([]uint32, len(all))
	for i, s := range all {
		ids[i] = s.id
	}
	return ids
}
