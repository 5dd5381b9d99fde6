package snapshot_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/knowing-dev/knowing/bm25"
	"github.com/knowing-dev/knowing/snapshot"
)

func Example() {
	dir, err := os.MkdirTemp("", "snapshot-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "repo.snap")

	// Extraction produces a Graph; Write compiles it into one file.
	g := &snapshot.Graph{
		Files: []snapshot.File{{Path: "cli/commandLineParser.ts", Lang: snapshot.LangTypeScript}},
		Nodes: []snapshot.Node{
			{Name: "parseCommandLine", QName: "cli.parseCommandLine", Kind: snapshot.KindFunction, File: 0,
				Signature: "parseCommandLine(argv: string[]): Options", Doc: "Parses the arguments into Options."},
			{Name: "Options", QName: "cli.Options", Kind: snapshot.KindInterface, File: 0},
			{Name: "readConfigFile", QName: "cli.readConfigFile", Kind: snapshot.KindFunction, File: 0},
		},
		Edges: []snapshot.Edge{
			{From: 0, To: 1, Type: snapshot.EdgeReferences, Confidence: 1},
			{From: 0, To: 2, Type: snapshot.EdgeCalls, Confidence: 0.5},
		},
	}
	if err := snapshot.Write(path, g, nil); err != nil {
		log.Fatal(err)
	}

	// At query time the file is mapped, not decoded.
	s, err := snapshot.Open(path)
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()

	for _, id := range s.LookupName("parsecommandline", nil) {
		fmt.Println("found", s.QName(id), s.Kind(id))
		it := s.Neighbors(id, snapshot.Out)
		for it.Next() {
			fmt.Printf("  %s → %s (confidence %.2f)\n", it.Type(), s.Name(it.Node()), it.Confidence())
		}
	}
	fmt.Println("part \"config\":", s.Name(s.LookupPart("config", nil)[0]))

	ix, err := s.BM25()
	if err != nil {
		log.Fatal(err)
	}
	q := []bm25.QueryTerm{{Text: "parse"}, {Text: "command"}, {Text: "line"}}
	for _, h := range bm25.NewSearcher(ix).Search(q, 1) {
		fmt.Println("BM25 top hit:", s.QName(h.Doc))
	}
	// Output:
	// found cli.parseCommandLine function
	//   references → Options (confidence 1.00)
	//   calls → readConfigFile (confidence 0.50)
	// part "config": readConfigFile
	// BM25 top hit: cli.parseCommandLine
}
