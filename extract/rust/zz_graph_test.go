package rust

import (
	"os"
	"testing"

	"github.com/knowing-dev/knowing/extract/extracttest"
	"github.com/knowing-dev/knowing/snapshot"
)

func TestZZGraph(t *testing.T) {
	if os.Getenv("GRAPH") == "" {
		t.Skip()
	}
	b := extracttest.BuildDir(t, "../../testdata/rust")
	g := b.G
	for i, n := range g.Nodes {
		t.Logf("%d %s %s flags=%v type? sig=%q doc=%q", i, n.Kind, n.QName, n.Flags, n.Signature, n.Doc)
	}
	for _, e := range g.Edges {
		if e.Type == snapshot.EdgeContains || e.Type == snapshot.EdgeMemberOf {
			continue
		}
		t.Logf("%s -%s(%.1f)-> %s", g.Nodes[e.From].QName, e.Type, e.Confidence, g.Nodes[e.To].QName)
	}
}
