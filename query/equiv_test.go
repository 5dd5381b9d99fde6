package query

import (
	"math/rand/v2"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// bruteConcepts is matchConcepts without the word index: every phrase of
// every concept searched for in the task.
func bruteConcepts(lower string) []conceptMatch {
	var out []conceptMatch
	for i := range concepts {
		c := &concepts[i]
		n, multi := 0, false
		for _, p := range c.phrases {
			if containsWords(lower, p) {
				n++
				if strings.Contains(p, " ") {
					multi = true
				}
			}
		}
		if n > 0 {
			out = append(out, conceptMatch{c: c, strong: n >= 2 || multi, count: n})
		}
	}
	sort.SliceStable(out, func(a, b int) bool {
		if out[a].strong != out[b].strong {
			return out[a].strong
		}
		return out[a].count > out[b].count
	})
	return out
}

// TestMatchConceptsIndexed: looking phrases up by their first word finds
// exactly what searching for every phrase finds.
func TestMatchConceptsIndexed(t *testing.T) {
	var words []string
	var tasks []string
	for _, c := range concepts {
		for _, p := range c.phrases {
			tasks = append(tasks, p, p+"s", "use the "+p+" here", "x"+p, p+"x", strings.ToUpper(p[:1])+p[1:])
			words = append(words, strings.FieldsFunc(p, func(r rune) bool { return r == ' ' || r == '-' })...)
		}
	}
	words = append(words, "the", "a", "request", "add", "fix", "(", ")", "_", "-", ",", "s")
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 3000; i++ {
		var b strings.Builder
		for n := 1 + r.IntN(12); n > 0; n-- {
			b.WriteString(words[r.IntN(len(words))])
			b.WriteString([]string{" ", " ", "s ", "-", ", ", "_", ""}[r.IntN(7)])
		}
		tasks = append(tasks, b.String())
	}
	for _, task := range tasks {
		lower := strings.ToLower(task)
		if got, want := matchConcepts(lower), bruteConcepts(lower); !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: indexed %v, searched %v", lower, got, want)
		}
	}
}
