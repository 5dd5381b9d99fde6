package walk

import (
	"math"

	"github.com/knowing-dev/knowing/snapshot"
)

// Weights maps an edge's attribute byte to the weight of a transition along
// it. A walker at u moves along an out-edge u→v with weight Out[attr] and
// against an in-edge v→u (from u back to v) with weight In[attr], with
// probability proportional to weight among all of u's transitions.
//
// Weights must be finite and non-negative; a zero, negative or non-finite
// (NaN, ±Inf) entry is treated as zero, so the edge is never walked. A
// Weights value is read-only during a walk and may be shared by goroutines.
type Weights struct {
	Out, In [256]float32
}

// typeWeights are the default transition weights by edge type: out for
// following an edge, in for walking it backwards (callee → caller,
// interface → implementor). Calls weigh most, then containment and the
// type hierarchy; references, imports and inherits weigh least. The types
// with an explicit inverse (contains and member_of, tests and tested_by)
// are not walked backwards, so the pair is not counted twice. EVAL.md
// records that other weights for inherits edges barely move the rankings.
var typeWeights = [snapshot.NumEdgeTypes]struct{ out, in float32 }{
	snapshot.EdgeUnknown:    {0.3, 0.15},
	snapshot.EdgeContains:   {0.8, 0},
	snapshot.EdgeMemberOf:   {0.6, 0},
	snapshot.EdgeCalls:      {1.0, 0.5},
	snapshot.EdgeImports:    {0.5, 0.25},
	snapshot.EdgeExtends:    {0.7, 0.5},
	snapshot.EdgeImplements: {0.8, 0.6},
	snapshot.EdgeInherits:   {0.3, 0.2},
	snapshot.EdgeReferences: {0.4, 0.3},
	snapshot.EdgeTypeHintOf: {0.5, 0.3},
	snapshot.EdgeTests:      {0.6, 0},
	snapshot.EdgeTestedBy:   {0.5, 0},
	snapshot.EdgeOverrides:  {0.8, 0.5},
	snapshot.EdgeCoChange:   {0.3, 0.3},
}

// DefaultWeights builds the table from typeWeights by edge type. The
// confidence bits of the attribute are ignored: weighting transitions by
// confidence piles probability onto generic infrastructure. Type codes
// the snapshot model does not define get the weights of
// [snapshot.EdgeUnknown].
func DefaultWeights() *Weights {
	w := new(Weights)
	for a := 0; a < 256; a++ {
		t := snapshot.AttrType(uint8(a))
		if int(t) >= snapshot.NumEdgeTypes {
			t = snapshot.EdgeUnknown
		}
		w.Out[a] = typeWeights[t].out
		w.In[a] = typeWeights[t].in
	}
	return w
}

// SetType sets the forward and backward weight of edge type t at every
// confidence bucket.
func (w *Weights) SetType(t snapshot.EdgeType, out, in float32) {
	for c := uint8(0); c < 8; c++ {
		a := uint8(t)&0x1f | c<<5
		w.Out[a], w.In[a] = out, in
	}
}

// defaultWeights serves walks given nil Weights. Never modified.
var defaultWeights = DefaultWeights()

// usable reports a weight that may be walked: positive and finite (NaN
// compares false).
func usable(x float32) bool { return x > 0 && x <= math.MaxFloat32 }
