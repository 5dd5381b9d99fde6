package baseline

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/knowing-dev/knowing/bm25"
	"github.com/knowing-dev/knowing/internal/fileread"
	"github.com/knowing-dev/knowing/query"
	"github.com/knowing-dev/knowing/snapshot"
)

// BM25 parameters of the body baseline: the textbook values, untuned.
const (
	bodyK1 = 1.2
	bodyB  = 0.75
)

// maxBodyFile bounds a source file the body baseline reads.
const maxBodyFile = 8 << 20

// Body is the body baseline: a textbook BM25 (k1 1.2, b 0.75) over the
// source text of every function, method and constructor of a snapshot,
// tokenized by bm25.AppendTokens (identifier parts and compounds, a light
// singular) — no names, no graph, no tuning. It reads the code from the
// repository folder the snapshot was built from, so that folder must still
// hold the same tree. It is for evaluation only.
type Body struct {
	ids    []uint32  // the indexed callables, by document number
	length []float64 // document lengths in terms
	avgLen float64
	// postings maps a term to its documents and frequencies.
	postings map[string][]posting
}

type posting struct {
	doc int32
	tf  int32
}

// NewBody indexes the callables of s, reading their files under root
// ("" means the root recorded in the snapshot). Files that cannot be read
// leave their callables out; it fails only when no file could be read.
func NewBody(ctx context.Context, s *snapshot.Snapshot, root string) (*Body, error) {
	if root == "" {
		m, err := s.Meta()
		if err != nil {
			return nil, err
		}
		root = m.RepoRoot
	}
	byFile := map[int32][]uint32{}
	for id := 0; id < s.NumNodes(); id++ {
		if s.Kind(uint32(id)).IsCallable() {
			if fi := s.FileIndex(uint32(id)); fi >= 0 {
				byFile[fi] = append(byFile[fi], uint32(id))
			}
		}
	}
	files := make([]int32, 0, len(byFile))
	for fi := range byFile {
		files = append(files, fi)
	}
	sort.Slice(files, func(i, j int) bool { return files[i] < files[j] })
	b := &Body{postings: map[string][]posting{}}
	read, tried := 0, 0
	var toks []string
	tf := map[string]int32{}
	for _, fi := range files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		tried++
		src, err := fileread.Regular(filepath.Join(root, filepath.FromSlash(s.FilePath(int(fi)))), maxBodyFile)
		if err != nil {
			continue
		}
		read++
		lines := lineStarts(src)
		for _, id := range byFile[fi] {
			lo, hi := s.Lines(id)
			text := lineRange(src, lines, int(lo), int(hi))
			toks = bm25.AppendTokens(toks[:0], text)
			clear(tf)
			for _, t := range toks {
				tf[t]++
			}
			doc := int32(len(b.ids))
			b.ids = append(b.ids, id)
			b.length = append(b.length, float64(len(toks)))
			for t, n := range tf {
				b.postings[t] = append(b.postings[t], posting{doc, n})
			}
		}
	}
	if tried > 0 && read == 0 {
		return nil, fmt.Errorf("body baseline: none of the %d source files could be read under %s: %w", tried, root, os.ErrNotExist)
	}
	total := 0.0
	for _, l := range b.length {
		total += l
	}
	if len(b.length) > 0 {
		b.avgLen = total / float64(len(b.length))
	}
	return b, nil
}

// lineStarts returns the byte offset of each line's start.
func lineStarts(src []byte) []int {
	starts := []int{0}
	for i, c := range src {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// lineRange is the text of lines lo to hi (1-based, inclusive).
func lineRange(src []byte, starts []int, lo, hi int) string {
	if lo < 1 {
		lo = 1
	}
	if hi < lo || lo > len(starts) {
		return ""
	}
	end := len(src)
	if hi < len(starts) {
		end = starts[hi]
	}
	return string(src[starts[lo-1]:end])
}

// Rank returns the limit best callables for the task by BM25 over their
// source, among those e's result filter admits for the task (as the grep
// baseline does); ties go to the lower node id.
func (b *Body) Rank(ctx context.Context, e *query.Engine, task string, limit int) ([]query.Item, error) {
	if strings.TrimSpace(task) == "" {
		return nil, query.ErrEmptyTask
	}
	kw := query.ExtractKeywords(task)
	terms := bm25.AppendTokens(nil, task)
	seen := map[string]bool{}
	scores := make(map[int32]float64)
	n := float64(len(b.ids))
	for _, t := range terms {
		if seen[t] {
			continue
		}
		seen[t] = true
		ps := b.postings[t]
		if len(ps) == 0 {
			continue
		}
		df := float64(len(ps))
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		for _, p := range ps {
			tf := float64(p.tf)
			norm := bodyK1 * (1 - bodyB + bodyB*b.length[p.doc]/b.avgLen)
			scores[p.doc] += idf * tf * (bodyK1 + 1) / (tf + norm)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	type scored struct {
		doc   int32
		score float64
	}
	all := make([]scored, 0, len(scores))
	for d, sc := range scores {
		if e.Eligible(b.ids[d], &kw) {
			all = append(all, scored{d, sc})
		}
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].score != all[j].score {
			return all[i].score > all[j].score
		}
		return b.ids[all[i].doc] < b.ids[all[j].doc]
	})
	if len(all) > limit {
		all = all[:limit]
	}
	out := make([]query.Item, len(all))
	for i, sc := range all {
		out[i] = e.Item(b.ids[sc.doc], sc.score)
	}
	return out, nil
}

// Len is the number of callables indexed.
func (b *Body) Len() int { return len(b.ids) }
