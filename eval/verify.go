package eval

import (
	"iter"
	"strings"
)

// Unverified lists the ground-truth entries of one fixture that no known
// qualified name matches.
type Unverified struct {
	ID      string   `json:"id"`
	Repo    string   `json:"repo"`
	Path    string   `json:"path,omitempty"`
	Missing []string `json:"missing"`
}

// VerifyNames checks the ground truth of fixtures against every qualified
// name of an index, with the strict matcher: it returns, in fixture order,
// the fixtures having entries that no name matches (fixtures whose entries
// are all found are left out). Pass the fixtures of one repository with
// that repository's names.
//
// Each name is read once. Ground-truth entries are indexed by their last
// identifier, which every strictly matching name shares, so the cost is
// one normalisation and one map lookup per name plus a suffix test per
// entry sharing that identifier.
func VerifyNames(fixtures []Fixture, names iter.Seq[string]) []Unverified {
	type entry struct {
		raw   string
		p     pattern
		found bool
	}
	var entries []*entry
	byFinal := map[string][]*entry{}
	order := make([][]*entry, len(fixtures))
	for i, f := range fixtures {
		for _, g := range distinct(f.GroundTruth) {
			e := &entry{raw: g, p: compile(g)}
			entries = append(entries, e)
			order[i] = append(order[i], e)
			byFinal[e.p.final] = append(byFinal[e.p.final], e)
		}
	}
	left := len(entries)
	for q := range names {
		q = Normalize(q)
		final := q[strings.LastIndexAny(q, "./")+1:]
		for _, e := range byFinal[final] {
			if !e.found && e.p.strict(q) {
				e.found = true
				left--
			}
		}
		if left == 0 {
			break
		}
	}
	var out []Unverified
	for i, es := range order {
		var missing []string
		for _, e := range es {
			if !e.found {
				missing = append(missing, e.raw)
			}
		}
		if len(missing) > 0 {
			f := fixtures[i]
			out = append(out, Unverified{ID: f.ID, Repo: f.Repo, Path: f.Path, Missing: missing})
		}
	}
	return out
}
