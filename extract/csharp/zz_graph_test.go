package csharp_test

import (
	"os"
	"testing"

	"github.com/knowing-dev/knowing/extract/extracttest"
	"github.com/knowing-dev/knowing/snapshot"
)

func TestZZGraph(t *testing.T) {
	root := os.Getenv("CS_GRAPH")
	if root == "" {
		t.Skip()
	}
	b := extracttest.BuildDir(t, root)
	for _, e := range b.G.Edges {
		if e.Type == snapshot.EdgeContains || e.Type == snapshot.EdgeMemberOf {
			continue
		}
		t.Logf("%s -%s(%.1f)-> %s", b.G.Nodes[e.From].QName, e.Type, e.Confidence, b.G.Nodes[e.To].QName)
	}
}
