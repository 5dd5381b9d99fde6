package query

import (
	"slices"
	"strings"
)

// refine prunes and completes the task's keywords against the index
// (step 2): words too common to point anywhere go, words nothing can
// match give their places to the task's next words, and acronyms, dotted
// names, stack frames and file:line positions the index confirms become
// keywords. The order matters: each step sees the previous one's words.
func (e *Engine) refine(kw *Keywords) {
	e.dropCommon(kw)
	e.fillComponents(kw)
	e.keepAcronyms(kw)
	e.keepReferences(kw)
	e.keepFrames(kw)
	e.keepLocations(kw)
}

// minCommonDocs is the document frequency up to which a task word is never
// dropped as common (see dropCommon).
const minCommonDocs = 50

// commonLimit is the document frequency above which a one-word keyword
// is too common to search for (Tuning.CommonDF of the documents, at least
// minCommonDocs).
func (e *Engine) commonLimit() int {
	return max(int(e.tune.CommonDF*float64(e.ix.NumDocs())), minCommonDocs)
}

// dropCommon removes one-word keywords that occur in a large share of the
// documents: the project's own name and package prefixes are in every
// qualified name and point nowhere. In a small repository a share is a
// handful of documents, and every task word would be common: a word in
// at most minCommonDocs documents is kept whatever the share, and when
// every word would go, all stay.
func (e *Engine) dropCommon(kw *Keywords) {
	limit := e.commonLimit()
	common := func(w string) bool {
		return !strings.ContainsAny(w, "._:/") && e.ix.DocFreq(strings.ToLower(w)) > limit && !isCompound(w)
	}
	// One look-up per word: the words to drop as bits (the lists are
	// capped far below 64 words; any beyond are kept).
	var drop [2]uint64
	lists := [2]*[]string{&kw.Components, &kw.Compounds}
	kept := len(kw.Exact)+len(kw.Paths) > 0
	for l, list := range lists {
		for i, w := range *list {
			if i < 64 && common(w) {
				drop[l] |= 1 << i
			} else {
				kept = true
			}
		}
	}
	if !kept {
		return // every word would go: all stay
	}
	for l, list := range lists {
		out := (*list)[:0]
		for i, w := range *list {
			if i >= 64 || drop[l]&(1<<i) == 0 {
				out = append(out, w)
			}
		}
		*list = out
	}
	for w := range kw.Pos {
		if !slices.Contains(kw.Components, w) {
			delete(kw.Pos, w) // Pos stays the set of components
		}
	}
}

// fillComponents gives the places of components that nothing in the index
// can match to the task's next words (Keywords.spare): a word no document
// holds, too short for the BM25 stem expansion or with nothing to expand
// to, is a slot lost ("unquoted", "reject"), while a long task's last
// words often carry its subject ("… and enforce strict parsing"). Spare
// words that are common or unmatched themselves are skipped.
func (e *Engine) fillComponents(kw *Keywords) {
	if len(kw.spare) == 0 {
		return
	}
	var exp []string
	// unmatched: no document holds the lower-case word lw (df 0), and
	// none of the terms its first five letters start, when it is long
	// enough for the BM25 stem expansion.
	unmatched := func(lw string, df int) bool {
		if df > 0 || strings.ContainsAny(lw, "._:/") {
			return false
		}
		if len(lw) >= stemMinLen && e.tune.Stem > 0 {
			exp = e.ix.ExpandPrefix(lw[:5], exp[:0], 1)
			return len(exp) == 0
		}
		return true
	}
	out := kw.Components[:0]
	for _, c := range kw.Components {
		lc := strings.ToLower(c)
		if unmatched(lc, e.ix.DocFreq(lc)) {
			delete(kw.Pos, c)
			continue
		}
		out = append(out, c)
	}
	kw.Components = out
	limit := e.commonLimit()
	for i, w := range kw.spare {
		if len(kw.Components) >= maxComponents {
			break
		}
		lw := strings.ToLower(w)
		df := e.ix.DocFreq(lw)
		if df > limit || unmatched(lw, df) || slices.Contains(kw.Components, w) {
			continue
		}
		kw.Components = append(kw.Components, w)
		kw.Pos[w] = kw.sparePos[i]
	}
}

// keepReferences promotes to Exact the task's dotted names written as
// plain words (Keywords.References) that end the qualified name of a
// symbol in the index, as a name in backticks would be: "app.use" is
// lib.application.app.use, "site.process" Jekyll.Site.process. Dotted
// prose that names no symbol (a domain, "e.g") stays words.
func (e *Engine) keepReferences(kw *Keywords) {
	var ids []uint32
	for _, r := range kw.References {
		if len(kw.Exact) >= maxExact {
			return
		}
		if slices.Contains(kw.Exact, r) {
			continue
		}
		last := r[strings.LastIndexByte(r, '.')+1:]
		ids = e.s.LookupName(strings.ToLower(last), ids[:0])
		found := false
		for _, id := range ids {
			if found = qnameEndsWith(e.s.QName(id), r); found {
				break
			}
		}
		if !found {
			continue
		}
		for _, p := range splitQualified(r) {
			if len(kw.Exact) < maxExact && !slices.Contains(kw.Exact, p) {
				kw.Exact = append(kw.Exact, p)
			}
		}
		if !IsCode(kw.Code, last) {
			kw.Code = append(kw.Code, last)
		}
		// The member's name is a task word even when prose would drop it
		// (the "use" of app.use): symbols named with it cover the task.
		kw.addWord(strings.ToLower(last))
	}
}

// keepFrames promotes to Exact the symbols a stack trace's frames name
// (Keywords.Frames): the function of that name in the frame's file, the
// one whose lines hold the frame's line when several do. A trace of an
// installed copy (site-packages/requests/sessions.py) finds the
// repository's file (src/requests/sessions.py) by its last elements.
func (e *Engine) keepFrames(kw *Keywords) {
	var ids []uint32
	for _, f := range kw.Frames {
		if len(kw.Exact) >= maxExact {
			return
		}
		ids = e.s.LookupName(strings.ToLower(f.Name), ids[:0])
		in := ids[:0]
		for _, id := range ids {
			if fi := e.s.FileIndex(id); fi >= 0 && samePathTail(e.s.FilePath(int(fi)), f.Path) {
				in = append(in, id)
			}
		}
		if f.Line > 0 {
			at := in[:0]
			for _, id := range in {
				if lo, hi := e.s.Lines(id); uint32(f.Line) >= lo && uint32(f.Line) <= hi {
					at = append(at, id)
				}
			}
			if len(at) > 0 {
				in = at
			}
		}
		for i, id := range in {
			if i == 2 || len(kw.Exact) >= maxExact {
				break
			}
			if q := e.s.QName(id); !slices.Contains(kw.Exact, q) {
				kw.Exact = append(kw.Exact, q)
			}
		}
	}
}

// keepLocations promotes to Exact the innermost symbol at each file:line
// position the task quotes (Keywords.Locations): the file found as a
// frame's is, by the last elements of its path, at most two files for a
// bare file name that several folders have.
func (e *Engine) keepLocations(kw *Keywords) {
	var ids []uint32
	for _, loc := range kw.Locations {
		files := 0
		for fi := 0; fi < e.s.NumFiles() && files < 2; fi++ {
			if len(kw.Exact) >= maxExact {
				return
			}
			if !samePathTail(e.s.FilePath(fi), loc.Path) {
				continue
			}
			files++
			var best uint32
			var found bool
			best, _, found, ids = e.innermostIn(fi, uint32(loc.Line), ids)
			if q := e.s.QName(best); found && !slices.Contains(kw.Exact, q) {
				kw.Exact = append(kw.Exact, q)
			}
		}
	}
}

// innermostIn finds the smallest of file fi's symbols (those with a BM25
// document, see snapshot.AppendFileNodes) whose lines hold line, and its
// span; ids is scratch space, returned for reuse.
func (e *Engine) innermostIn(fi int, line uint32, ids []uint32) (best, span uint32, found bool, scratch []uint32) {
	ids = e.s.AppendFileNodes(fi, ids[:0])
	for _, id := range ids {
		lo, hi := e.s.Lines(id)
		if line < lo || line > hi {
			continue
		}
		if !found || hi-lo < span {
			best, span, found = id, hi-lo, true
		}
	}
	return best, span, found, ids
}

// addWord makes w a word symbols' names cover (Keywords.Pos), at the
// front, unless it is one already.
func (k *Keywords) addWord(w string) {
	if len(w) < 2 {
		return
	}
	if _, ok := k.Pos[w]; ok {
		return
	}
	if k.Pos == nil {
		k.Pos = map[string]int{}
	}
	k.Pos[w] = 0
}

// samePathTail reports whether a trace's file path names the repository
// file repoPath: their last two elements agree (one, if either has only
// one).
func samePathTail(repoPath, tracePath string) bool {
	tracePath = strings.ReplaceAll(tracePath, "\\", "/")
	for k := 0; k < 2; k++ {
		i := strings.LastIndexByte(repoPath, '/')
		j := strings.LastIndexByte(tracePath, '/')
		if repoPath[i+1:] != tracePath[j+1:] {
			return false
		}
		if i < 0 || j < 0 {
			return true
		}
		repoPath, tracePath = repoPath[:i], tracePath[:j]
	}
	return true
}

// qnameEndsWith reports whether qualified name q ends with the dotted
// name r, ignoring case, at a boundary between its elements.
func qnameEndsWith(q, r string) bool {
	if len(q) < len(r) || !strings.EqualFold(q[len(q)-len(r):], r) {
		return false
	}
	if len(q) == len(r) {
		return true
	}
	c := q[len(q)-len(r)-1]
	return c == '.' || c == '/' || c == ':'
}

// maxAcronymsKept bounds the acronyms a task adds to its components.
const maxAcronymsKept = 2

// keepAcronyms adds to the components the task's acronyms that the index
// has as a term, but not as a common one: "server-sent events" finds
// streamSSE; "the last known state" makes no lks.
func (e *Engine) keepAcronyms(kw *Keywords) {
	limit := e.commonLimit()
	kept := 0
	for _, a := range kw.Acronyms {
		if kept == maxAcronymsKept {
			break
		}
		if slices.Contains(kw.Components, a.Text) {
			continue
		}
		if df := e.ix.DocFreq(a.Text); df == 0 || df > limit {
			continue
		}
		kw.Components = append(kw.Components, a.Text)
		kw.Pos[a.Text] = a.Pos
		kept++
	}
}
