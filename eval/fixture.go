package eval

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Tiers are the known difficulty tiers of tasks, in report order.
var Tiers = []string{"easy", "medium", "hard"}

// BugTiers are the tiers of bug reports and of tasks mined from commits,
// in report order after Tiers: a real issue with the functions its fix
// changed ("swe"), a commit message with the symbols the commit changed
// ("mined"), and such a commit that changed only tests ("mined-test").
// Their fixtures are scored with strict Acc@k besides the task metrics.
var BugTiers = []string{"swe", "mined", "mined-test"}

// IsBugTier reports whether tier is one of BugTiers.
func IsBugTier(tier string) bool {
	for _, t := range BugTiers {
		if tier == t {
			return true
		}
	}
	return false
}

// Fixture is one task with hand-written ground truth, loaded from one YAML
// file. Fields not listed here are ignored when loading.
type Fixture struct {
	ID          string   `yaml:"id" json:"id"`
	Repo        string   `yaml:"repo" json:"repo"`
	Tier        string   `yaml:"tier" json:"tier"`
	Description string   `yaml:"description" json:"description"`
	GroundTruth []string `yaml:"ground_truth" json:"ground_truth"`
	Tags        []string `yaml:"tags" json:"tags,omitempty"`
	Notes       string   `yaml:"notes" json:"notes,omitempty"`
	Source      string   `yaml:"source" json:"source,omitempty"`
	// BaseCommit is the commit whose tree the task is answered from: a bug
	// report's base commit, a mined commit's parent. Files and Classes
	// are the files and classes the change touched (informative), GTMethod
	// how the ground truth was derived, Commit the mined commit itself.
	BaseCommit string   `yaml:"base_commit" json:"base_commit,omitempty"`
	Commit     string   `yaml:"commit" json:"commit,omitempty"`
	Files      []string `yaml:"files" json:"files,omitempty"`
	Classes    []string `yaml:"classes" json:"classes,omitempty"`
	GTMethod   string   `yaml:"gt_method" json:"gt_method,omitempty"`
	// Path is the file the fixture was loaded from ("" if built in code).
	Path string `yaml:"-" json:"path,omitempty"`
}

// LoadError is a problem with one fixture file. Line is 1-based, 0 when
// the problem has no line (a missing field). Error formats it as
// "path:line: message" or "path: message".
type LoadError struct {
	Path string
	Line int
	Msg  string
}

func (e *LoadError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.Path, e.Line, e.Msg)
	}
	return e.Path + ": " + e.Msg
}

var yamlLineRe = regexp.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`)

// yamlError turns a yaml.v3 error into one LoadError per reported problem.
func yamlError(path string, err error) error {
	var msgs []string
	var te *yaml.TypeError
	if errors.As(err, &te) {
		msgs = te.Errors
	} else {
		msgs = []string{err.Error()}
	}
	var errs []error
	for _, m := range msgs {
		m = strings.TrimSpace(m)
		le := &LoadError{Path: path, Msg: strings.TrimPrefix(m, "yaml: ")}
		if sm := yamlLineRe.FindStringSubmatch(m); sm != nil {
			le.Line, _ = strconv.Atoi(sm[1])
			le.Msg = sm[2]
		}
		errs = append(errs, le)
	}
	if len(errs) == 1 {
		return errs[0]
	}
	return errors.Join(errs...)
}

// LoadFile reads one fixture. A YAML error names the file and line; a
// missing id or description, an empty ground_truth, an empty ground-truth
// entry, a tier other than easy, medium, hard or one of BugTiers, or a
// second YAML document is an error naming the file.
func LoadFile(path string) (Fixture, error) {
	data, err := readSmall(path)
	if err != nil {
		return Fixture{}, err
	}
	return parseFixture(path, data)
}

func parseFixture(path string, data []byte) (Fixture, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if err == io.EOF {
			return Fixture{}, &LoadError{Path: path, Msg: "empty fixture file"}
		}
		return Fixture{}, yamlError(path, err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return Fixture{}, &LoadError{Path: path, Line: extra.Line, Msg: "more than one YAML document (one task per file)"}
	} else if err != io.EOF {
		return Fixture{}, yamlError(path, err)
	}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	if root.Kind != yaml.MappingNode {
		return Fixture{}, &LoadError{Path: path, Line: root.Line, Msg: "fixture must be a YAML mapping"}
	}
	var f Fixture
	if err := root.Decode(&f); err != nil {
		return Fixture{}, yamlError(path, err)
	}
	f.Path = path
	keyLine := func(key string) int {
		for i := 0; i+1 < len(root.Content); i += 2 {
			if root.Content[i].Value == key {
				return root.Content[i].Line
			}
		}
		return 0
	}
	valueNode := func(key string) *yaml.Node {
		for i := 0; i+1 < len(root.Content); i += 2 {
			if root.Content[i].Value == key {
				return root.Content[i+1]
			}
		}
		return nil
	}
	f.ID = strings.TrimSpace(f.ID)
	if f.ID == "" {
		return Fixture{}, &LoadError{Path: path, Line: keyLine("id"), Msg: "missing id"}
	}
	if strings.TrimSpace(f.Description) == "" {
		return Fixture{}, &LoadError{Path: path, Line: keyLine("description"), Msg: "missing description"}
	}
	if len(f.GroundTruth) == 0 {
		return Fixture{}, &LoadError{Path: path, Line: keyLine("ground_truth"), Msg: "empty or missing ground_truth"}
	}
	gtNode := valueNode("ground_truth")
	for i, g := range f.GroundTruth {
		if strings.TrimSpace(g) == "" {
			line := 0
			if gtNode != nil && i < len(gtNode.Content) {
				line = gtNode.Content[i].Line
			}
			return Fixture{}, &LoadError{Path: path, Line: line, Msg: fmt.Sprintf("ground_truth entry %d is empty", i+1)}
		}
	}
	if f.Tier != "" && tierRank(f.Tier) == len(Tiers)+len(BugTiers) {
		return Fixture{}, &LoadError{Path: path, Line: keyLine("tier"), Msg: fmt.Sprintf("unknown tier %q (want easy, medium, hard, %s)", f.Tier, strings.Join(BugTiers, ", "))}
	}
	return f, nil
}

// FloorFile is the conventional name of a gate file ([LoadFloor]) kept
// beside fixtures; LoadDir skips files with this name (or floor.yml).
const FloorFile = "floor.yaml"

// LoadDir loads every *.yaml and *.yml file under dir, recursively, in
// lexical path order; files and folders whose names start with ".", and
// gate files named floor.yaml or floor.yml, are skipped. It stops at the first bad file. Two fixtures with the same id
// are an error naming both files.
func LoadDir(dir string) ([]Fixture, error) {
	var paths []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if p != dir && strings.HasPrefix(name, ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if name == FloorFile || name == "floor.yml" {
			return nil
		}
		if !d.IsDir() && (strings.HasSuffix(name, ".yaml") || strings.HasSuffix(name, ".yml")) {
			paths = append(paths, p)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	out := make([]Fixture, 0, len(paths))
	seen := make(map[string]string, len(paths))
	for _, p := range paths {
		f, err := LoadFile(p)
		if err != nil {
			return nil, err
		}
		if prev, ok := seen[f.ID]; ok {
			return nil, &LoadError{Path: p, Msg: fmt.Sprintf("duplicate id %q (also in %s)", f.ID, prev)}
		}
		seen[f.ID] = p
		out = append(out, f)
	}
	return out, nil
}

// FilterRepo returns the fixtures whose Repo is one of repos, in their
// order. With no repos it returns fixtures unchanged.
func FilterRepo(fixtures []Fixture, repos ...string) []Fixture {
	if len(repos) == 0 {
		return fixtures
	}
	var out []Fixture
	for _, f := range fixtures {
		for _, r := range repos {
			if f.Repo == r {
				out = append(out, f)
				break
			}
		}
	}
	return out
}

// tierRank orders tiers: the task tiers, then the bug-report tiers,
// anything else after.
func tierRank(t string) int {
	for i, k := range Tiers {
		if t == k {
			return i
		}
	}
	for i, k := range BugTiers {
		if t == k {
			return len(Tiers) + i
		}
	}
	return len(Tiers) + len(BugTiers)
}
