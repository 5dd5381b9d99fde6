package eval

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"gopkg.in/yaml.v3"
)

// Floor is a quality gate on a report's overall means. A zero (or absent)
// minimum is no floor. The YAML form is:
//
//	# testdata/eval/gostd/floor.yaml
//	matcher: strict   # optional; "" means strict
//	p_at_10: 0.25
//	r_at_10: 0.40
//	mrr: 0.35
//	ndcg_at_10: 0.30  # optional
//	acc_at_10: 0.40   # optional: strict Acc@10 of the bug reports and mined commits
//
// Unknown keys are an error, so a misspelt floor cannot pass silently.
type Floor struct {
	// Matcher is the matcher the floors were measured with; Check
	// refuses a report scored with another one.
	Matcher string  `yaml:"matcher"`
	P10     float64 `yaml:"p_at_10"`
	R10     float64 `yaml:"r_at_10"`
	MRR     float64 `yaml:"mrr"`
	NDCG    float64 `yaml:"ndcg_at_10"`
	// Acc10 is a floor on the strict Acc@10 of the report's bug tiers
	// (Report.BugOverall); a report without them is below any such floor.
	Acc10 float64 `yaml:"acc_at_10"`
}

// LoadFloor reads a Floor from a YAML file.
func LoadFloor(path string) (Floor, error) {
	data, err := readSmall(path)
	if err != nil {
		return Floor{}, err
	}
	return ParseFloor(path, data)
}

// ParseFloor parses the YAML form of a Floor; name labels errors.
func ParseFloor(name string, data []byte) (Floor, error) {
	var f Floor
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil && err != io.EOF {
		return Floor{}, yamlError(name, err)
	}
	if MatcherByName(f.Matcher) == nil {
		return Floor{}, &LoadError{Path: name, Msg: fmt.Sprintf("unknown matcher %q (want strict or lenient)", f.Matcher)}
	}
	for _, v := range []struct {
		key string
		val float64
	}{{"p_at_10", f.P10}, {"r_at_10", f.R10}, {"mrr", f.MRR}, {"ndcg_at_10", f.NDCG}, {"acc_at_10", f.Acc10}} {
		if v.val < 0 || v.val > 1 {
			return Floor{}, &LoadError{Path: name, Msg: fmt.Sprintf("%s = %g is outside [0, 1]", v.key, v.val)}
		}
	}
	return f, nil
}

// floorSlack absorbs float rounding: a mean equal to its floor passes.
const floorSlack = 1e-9

// Check returns nil when every overall mean of rep is at or above its
// floor, and otherwise an error listing each metric below its floor. A
// report scored with a different matcher than the floor's fails.
func (f Floor) Check(rep *Report) error {
	want := f.Matcher
	if want == "" {
		want = Strict.Name()
	}
	if rep.Matcher != want {
		return fmt.Errorf("eval: floor is for the %s matcher, report used %s", want, rep.Matcher)
	}
	var below []string
	for _, m := range []struct {
		name       string
		got, floor float64
	}{
		{"P@10", rep.Overall.P10, f.P10},
		{"R@10", rep.Overall.R10, f.R10},
		{"MRR", rep.Overall.MRR, f.MRR},
		{"NDCG@10", rep.Overall.NDCG, f.NDCG},
		{"Acc@10", bugAcc10(rep), f.Acc10},
	} {
		if m.got+floorSlack < m.floor {
			below = append(below, fmt.Sprintf("%s %.4f < floor %.4f", m.name, m.got, m.floor))
		}
	}
	if len(below) > 0 {
		return errors.New("eval: below floor: " + strings.Join(below, "; "))
	}
	return nil
}

// bugAcc10 is the Acc@10 of rep's bug tiers, 0 when it has none.
func bugAcc10(rep *Report) float64 {
	if rep.BugOverall == nil {
		return 0
	}
	return rep.BugOverall.Acc10
}
