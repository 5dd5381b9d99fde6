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

// DefaultWeights builds the table from [snapshot.WalkWeight] (forward) and
// [snapshot.ReverseWalkWeight] (backward) by edge type. The confidence bits
// of the attribute are ignored: the earlier system measured
// confidence-weighted transitions as harmful (they pile probability onto
// generic infrastructure). Type codes the snapshot model does not define
// get the weights of [snapshot.EdgeUnknown].
func DefaultWeights() *Weights {
	w := new(Weights)
	for a := 0; a < 256; a++ {
		t := snapshot.AttrType(uint8(a))
		if int(t) >= snapshot.NumEdgeTypes {
			t = snapshot.EdgeUnknown
		}
		w.Out[a] = snapshot.WalkWeight[t]
		w.In[a] = snapshot.ReverseWalkWeight[t]
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
