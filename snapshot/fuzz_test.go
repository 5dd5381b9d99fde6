package snapshot

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/knowing-dev/knowing/bm25"
)

var writeSeeds = flag.Bool("write-seeds", false, "rewrite testdata/fuzz/FuzzOpenVerify")

// FuzzOpenVerify feeds mutated snapshots to Open, Verify and the lookups:
// nothing may panic. Each input is tried as is and again with its
// checksums repaired, so the fuzzer also reaches the structural checks
// behind them.
func FuzzOpenVerify(f *testing.F) {
	for _, seed := range fuzzSeeds(f) {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		exercise(data)
		if fixed := fixChecksums(data); fixed != nil {
			exercise(fixed)
		}
	})
}

func exercise(data []byte) {
	s, err := openBytes(data)
	if err != nil {
		return
	}
	verified := s.Verify() == nil
	n := uint32(s.NumNodes())
	var ids []uint32
	for id := uint32(0); id < min(n, 8)+1; id++ {
		_, _ = s.Name(id), s.QName(id)
		_, _ = s.Node(id)
		s.Lines(id)
		for _, dir := range []Direction{Out, In} {
			nb := s.Neighbors(id, dir)
			for nb.Next() {
				_ = nb.Node()
			}
			_ = s.Degree(id, dir)
		}
	}
	for i := 0; i < min(s.NumFiles(), 4)+1; i++ {
		_, _ = s.File(i)
	}
	for _, q := range []string{"", "a", "parse", "zz", "\xff"} {
		ids = s.LookupName(q, ids[:0])
		ids = s.LookupPart(q, ids[:0])
	}
	for _, it := range []*KeyIter{s.NewNameIter()} {
		for _, p := range []string{"", "p", "\x00"} {
			it.Reset(p)
			for k := 0; k < 64 && it.Next(); k++ {
				ids = it.Nodes(ids[:0])
			}
		}
	}
	_, _ = s.Info()
	s.Sections()
	if ix, err := s.BM25(); err == nil && verified {
		// The bm25 package reads its own sections; it is only asked to
		// search what Verify accepted.
		bm25.NewSearcher(ix).Search([]bm25.QueryTerm{{Text: "parse"}, {Text: "value"}}, 5)
	}
}

// fixChecksums recomputes every section checksum and the header checksum
// of data, when its table can be read; nil otherwise.
func fixChecksums(in []byte) []byte {
	if len(in) < headerSize || string(in[:len(magic)]) != magic {
		return nil
	}
	nsec := le.Uint32(in[hSections:])
	end := headerSize + int(nsec)*tableEntry
	if nsec > maxSections || len(in) < end {
		return nil
	}
	data := append([]byte(nil), in...)
	for i := 0; i < int(nsec); i++ {
		e := data[headerSize+i*tableEntry:]
		off, n := le.Uint64(e[8:]), le.Uint64(e[16:])
		if off <= uint64(len(data)) && n <= uint64(len(data))-off {
			le.PutUint32(e[4:], checksum(data[off:off+n]))
		}
	}
	le.PutUint32(data[hFileLen:], uint32(len(data)))
	le.PutUint32(data[hFileLen+4:], 0)
	le.PutUint32(data[hCRC:], 0)
	le.PutUint32(data[hCRC:], checksum(data[:end]))
	return data
}

func tinyGraph() *Graph {
	return &Graph{
		Files: []File{{Path: "cli/commandLineParser.ts", Lang: LangTypeScript, Size: 900}, {Path: "main.go", Lang: LangGo}},
		Nodes: []Node{
			{Name: "parseArgs", QName: "cli.parseArgs", Kind: KindFunction, Lang: LangTypeScript, File: 0, StartLine: 3, EndLine: 9, Signature: "parseArgs(argv: string[])", Doc: "parseArgs parses the command line."},
			{Name: "Options", QName: "cli.Options", Kind: KindClass, Lang: LangTypeScript, File: 0, StartLine: 11, EndLine: 30},
			{Name: "parse_value", QName: "main.parse_value", Kind: KindFunction, Lang: LangGo, File: 1, Signature: "func parse_value(s string) int"},
			{Name: "Options", QName: "main.Options", Kind: KindStruct, Lang: LangGo, File: 1},
			{Name: "fmt", QName: "fmt", Kind: KindExternal, File: -1, Flags: FlagExternal},
		},
		Edges: []Edge{{0, 1, EdgeReferences, 1}, {2, 4, EdgeCalls, 0.5}, {0, 2, EdgeCalls, 0.25}, {3, 2, EdgeTypeHintOf, 1}},
	}
}

// fuzzSeeds are small valid snapshots and a few mutations of them.
func fuzzSeeds(tb testing.TB) [][]byte {
	var seeds [][]byte
	for _, c := range []struct {
		g   *Graph
		opt *WriteOptions
	}{
		{tinyGraph(), testOptions()},
		{tinyGraph(), &WriteOptions{NoBM25: true, ColdBlock: 2}},
		{&Graph{}, &WriteOptions{NoBM25: true}},
		{randomGraph(11, 3, 30, 60), testOptions()},
	} {
		img, err := encode(c.g, c.opt)
		if err != nil {
			tb.Fatal(err)
		}
		seeds = append(seeds, img.bytes())
	}
	v := seeds[0]
	seeds = append(seeds, v[:len(v)/2])
	flipped := append([]byte(nil), v...)
	flipped[len(v)*2/3] ^= 0xff
	seeds = append(seeds, fixChecksums(flipped))
	future := append([]byte(nil), v...)
	le.PutUint32(future[hVersion:], FormatVersion+1)
	seeds = append(seeds, future)
	return seeds
}

// TestWriteFuzzSeeds regenerates the checked-in seed corpus when run with
// -write-seeds.
func TestWriteFuzzSeeds(t *testing.T) {
	if !*writeSeeds {
		t.Skip("run with -write-seeds to regenerate testdata/fuzz/FuzzOpenVerify")
	}
	dir := filepath.Join("testdata", "fuzz", "FuzzOpenVerify")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i, s := range fuzzSeeds(t) {
		body := "go test fuzz v1\n[]byte(" + strconv.Quote(string(s)) + ")\n"
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("seed-%02d", i)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
