package query

import (
	"fmt"
	"strconv"
	"strings"
)

// Tuning holds the weights of fusion and scoring and the thresholds of
// keyword refinement. An Engine owns one, fixed when it is made
// (WithTuning); DefaultTuning gives the defaults, and EVAL.md
// (Experiments) records the variants measured against them.
//
// The score of a candidate is (Σ component × weight + authority
// adjustment) × kind factor × test penalty, plus a member or type boost
// (see Engine.Why).
type Tuning struct {
	// Blast weighs the blast radius: the candidate's walk score relative
	// to the best.
	Blast float64 `json:"blast"`
	// Confidence weighs the highest confidence of the edges into the
	// candidate.
	Confidence float64 `json:"confidence"`
	// Recency weighs runtime recency, which has no data source: every
	// symbol gets the same value, so it does not change the order.
	Recency float64 `json:"recency"`
	// Distance weighs 1 for a seed, 0.5 for a node the walk reached.
	Distance float64 `json:"distance"`
	// Match weighs the strength of the direct evidence: the candidate's
	// fused seed-channel score relative to the best. It grades what
	// Distance only tells apart as seed or not.
	Match float64 `json:"match"`
	// Cover weighs the share of the task's words found in a candidate's
	// qualified name.
	Cover float64 `json:"cover"`
	// HitsSeed adds this share of a seed's HITS authority (above 0.05),
	// HitsHub of its hub score (above 0.1); HitsPenalty subtracts this
	// share of the authority of a node that is no seed (above 0.2).
	HitsSeed    float64 `json:"hitsSeed"`
	HitsHub     float64 `json:"hitsHub"`
	HitsPenalty float64 `json:"hitsPenalty"`
	// TestPenalty multiplies the score of tests, examples and benchmarks
	// when the task is not about them.
	TestPenalty float64 `json:"testPenalty"`
	// ValuePenalty multiplies the score of fields, variables and
	// constants: tasks need types and callables far more often (on the
	// dev tasks 7% of returned fields and constants were relevant, 24% of
	// methods, 30% of classes). Implementation details (isDetail) get it
	// too: 0 of 15 returned Python type aliases were relevant.
	ValuePenalty float64 `json:"valuePenalty"`
	// EnumPenalty multiplies the score of enum types, which are mostly
	// vocabularies of values: on the dev tasks none of the 16 enums
	// returned in a top 10 was relevant, while their code holds 169
	// enums to 487 structs and the ground truth 2 to 38.
	EnumPenalty float64 `json:"enumPenalty"`
	// TypeBoost gives a type candidate this share of its best member's
	// score (relative to the best candidate), capped at that member's
	// score: methods that match a task point at their class.
	TypeBoost float64 `json:"typeBoost"`
	// Tiered, BM25, Equiv, Path, Alias and Vector are the fusion weights
	// of the seed channels (the interface channel's is 1). Path context
	// does not compete in fusion (0): it seeds the walk at low weight.
	Tiered float64 `json:"tiered"`
	BM25   float64 `json:"bm25"`
	Equiv  float64 `json:"equiv"`
	Path   float64 `json:"path"`
	Alias  float64 `json:"alias"`
	Vector float64 `json:"vector"`
	// Body is the fusion weight of the body channel: callables whose
	// bodies use the task's words (identifiers, literals, comments);
	// BodyText weighs the literal and comment words against the
	// identifiers (1: the same).
	Body     float64 `json:"body"`
	BodyText float64 `json:"bodyText"`
	// BodyHistory weighs the subjects of the commits that changed a
	// symbol (when the build read git history) against its identifiers.
	BodyHistory float64 `json:"bodyHistory"`
	// BodyQuote is the body channel's boost of the words of the
	// messages a task quotes (Keywords.Messages; 0: they count as the
	// task's other words).
	BodyQuote float64 `json:"bodyQuote"`
	// RecencyHalf is how many commits back a symbol's last change halves
	// its recency (with history; see Engine.recency); 0, the default,
	// keeps recency neutral.
	RecencyHalf float64 `json:"recencyHalf"`
	// Focus promotes the package holding most of the fused evidence to
	// the front of the seeds (1) or not (0).
	Focus float64 `json:"focus"`
	// ParentBoost adds this share of a member's container's score (the
	// container ranked as a candidate), normalised by the best score.
	ParentBoost float64 `json:"parentBoost"`
	// Stem is the boost of terms that share a long task word's first five
	// letters (0: no expansion).
	Stem float64 `json:"stem"`
	// Base is the boost of a task verb's base form (opened → open;
	// 0: none).
	Base float64 `json:"base"`
	// StemTiered: the tiered prefix tier uses a long word's first five
	// letters when they start at most this many distinct names (0: never).
	StemTiered float64 `json:"stemTiered"`
	// Late decays a component's BM25 boost with its position in the
	// task: 1/(1 + Late*pos/10).
	Late float64 `json:"late"`
	// WeakEquiv is how many symbols a weakly matched concept (one
	// single-word phrase) may contribute per target name (strong: 3).
	WeakEquiv float64 `json:"weakEquiv"`
	// CommonDF drops a one-word keyword found in more than this share of
	// the documents (the project's own name, a package prefix).
	CommonDF float64 `json:"commonDF"`
	// PackByScore and PackFloor change packing only when the budget cannot
	// hold every candidate. PackByScore (1) takes candidates in score order,
	// each that fits, instead of by score per token; PackFloor leaves out
	// candidates scoring below that share of the best one rather than
	// fill the budget with them (0: none).
	PackByScore float64 `json:"packByScore"`
	PackFloor   float64 `json:"packFloor"`
}

// DefaultTuning returns the weights an engine uses unless told otherwise.
func DefaultTuning() Tuning {
	return Tuning{
		Blast: 0.35, Confidence: 0.20, Recency: 0.15, Distance: 0.15, Match: 0.30, Cover: 0.7,
		HitsSeed: 0.10, HitsHub: 0.10, HitsPenalty: 0.15, TestPenalty: 0.3, ValuePenalty: 0.6, EnumPenalty: 0.8, TypeBoost: 0.2,
		Tiered: 2, BM25: 2, Equiv: 2, Path: 0, Alias: 1.4, Vector: 1, CommonDF: 0.2, Focus: 1, WeakEquiv: 1, ParentBoost: 0.1, Stem: 0.3, Base: 0.6, StemTiered: 10, Late: 0.6, PackByScore: 1,
		Body: 2, BodyText: 1, BodyHistory: 1, BodyQuote: 2,
	}
}

// tuningField is one weight of a Tuning and its name.
type tuningField struct {
	name string
	v    *float64
}

// fields lists t's weights by their names (the JSON names), in the
// order of the struct.
func (t *Tuning) fields() []tuningField {
	return []tuningField{
		{"blast", &t.Blast}, {"confidence", &t.Confidence}, {"recency", &t.Recency}, {"distance", &t.Distance},
		{"match", &t.Match}, {"cover", &t.Cover}, {"hitsSeed", &t.HitsSeed}, {"hitsHub", &t.HitsHub},
		{"hitsPenalty", &t.HitsPenalty}, {"testPenalty", &t.TestPenalty}, {"valuePenalty", &t.ValuePenalty},
		{"enumPenalty", &t.EnumPenalty}, {"typeBoost", &t.TypeBoost}, {"tiered", &t.Tiered}, {"bm25", &t.BM25},
		{"equiv", &t.Equiv}, {"path", &t.Path}, {"alias", &t.Alias}, {"vector", &t.Vector}, {"body", &t.Body}, {"bodyText", &t.BodyText}, {"bodyHistory", &t.BodyHistory}, {"bodyQuote", &t.BodyQuote}, {"recencyHalf", &t.RecencyHalf}, {"focus", &t.Focus},
		{"parentBoost", &t.ParentBoost}, {"stem", &t.Stem}, {"base", &t.Base}, {"stemTiered", &t.StemTiered},
		{"late", &t.Late}, {"weakEquiv", &t.WeakEquiv}, {"commonDF", &t.CommonDF},
		{"packByScore", &t.PackByScore}, {"packFloor", &t.PackFloor},
	}
}

// ParseTuning returns base with the weights spec sets. spec is a
// comma-separated list of name=value, names as Tuning's JSON names in
// any case: "match=0.3,hitsSeed=0.1". Empty items are skipped; an
// unknown name or a value that is no number is an error.
func ParseTuning(spec string, base Tuning) (Tuning, error) {
	t := base
	fields := t.fields()
	for _, item := range strings.Split(spec, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		k, v, ok := strings.Cut(item, "=")
		if !ok {
			return base, fmt.Errorf("tuning %q: want name=value", item)
		}
		x, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil {
			return base, fmt.Errorf("tuning %q: %q is not a number", item, v)
		}
		found := false
		for _, f := range fields {
			if strings.EqualFold(f.name, strings.TrimSpace(k)) {
				*f.v, found = x, true
				break
			}
		}
		if !found {
			return base, fmt.Errorf("tuning %q: no weight is named %q", item, k)
		}
	}
	return t, nil
}

// String writes every weight as ParseTuning reads them.
func (t Tuning) String() string {
	var b strings.Builder
	for i, f := range t.fields() {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(f.name)
		b.WriteByte('=')
		b.WriteString(strconv.FormatFloat(*f.v, 'g', -1, 64))
	}
	return b.String()
}

// channelWeights are the fusion weights of the channels, by channel.
func (t *Tuning) channelWeights() [numChannels]float64 {
	return [numChannels]float64{chTiered: t.Tiered, chBM25: t.BM25, chEquiv: t.Equiv, chPath: t.Path,
		chInterface: 1.0, chAlias: t.Alias, chVector: t.Vector, chBody: t.Body}
}
