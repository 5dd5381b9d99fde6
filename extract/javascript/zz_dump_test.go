package javascript

import (
	"fmt"
	"os"
	"sort"
	"testing"

	"github.com/knowing-dev/knowing/extract/extracttest"
)

func TestZZDump(t *testing.T) {
	if os.Getenv("DUMP") == "" {
		t.Skip()
	}
	b := extracttest.BuildDir(t, "../../testdata/javascript")
	var lines []string
	for _, e := range b.G.Edges {
		if e.Type.String() == "contains" || e.Type.String() == "member_of" {
			continue
		}
		lines = append(lines, fmt.Sprintf("%-60s -%s-> %s (%.1f)", b.G.Nodes[e.From].QName, e.Type, b.G.Nodes[e.To].QName, e.Confidence))
	}
	sort.Strings(lines)
	for _, n := range b.G.Nodes {
		fmt.Printf("NODE %-12s %-55s flags=%s sig=%q doc=%q\n", n.Kind, n.QName, n.Flags, n.Signature, n.Doc)
	}
	for _, l := range lines {
		fmt.Println(l)
	}
}
