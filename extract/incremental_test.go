package extract_test

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/knowing-dev/knowing/extract"
	"github.com/knowing-dev/knowing/extract/extracttest"
	"github.com/knowing-dev/knowing/snapshot"
)

// sectionSums writes g and returns the checksum of every section but
// meta, with the walk's start (when the build ran, like the metadata)
// zeroed.
func sectionSums(t *testing.T, g *snapshot.Graph) map[string]uint32 {
	t.Helper()
	g.Stamps.WalkStart = 0
	p := filepath.Join(t.TempDir(), "x.snap")
	if err := snapshot.Write(p, g, nil); err != nil {
		t.Fatal(err)
	}
	s, err := snapshot.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	out := map[string]uint32{}
	for _, sec := range s.Sections() {
		if sec.Name != "meta" {
			out[sec.Name] = sec.Checksum
		}
	}
	return out
}

// sourceFiles lists the source files under root, relative, sorted.
func sourceFiles(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && extract.Supported(p) {
			rel, _ := filepath.Rel(root, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(out)
	if len(out) < 4 {
		t.Fatalf("%s: %d source files", root, len(out))
	}
	return out
}

// TestIncrementalEqualsFull edits, adds, removes and renames files of
// every test repository, one step after the other, and checks that each
// incremental build gives the snapshot a full build of the same tree
// gives (every section's checksum, meta aside), parsing only what it
// must.
func TestIncrementalEqualsFull(t *testing.T) {
	ctx := context.Background()
	for _, lang := range []string{"go", "python", "javascript", "rust", "java", "csharp", "ruby", "c", "cpp"} {
		t.Run(lang, func(t *testing.T) {
			root := extracttest.CopyTree(t, filepath.Join("..", "testdata", lang))
			files := sourceFiles(t, root)
			comment := "// "
			if lang == "python" || lang == "ruby" {
				comment = "# "
			}
			abs := func(p string) string { return filepath.Join(root, filepath.FromSlash(p)) }
			_, _, prior, err := extract.BuildIncremental(ctx, extract.Options{Root: root}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if prior.Files() != len(files) {
				t.Fatalf("the prior holds %d files of %d", prior.Files(), len(files))
			}
			steps := []struct {
				name string
				do   func() error
			}{
				{"nothing", func() error { return nil }},
				{"edit", func() error {
					b, err := os.ReadFile(abs(files[0]))
					if err != nil {
						return err
					}
					return os.WriteFile(abs(files[0]), append([]byte(comment+"a line that moves every symbol\n"), b...), 0o644)
				}},
				{"add", func() error {
					b, err := os.ReadFile(abs(files[1]))
					if err != nil {
						return err
					}
					ext := filepath.Ext(files[1])
					return os.WriteFile(abs(strings.TrimSuffix(files[1], ext)+"_copy"+ext), b, 0o644)
				}},
				{"remove", func() error { return os.Remove(abs(files[2])) }},
				{"rename", func() error {
					ext := filepath.Ext(files[3])
					return os.Rename(abs(files[3]), abs(strings.TrimSuffix(files[3], ext)+"_renamed"+ext))
				}},
			}
			for _, step := range steps {
				if err := step.do(); err != nil {
					t.Fatal(err)
				}
				st, fst, next := buildBoth(t, ctx, root, prior, step.name)
				if st.Files != fst.Files || st.Nodes != fst.Nodes || st.Edges != fst.Edges || st.SourceBytes != fst.SourceBytes || st.ParseErrors != fst.ParseErrors {
					t.Errorf("%s: stats %+v, a full build's %+v", step.name, st, fst)
				}
				if st.Reused+st.Parsed != st.Files {
					t.Errorf("%s: %d reused + %d parsed != %d files", step.name, st.Reused, st.Parsed, st.Files)
				}
				// Unless an answer the language depends on changed, only
				// the files touched are parsed.
				touched := map[string]int{"nothing": 0, "edit": 1, "add": 1, "remove": 0, "rename": 1}[step.name]
				if len(st.Relanguages) == 0 && st.Parsed != touched {
					t.Errorf("%s: parsed %d files, want %d", step.name, st.Parsed, touched)
				}
				if step.name == "nothing" && (st.Parsed != 0 || len(st.Relanguages) != 0) {
					t.Errorf("nothing changed, yet %d files were parsed (%v)", st.Parsed, st.Relanguages)
				}
				// A comment moves lines only: the prior resolution serves,
				// except for C and C++, whose resolution reads lines too.
				wantResolved := step.name == "nothing" || step.name == "edit" && lang != "c" && lang != "cpp"
				if st.Resolved != wantResolved {
					t.Errorf("%s: prior resolution reused %v, want %v", step.name, st.Resolved, wantResolved)
				}
				t.Logf("%s: parsed %d, reused %d, languages parsed again: %v, resolution reused %v", step.name, st.Parsed, st.Reused, st.Relanguages, st.Resolved)
				// The next step reads the prior as the next knowing build
				// does: from its encoding.
				b, err := next.Marshal("test")
				if err != nil {
					t.Fatal(err)
				}
				if prior, err = extract.UnmarshalPrior(b, "test"); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// TestIncrementalManifest: a changed manifest makes the language's files
// parse again, and the result is a full build's.
func TestIncrementalManifest(t *testing.T) {
	ctx := context.Background()
	root := extracttest.CopyTree(t, filepath.Join("..", "testdata", "go"))
	_, _, prior, err := extract.BuildIncremental(ctx, extract.Options{Root: root}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/renamed\n\ngo 1.22\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	inc, st, _, err := extract.BuildIncremental(ctx, extract.Options{Root: root}, prior)
	if err != nil {
		t.Fatal(err)
	}
	if st.Reused != 0 || len(st.Relanguages) != 1 || !strings.Contains(st.Relanguages[0], "go.mod") {
		t.Errorf("go.mod changed: reused %d, languages parsed again %v", st.Reused, st.Relanguages)
	}
	full, _, err := extract.Build(ctx, extract.Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	want, got := sectionSums(t, full), sectionSums(t, inc)
	for name, sum := range want {
		if got[name] != sum {
			t.Errorf("section %s differs from a full build's", name)
		}
	}
	found := false
	for _, n := range inc.Nodes {
		found = found || strings.HasPrefix(n.QName, "example.com/renamed/")
	}
	if !found {
		t.Error("no symbol under the new module path")
	}
}

// TestIncrementalRustModules: an edit of a Rust module file that changes
// none of its declarations (a comment, a function body) parses that file
// alone, although other files' extraction read it; a new declaration
// parses the language again. Each result is a full build's.
func TestIncrementalRustModules(t *testing.T) {
	ctx := context.Background()
	root := extracttest.CopyTree(t, filepath.Join("..", "testdata", "rust"))
	_, _, prior, err := extract.BuildIncremental(ctx, extract.Options{Root: root}, nil)
	if err != nil {
		t.Fatal(err)
	}
	step := func(name string, edit func(b []byte) []byte, file string, wantParsed int) {
		t.Helper()
		p := filepath.Join(root, filepath.FromSlash(file))
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, edit(b), 0o644); err != nil {
			t.Fatal(err)
		}
		st, _, next := buildBoth(t, ctx, root, prior, name+" "+file)
		if wantParsed > 0 && (st.Parsed != wantParsed || len(st.Relanguages) != 0) {
			t.Errorf("%s %s: parsed %d (again: %v), want %d", name, file, st.Parsed, st.Relanguages, wantParsed)
		}
		if wantParsed == 0 && (len(st.Relanguages) != 1 || !strings.Contains(st.Relanguages[0], "(rust.module)")) {
			t.Errorf("%s %s: languages parsed again %v, want rust for a module's declarations", name, file, st.Relanguages)
		}
		prior = next
	}
	for _, f := range sourceFiles(t, root) {
		step("comment", func(b []byte) []byte { return append(b, "// an edit that declares nothing\n"...) }, f, 1)
	}
	step("declaration", func(b []byte) []byte { return append(b, "pub fn added_by_the_test() {}\n"...) }, "src/store/mod.rs", 0)
	step("re-export", func(b []byte) []byte { return append(b, "pub use crate::task::*;\n"...) }, "src/lib.rs", 0)
}

// buildBoth builds root incrementally from prior and in full, reports
// (under label) each section in which the two differ, and returns both
// builds' stats and the incremental build's Prior.
func buildBoth(t *testing.T, ctx context.Context, root string, prior *extract.Prior, label string) (st, fst *extract.Stats, next *extract.Prior) {
	t.Helper()
	inc, st, next, err := extract.BuildIncremental(ctx, extract.Options{Root: root}, prior)
	if err != nil {
		t.Fatal(err)
	}
	full, fst, err := extract.Build(ctx, extract.Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	want, got := sectionSums(t, full), sectionSums(t, inc)
	for sec, sum := range want {
		if got[sec] != sum {
			t.Errorf("%s: section %s differs from a full build's", label, sec)
		}
	}
	return st, fst, next
}
