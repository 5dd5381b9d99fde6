package baseline

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/knowing-dev/knowing/query"
	"github.com/knowing-dev/knowing/snapshot"
)

const storeSrc = `package store

func Load(path string) ([]byte, error) {
	data := read(path)
	if sum(data) != 0 {
		return nil, fmt.Errorf("checksum mismatch in %s", path)
	}
	return data, nil
}

func Save(path string, data []byte) error {
	return write(path, data)
}

func Close() error { return nil }
`

const storeTestSrc = `package store

func TestLoadChecksumMismatch(t *testing.T) {
	t.Fatal("checksum mismatch checksum mismatch")
}
`

// bodyEngine writes the store sources under a fresh root and a snapshot
// of their functions whose names say nothing of what the bodies do.
func bodyEngine(t *testing.T) (*snapshot.Snapshot, *query.Engine, string) {
	t.Helper()
	root := t.TempDir()
	for p, src := range map[string]string{"store/store.go": storeSrc, "store/store_test.go": storeTestSrc} {
		if err := os.MkdirAll(filepath.Join(root, "store"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(p)), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	g := &snapshot.Graph{Meta: snapshot.Meta{RepoRoot: root}, Files: []snapshot.File{
		{Path: "store/store.go", Lang: snapshot.LangGo},
		{Path: "store/store_test.go", Lang: snapshot.LangGo, Flags: snapshot.FlagTest},
	}}
	fn := func(q string, file int32, flags snapshot.Flags, lo, hi uint32) {
		g.Nodes = append(g.Nodes, snapshot.Node{Name: q[len("store."):], QName: q, Kind: snapshot.KindFunction,
			Lang: snapshot.LangGo, Flags: flags, File: file, StartLine: lo, EndLine: hi})
	}
	fn("store.Load", 0, 0, 3, 9)
	fn("store.Save", 0, 0, 11, 13)
	fn("store.Close", 0, 0, 15, 15)
	fn("store.TestLoadChecksumMismatch", 1, snapshot.FlagTest, 3, 5)
	g.Nodes = append(g.Nodes, snapshot.Node{Name: "Store", QName: "store.Store", Kind: snapshot.KindStruct,
		Lang: snapshot.LangGo, File: 0, StartLine: 1, EndLine: 15})
	s, e := openGraph(t, g)
	return s, e, root
}

func TestBodyFindsAMessageItFormats(t *testing.T) {
	s, e, _ := bodyEngine(t)
	b, err := NewBody(context.Background(), s, "")
	if err != nil {
		t.Fatal(err)
	}
	if b.Len() != 4 {
		t.Errorf("indexed %d callables, want the 4 functions (no struct)", b.Len())
	}
	items, err := b.Rank(context.Background(), e, `reading fails with "checksum mismatch in data.bin"`, 10)
	if err != nil {
		t.Fatal(err)
	}
	// The test says the words twice as often, but the task does not ask
	// for tests; Save shares only "data", Close nothing.
	if got := symbols(items); !slices.Equal(got, []string{"store.Load", "store.Save"}) {
		t.Errorf("ranked %v, want [store.Load store.Save]", got)
	}
	items, err = b.Rank(context.Background(), e, "which test covers the checksum mismatch", 10)
	if err != nil {
		t.Fatal(err)
	}
	if got := symbols(items); !slices.Equal(got, []string{"store.TestLoadChecksumMismatch", "store.Load"}) {
		t.Errorf("a task asking for tests ranked %v", got)
	}
	// Words of two bodies: the one with the rarer word first.
	items, err = b.Rank(context.Background(), e, "write the data to path", 10)
	if err != nil {
		t.Fatal(err)
	}
	if got := symbols(items); len(got) < 2 || got[0] != "store.Save" {
		t.Errorf("write task ranked %v, want store.Save first", got)
	}
	if _, err := b.Rank(context.Background(), e, "  ", 10); err == nil {
		t.Error("an empty task ranked")
	}
}

func TestBodyNeedsTheSource(t *testing.T) {
	s, _, _ := bodyEngine(t)
	if _, err := NewBody(context.Background(), s, t.TempDir()); err == nil {
		t.Error("indexed bodies from a folder without the source")
	}
}
