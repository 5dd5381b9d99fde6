package query

import (
	"context"
	"math"
	"slices"

	"github.com/knowing-dev/knowing/snapshot"
)

// The features of a ranked candidate (step 7a): what every stage knows
// of it, read by a trained model (Model) that re-orders the formula's
// best candidates. Each is a number; a model names the features it was
// trained on (featureNames), so a feature may be added without breaking
// older models, but one whose meaning changes needs a new name.
const (
	ftScore      = iota // the formula's final score relative to the best
	ftRank              // 1 / the formula's rank
	ftBlast             // the score's components (scoreParts)
	ftMatch             //
	ftCover             //
	ftConfidence        //
	ftSeed              // 1 for a seed
	ftAuthAdj           // the authority adjustment
	ftAuth              // HITS authority
	ftHub               // HITS hub
	ftKindFactor        // the kind multiplier
	ftTestFactor        // the test penalty (1: none)
	ftBoost             // the member or type boost
	ftChannel0          // 1 / the rank in each seed channel (0: not listed), numChannels of them
)

const (
	ftChannels   = ftChannel0 + numChannels + iota // how many seed channels list it
	ftKindCall                                     // 1 for a function or constructor
	ftKindMethod                                   // 1 for a method
	ftKindType                                     // 1 for a type
	ftKindValue                                    // 1 for a field, variable or constant
	ftDetail                                       // 1 for a nested function or an empty type alias (isDetail)
	ftExported                                     // 1 when exported
	ftNameLen                                      // bytes of the name
	ftNameParts                                    // identifier parts of the name
	ftNameCover                                    // task words that are parts of the simple name
	ftDepth                                        // qualified-name depth (separators in it)
	ftLines                                        // log2(1 + lines of its span)
	ftInDeg                                        // log2(1 + edges in)
	ftOutDeg                                       // log2(1 + edges out)
	ftFileMates                                    // other reranked candidates in its file
	ftFileBest                                     // the best score of another in its file, relative to the best
	ftTaskWords                                    // log2(1 + words of the task)
	ftTaskTerms                                    // the task's distinct components (Keywords.Pos)
	ftChurn                                        // log2(1 + commits of the history window that changed it; 0 without history)
	ftRecent                                       // 1 / the place, newest first, of the last commit of the history window that changed it (0: none, or no history)
	numFeatures
)

var featureNames = [numFeatures]string{
	ftScore: "score", ftRank: "rank", ftBlast: "blast", ftMatch: "match", ftCover: "cover",
	ftConfidence: "confidence", ftSeed: "seed", ftAuthAdj: "authAdj", ftAuth: "authority", ftHub: "hub",
	ftKindFactor: "kindFactor", ftTestFactor: "testFactor", ftBoost: "boost",
	ftChannel0 + chTiered: "ch.tiered", ftChannel0 + chBM25: "ch.bm25", ftChannel0 + chEquiv: "ch.equiv",
	ftChannel0 + chPath: "ch.path", ftChannel0 + chInterface: "ch.interface", ftChannel0 + chAlias: "ch.alias",
	ftChannel0 + chVector: "ch.vector", ftChannel0 + chBody: "ch.body",
	ftChannels: "channels", ftKindCall: "kind.function", ftKindMethod: "kind.method", ftKindType: "kind.type",
	ftKindValue: "kind.value", ftDetail: "detail", ftExported: "exported", ftNameLen: "nameLen",
	ftNameParts: "nameParts", ftNameCover: "nameCover", ftDepth: "depth", ftLines: "lines",
	ftInDeg: "inDegree", ftOutDeg: "outDegree", ftFileMates: "fileMates", ftFileBest: "fileBest",
	ftTaskWords: "taskWords", ftTaskTerms: "taskTerms", ftChurn: "churn", ftRecent: "recent",
}

// FeatureNames are the names of the features a model can read, in the
// order of a FeatureRow's values.
func FeatureNames() []string { return featureNames[:] }

// featureVec is one candidate's features.
type featureVec [numFeatures]float32

// FeatureRow is one ranked candidate and its features (Engine.Features).
type FeatureRow struct {
	ID       uint32
	Symbol   string // qualified name
	Features []float32
}

// Features runs the pipeline for task up to the formula's ranking and
// returns its best top candidates, best first, with the features a model
// reads: what training learns from. It ranks with the engine's weights
// for task (TuningFor) and never with a model.
func (e *Engine) Features(ctx context.Context, task string, top int) ([]FeatureRow, error) {
	var rows []FeatureRow
	_, err := e.Query(ctx, task, Options{Limit: 1, features: &rows, featureTop: top})
	return rows, err
}

// features fills ws.feat with the features of ranked, the formula's best
// candidates in order; task is the task's text.
func (e *Engine) features(ws *workspace, ranked []*candidate, task string) {
	m := len(ranked)
	if cap(ws.feat) < m {
		ws.feat = make([]featureVec, m)
		ws.files = make([]int32, m)
	}
	ws.feat, ws.files = ws.feat[:m], ws.files[:m]
	best := ranked[0].score
	if best <= 0 {
		best = 1
	}
	taskWords := float32(math.Log2(1 + float64(countWords(task, math.MaxInt))))
	for i, cd := range ranked {
		ws.files[i] = e.s.FileIndex(cd.id)
	}
	for i, cd := range ranked {
		f := &ws.feat[i]
		*f = featureVec{}
		p := &cd.parts
		f[ftScore] = float32(cd.score / best)
		f[ftRank] = 1 / float32(i+1)
		f[ftBlast], f[ftMatch], f[ftCover] = float32(p.Blast), float32(p.Match), float32(p.Cover)
		f[ftConfidence], f[ftAuthAdj] = float32(p.Confidence), float32(p.AuthorityAdj)
		if cd.seed {
			f[ftSeed] = 1
		}
		f[ftAuth], f[ftHub] = cd.auth, cd.hub
		f[ftKindFactor], f[ftTestFactor], f[ftBoost] = float32(p.Kind), float32(p.TestPenalty), float32(p.Boost/best)
		n := 0
		for c := 0; c < numChannels; c++ {
			if r := cd.rank[c]; r > 0 {
				f[ftChannel0+c] = 1 / float32(r)
				n++
			}
		}
		f[ftChannels] = float32(n)
		switch k := e.s.Kind(cd.id); {
		case k == snapshot.KindMethod:
			f[ftKindMethod] = 1
		case k.IsCallable():
			f[ftKindCall] = 1
		case k.IsType():
			f[ftKindType] = 1
		case k == snapshot.KindField || k == snapshot.KindVariable || k == snapshot.KindConstant:
			f[ftKindValue] = 1
		}
		if p.Detail {
			f[ftDetail] = 1
		}
		if e.s.Flags(cd.id)&snapshot.FlagExported != 0 {
			f[ftExported] = 1
		}
		name := e.s.Name(cd.id)
		f[ftNameLen] = float32(len(name))
		f[ftNameParts] = float32(nameParts(name))
		cover := 0
		for _, w := range ws.words {
			if HasPart(name, w) {
				cover++
			}
		}
		f[ftNameCover] = float32(cover)
		f[ftDepth] = float32(qnameDepth(e.s.QName(cd.id)))
		start, end := e.s.Lines(cd.id)
		if end >= start {
			f[ftLines] = float32(math.Log2(float64(2 + end - start)))
		}
		f[ftInDeg] = float32(math.Log2(1 + float64(e.s.Degree(cd.id, snapshot.In))))
		f[ftOutDeg] = float32(math.Log2(1 + float64(e.s.Degree(cd.id, snapshot.Out))))
		mates, fileBest := 0, 0.0
		if fi := ws.files[i]; fi >= 0 {
			for j, o := range ranked {
				if j != i && ws.files[j] == fi {
					mates++
					fileBest = max(fileBest, o.score)
				}
			}
		}
		f[ftFileMates], f[ftFileBest] = float32(mates), float32(fileBest/best)
		f[ftTaskWords], f[ftTaskTerms] = taskWords, float32(len(ws.words))
		if e.history {
			if changed, churn := e.s.History(cd.id); changed > 0 {
				f[ftChurn] = float32(math.Log2(1 + float64(churn)))
				f[ftRecent] = 1 / float32(changed)
			}
		}
	}
}

// countWords counts the words of s, separated by white space, up to
// most (it stops there). It allocates nothing.
func countWords(s string, most int) int {
	words, in := 0, false
	for i := 0; i < len(s) && words < most; i++ {
		c := s[i]
		sp := c == ' ' || c == '\n' || c == '\t' || c == '\r'
		if !sp && !in {
			words++
		}
		in = !sp
	}
	return words
}

// nameParts counts the identifier parts of name: runs of ASCII letters
// and digits, split where an upper-case letter follows a lower-case one
// (check_api_key has three, checkAPIKey two, HTTPServer2 one: neither a
// run of capitals nor a digit starts a part).
func nameParts(name string) int {
	alnum := func(c byte) bool { return c != '_' && isWordByte(c) }
	n, prev := 0, byte('_')
	for i := 0; i < len(name); i++ {
		c := name[i]
		if alnum(c) && (!alnum(prev) || c >= 'A' && c <= 'Z' && prev >= 'a' && prev <= 'z') {
			n++
		}
		prev = c
	}
	return n
}

// qnameDepth counts the separators of a qualified name: '.', '::', '/'
// and '#'.
func qnameDepth(q string) int {
	n := 0
	for i := 0; i < len(q); i++ {
		switch q[i] {
		case '.', '/', '#':
			n++
		case ':':
			if i+1 < len(q) && q[i+1] == ':' {
				n++
				i++
			}
		}
	}
	return n
}

// featureRows describes the formula's best top candidates of ranked
// with their features.
func (e *Engine) featureRows(ws *workspace, ranked []*candidate, task string, top int) []FeatureRow {
	m := min(len(ranked), top)
	if m == 0 {
		return nil
	}
	e.features(ws, ranked[:m], task)
	rows := make([]FeatureRow, m)
	for i, cd := range ranked[:m] {
		rows[i] = FeatureRow{ID: cd.id, Symbol: e.s.QName(cd.id), Features: slices.Clone(ws.feat[i][:])}
	}
	return rows
}
