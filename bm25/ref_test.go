package bm25

import (
	"math"
	"math/bits"
	"sort"
)

// refIndex is a brute-force model of the index, written from the format
// description in the package comment: it recomputes every impact and its
// stored (quantized) value from the raw documents and scores queries by
// scanning all documents.
type refIndex struct {
	p     Params
	ids   []uint32
	n     [NumFields]int     // documents with a non-empty field
	avg   [NumFields]float64 // their mean length
	tf    []map[string][NumFields]int
	lens  [][NumFields]int
	terms map[string]*refTerm
	vocab []string // sorted
}

type refTerm struct {
	docs   []int // insertion indexes, increasing
	fields uint8
	df     [NumFields]int
	// stored contributions before weights and boost, per document index
	field    map[int]*[NumFields]float64 // quantized per-field impacts
	combined map[int]float64             // quantized weighted sums (lists only)
	single   bool
}

func newRef(p Params, ids []uint32, docs []Doc) *refIndex {
	r := &refIndex{p: p, ids: ids, terms: map[string]*refTerm{}}
	for i := range docs {
		var tfs [NumFields]map[string]int
		var lens [NumFields]int
		for f := 0; f < NumFields; f++ {
			toks := AppendTokens(nil, docs[i].Fields[f])
			lens[f] = len(toks)
			tfs[f] = map[string]int{}
			for _, t := range toks {
				if indexed(Field(f), t) {
					tfs[f][t]++
				}
			}
			if len(toks) > 0 {
				r.n[f]++
				r.avg[f] += float64(len(toks))
			}
		}
		m := map[string][NumFields]int{}
		for f := 0; f < NumFields; f++ {
			for t, c := range tfs[f] {
				v := m[t]
				v[f] = c
				m[t] = v
			}
		}
		r.tf = append(r.tf, m)
		r.lens = append(r.lens, lens)
		for t, v := range m {
			rt := r.terms[t]
			if rt == nil {
				rt = &refTerm{}
				r.terms[t] = rt
			}
			rt.docs = append(rt.docs, i)
			for f := 0; f < NumFields; f++ {
				if v[f] > 0 {
					rt.df[f]++
					rt.fields |= 1 << f
				}
			}
		}
	}
	for f := range r.avg {
		if r.n[f] > 0 {
			r.avg[f] /= float64(r.n[f])
		}
	}
	for t, rt := range r.terms {
		r.vocab = append(r.vocab, t)
		r.quantize(t, rt)
	}
	sort.Strings(r.vocab)
	return r
}

func refBF16(x float32) float32 {
	b := math.Float32bits(x)
	b += 0x7fff + (b>>16)&1
	return math.Float32frombits(b &^ 0xffff)
}

func (r *refIndex) impact(t string, rt *refTerm, f, i int) float64 {
	tf := float64(r.tf[i][t][f])
	df := float64(rt.df[f])
	n := float64(r.n[f])
	idf := math.Log(1 + (n-df+0.5)/(df+0.5))
	k1, b := float64(r.p.K1), float64(r.p.B)
	norm := 1 - b + b*float64(r.lens[i][f])/r.avg[f]
	return idf * tf * (k1 + 1) / (tf + k1*norm)
}

func (r *refIndex) quantize(t string, rt *refTerm) {
	rt.field = map[int]*[NumFields]float64{}
	for _, i := range rt.docs {
		rt.field[i] = new([NumFields]float64)
	}
	if len(rt.docs) == 1 {
		rt.single = true
		i := rt.docs[0]
		for f := 0; f < NumFields; f++ {
			if rt.fields&(1<<f) != 0 {
				rt.field[i][f] = float64(refBF16(float32(r.impact(t, rt, f, i))))
			}
		}
		return
	}
	quant := func(vals map[int]float64) map[int]float64 {
		mx := 0.0
		for _, v := range vals {
			mx = math.Max(mx, v)
		}
		out := map[int]float64{}
		scale := float64(float32(mx / 255))
		for i, v := range vals {
			q := math.Round(v / mx * 255)
			if v > 0 {
				q = math.Max(q, 1)
			}
			out[i] = q * scale
		}
		return out
	}
	for f := 0; f < NumFields; f++ {
		if rt.fields&(1<<f) == 0 {
			continue
		}
		vals := map[int]float64{}
		for _, i := range rt.docs {
			if r.tf[i][t][f] > 0 {
				vals[i] = r.impact(t, rt, f, i)
			}
		}
		for i, v := range quant(vals) {
			rt.field[i][f] = v
		}
	}
	if bits.OnesCount8(rt.fields) > 1 && len(rt.docs) >= combinedMinDF {
		vals := map[int]float64{}
		for _, i := range rt.docs {
			for f := 0; f < NumFields; f++ {
				if r.tf[i][t][f] > 0 {
					vals[i] += r.impact(t, rt, f, i) * float64(r.p.Weights[f])
				}
			}
		}
		rt.combined = quant(vals)
	}
}

// scores returns the reference score of every matching document id.
func (r *refIndex) scores(q []QueryTerm) map[uint32]float64 {
	out := map[uint32]float64{}
	for _, qt := range q {
		rt := r.terms[qt.Text]
		if rt == nil {
			continue
		}
		mask := qt.Fields
		if mask == 0 {
			mask = allFields
		}
		mask &= allFields
		boost := float64(qt.Boost)
		if boost == 0 {
			boost = 1
		}
		if mask&rt.fields == 0 {
			continue
		}
		for _, i := range rt.docs {
			var x float64
			if rt.combined != nil && rt.fields&^mask == 0 {
				x = rt.combined[i]
			} else {
				has := false
				for f := 0; f < NumFields; f++ {
					if mask&(1<<f) != 0 && r.tf[i][qt.Text][f] > 0 {
						has = true
						x += rt.field[i][f] * float64(r.p.Weights[f])
					}
				}
				if !has {
					continue
				}
			}
			out[r.ids[i]] += x * boost
		}
	}
	return out
}

// top returns the reference ranking: score descending, then id ascending.
func refTop(sc map[uint32]float64, k int) []Hit {
	var hs []Hit
	for d, s := range sc {
		hs = append(hs, Hit{Doc: d, Score: float32(s)})
	}
	sort.Slice(hs, func(i, j int) bool {
		a, b := sc[hs[i].Doc], sc[hs[j].Doc]
		if a != b {
			return a > b
		}
		return hs[i].Doc < hs[j].Doc
	})
	if len(hs) > k {
		hs = hs[:k]
	}
	return hs
}

// indexed reports whether term t of field f gets a posting, as the
// package comment and Add describe it: every term counts toward the
// field's length; the whole-path term of a qualified name is not indexed.
func indexed(f Field, t string) bool {
	if f != FieldQName {
		return true
	}
	for i := 0; i < len(t); i++ {
		if t[i] == '.' || t[i] == '/' {
			return false
		}
	}
	return true
}
